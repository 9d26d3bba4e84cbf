/**
 * /admin/data-quality: the open data issues of the operator's properties, accepted or rejected one by one; below
 * them the MQTT feed's part (DataQualityFeed.tsx).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  AcceptDataIssueDocument,
  type DataIssueResolution,
  type DataIssueStatus,
  DataQualityQueueDocument,
  type DataQualityQueueQuery,
  RejectDataIssueDocument,
} from '../../client/gql/admin.ts';
import { formatDecimalText, formatNumber, unitSymbol } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { isQuantityId } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { TelegramSections } from './DataQualityFeed.tsx';
import {
  ErrorAlert,
  idFromQuery,
  PropertySelect,
  RefreshQueue,
  setInAddress,
  useProperties,
  WhenCell,
  when,
} from './opsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function DataQuality({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Queue lang={lang} />
    </Providers>
  );
}

type Issue = DataQualityQueueQuery['dataQualityQueue']['issues'][number];

const STATUSES: DataIssueStatus[] = ['OPEN', 'ACCEPTED', 'REJECTED', 'ALL'];

/** How many issues one page shows, newest first; the page says so when there may be more. */
const SHOWN = 200;

function Queue({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const operator = useOperator();
  // `?property=`: the portfolio's open-issue counts link here so.
  const [propertyId, setPropertyId] = useState(() => idFromQuery('property') ?? '');
  const [status, setStatus] = useState<DataIssueStatus>('OPEN');
  const queue = useQuery({
    queryKey: ['admin', 'dataQuality', propertyId, status],
    queryFn: () =>
      adminRequest(DataQualityQueueDocument, {
        filter: { status, ...(propertyId ? { propertyId } : {}) },
        first: SHOWN,
      }),
    enabled: operator !== null,
  });
  const properties = useProperties();
  const propertyName = new Map(
    (properties.data?.properties ?? []).map((p) => [p.id, `${p.number} · ${p.name || p.address}`]),
  );
  const filters = (
    <search className="admin-toolbar" aria-label={t('quality.filters')}>
      <PropertySelect
        value={propertyId}
        emptyLabel={t('quality.all_properties')}
        onChange={(id) => {
          setPropertyId(id);
          setInAddress('property', id);
        }}
      />
      <div className="field">
        <label htmlFor="quality-status">{t('quality.status')}</label>
        <select
          id="quality-status"
          value={status}
          onChange={(e) => setStatus(e.target.value as DataIssueStatus)}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`quality.statuses.${s}`)}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
  if (!queue.data) {
    return (
      <div className="stack">
        {filters}
        {queue.isError ? <ErrorAlert code={queue.error.message} /> : <Spinner label={t('loading')} />}
      </div>
    );
  }
  const { issues } = queue.data.dataQualityQueue;
  return (
    <div className="stack">
      {filters}
      {issues.length >= SHOWN && (
        <p className="muted" role="status">
          {t('quality.newest_only', { count: SHOWN })}
          {!propertyId && ` ${t('quality.newest_hint')}`}
        </p>
      )}
      {issues.length === 0 ? (
        <p className="card muted" data-testid="queue-empty">
          {status === 'OPEN' && !propertyId ? t('quality.empty') : t('quality.none_match')}
        </p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table" data-testid="quality-table">
            <caption className="visually-hidden">{t('quality.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('quality.meter')}</th>
                <th scope="col">{t('quality.kind')}</th>
                <th scope="col">{t('quality.when')}</th>
                <th scope="col" className="num">
                  {t('quality.value')}
                </th>
                <th scope="col">{t('quality.reason')}</th>
                <th scope="col">{t('quality.decision')}</th>
              </tr>
            </thead>
            <tbody>
              {issues.map((i) => (
                <IssueRow key={i.id} issue={i} lang={lang} property={propertyName.get(i.propertyId)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <TelegramSections queue={queue.data.dataQualityQueue} propertyName={propertyName} lang={lang} />
    </div>
  );
}

/** A stored reading the evidence names: a suspect reading's neighbours, a silent or stuck meter's last one. */
interface Neighbour {
  ts: string;
  value: string;
}

/** The evidence data_issues keeps (src/server/ingest/misread.ts, meterHealth.ts); each field as it may be. */
interface Evidence {
  quantity?: string;
  bound?: number;
  /** The interval the rules refused: from the reading before to the suspect one, or from it to the next. */
  interval?: { from?: Neighbour | null; to?: Neighbour | null } | null;
  before?: Neighbour | null;
  after?: Neighbour | null;
  silentHours?: number;
  stuckDays?: number;
  since?: Neighbour | null;
  last?: Neighbour | null;
}

const isNeighbour = (x: unknown): x is Neighbour =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as Neighbour).ts === 'string' &&
  typeof (x as Neighbour).value === 'string';

/**
 * Why the issue was raised, in the operator's language, from its evidence: the interval the rules refused (from
 * the reading before to the suspect one, or from it to the next) and the third reading around it, the plausible
 * rise, a silent or stuck meter's last reading. The server's English reason is shown when the evidence lacks
 * what a sentence needs (an issue raised before the evidence had these fields).
 */
function Why({ issue: i, lang }: { issue: Issue; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const e = (typeof i.evidence === 'object' && i.evidence !== null ? i.evidence : {}) as Evidence;
  const unit = (value: number) => (isQuantityId(e.quantity) ? ` ${unitSymbol(e.quantity, value, lang)}` : '');
  const amount = (value: string) => `${formatDecimalText(value, lang)}${unit(Number(value))}`;
  const sentences: string[] = [];
  const from = e.interval?.from;
  const to = e.interval?.to;
  if (
    (i.kind === 'DROP' || i.kind === 'DIGIT_SHIFT' || i.kind === 'JUMP') &&
    isNeighbour(from) &&
    isNeighbour(to)
  ) {
    const values = {
      from: amount(from.value),
      fromWhen: when(from.ts, lang),
      to: amount(to.value),
      toWhen: when(to.ts, lang),
    };
    if (i.kind === 'DROP') sentences.push(t('quality.why.drop', values));
    else if (i.kind === 'DIGIT_SHIFT') sentences.push(t('quality.why.digit_shift', values));
    else if (typeof e.bound === 'number') {
      sentences.push(
        t('quality.why.jump', { ...values, bound: `${formatNumber(e.bound, lang)}${unit(e.bound)}` }),
      );
    }
    // The third reading around it: the next one when the refused interval ended at the suspect reading, else the
    // one before.
    const endsAtSuspect = Date.parse(to.ts) === Date.parse(i.readingTs);
    if (sentences.length > 0 && endsAtSuspect && isNeighbour(e.after)) {
      sentences.push(
        t('quality.why.next', { after: amount(e.after.value), afterWhen: when(e.after.ts, lang) }),
      );
    } else if (sentences.length > 0 && !endsAtSuspect && isNeighbour(e.before)) {
      sentences.push(
        t('quality.why.previous', { before: amount(e.before.value), beforeWhen: when(e.before.ts, lang) }),
      );
    }
  } else if (i.kind === 'SILENT' && typeof e.silentHours === 'number') {
    sentences.push(
      isNeighbour(e.last)
        ? t('quality.why.silent', {
            hours: e.silentHours,
            last: amount(e.last.value),
            lastWhen: when(e.last.ts, lang),
          })
        : t('quality.why.silent_never', { hours: e.silentHours }),
    );
  } else if (i.kind === 'STUCK' && typeof e.stuckDays === 'number' && isNeighbour(e.since)) {
    sentences.push(
      t('quality.why.stuck', {
        value: amount(e.since.value),
        sinceWhen: when(e.since.ts, lang),
        days: e.stuckDays,
      }),
    );
  }
  return <>{sentences.length > 0 ? sentences.join(' ') : i.reason}</>;
}

function IssueRow({
  issue: i,
  lang,
  property,
}: {
  issue: Issue;
  lang: Language;
  property?: string | undefined;
}) {
  const { t } = useTranslation('admin-ops');
  const finding = i.readingValue === null;
  const choices: DataIssueResolution[] = finding ? ['NOTED'] : ['CORRECT', 'RESET'];
  const [as, setAs] = useState<DataIssueResolution>(choices[0]!);
  const [decided, setDecided] = useState<'ACCEPTED' | 'REJECTED' | null>(null);
  const accept = useMutation({
    mutationFn: () => adminRequest(AcceptDataIssueDocument, { input: { id: i.id, as } }),
    onSuccess: () => setDecided('ACCEPTED'),
  });
  const reject = useMutation({
    mutationFn: () => adminRequest(RejectDataIssueDocument, { id: i.id }),
    onSuccess: () => setDecided('REJECTED'),
  });
  const error = accept.error?.message ?? reject.error?.message;
  return (
    <tr data-testid={`issue-${i.meterNumber}`}>
      <th scope="row">
        <span className="admin-nowrap">{i.meterNumber}</span>
        <span className="admin-subtle">{[property, i.apartment].filter(Boolean).join(' · ')}</span>
      </th>
      <td>{t(`quality.kinds.${i.kind}`)}</td>
      <td>
        <WhenCell iso={i.readingTs} lang={lang} />
      </td>
      <td className="num">{i.readingValue === null ? '—' : formatDecimalText(i.readingValue, lang)}</td>
      <td className="admin-why">
        <Why issue={i} lang={lang} />
      </td>
      <td>
        {i.status !== 'OPEN' ? (
          <span>
            {i.status === 'REJECTED'
              ? t('quality.was_rejected')
              : i.resolution === 'NOTED' || i.resolution === null
                ? t('quality.was_noted')
                : t('quality.was_accepted', { as: t(`quality.as.${i.resolution}`) })}
            {i.resolvedBy && (
              <span className="admin-subtle">
                {i.resolvedBy}, {when(i.resolvedAt, lang)}
              </span>
            )}
          </span>
        ) : decided ? (
          <span role="status">
            {t(`quality.decided.${decided}`)} <RefreshQueue />
          </span>
        ) : (
          <div className="admin-row-actions">
            <label className="visually-hidden" htmlFor={`as-${i.id}`}>
              {t('quality.accept_as', { meter: i.meterNumber })}
            </label>
            <select
              id={`as-${i.id}`}
              value={as}
              onChange={(e) => setAs(e.target.value as DataIssueResolution)}
            >
              {choices.map((c) => (
                <option key={c} value={c}>
                  {t(`quality.as.${c}`)}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button primary"
              disabled={accept.isPending}
              onClick={() => accept.mutate()}
            >
              {t('quality.accept')}
            </button>
            <button
              type="button"
              className="button ghost"
              disabled={reject.isPending}
              onClick={() => reject.mutate()}
            >
              {t('quality.reject')}
            </button>
          </div>
        )}
        <ErrorAlert code={error} />
      </td>
    </tr>
  );
}
