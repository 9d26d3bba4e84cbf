/** /admin/data-quality: the open data issues of the operator's properties, accepted or rejected one by one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  AcceptDataIssueDocument,
  type DataIssueResolution,
  type DataIssueStatus,
  DataQualityQueueDocument,
  type DataQualityQueueQuery,
  GiveRadioIdDocument,
  RejectDataIssueDocument,
} from '../../client/gql/admin.ts';
import { formatDecimalText, formatNumber, unitSymbol } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { isQuantityId } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import {
  ErrorAlert,
  idFromQuery,
  PropertySelect,
  setInAddress,
  TableScroll,
  useProperties,
  WhenCell,
  when,
} from './opsShared.tsx';
import { useRefusalText } from './refusalText.ts';
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

/** Why a telegram of a known meter gave no reading (src/server/mqtt/inbox.ts); others are shown as the code. */
const UNTAKEN_REASONS = ['no_value', 'refused', 'malformed'] as const;
type UntakenReason = (typeof UNTAKEN_REASONS)[number];

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
  const { issues, unknownRadioIds, untakenTelegrams, mqttFeed } = queue.data.dataQualityQueue;
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
      {mqttFeed && <FeedStatus feed={mqttFeed} lang={lang} />}
      {untakenTelegrams.length > 0 && (
        <TelegramSection
          id="untaken"
          title={t('quality.untaken_title')}
          hint={t('quality.untaken_hint')}
          columns={[t('quality.meter'), t('quality.reason')]}
        >
          {untakenTelegrams.map((u) => (
            <tr key={`${u.radioId}-${u.reason}`}>
              <th scope="row">
                <span className="admin-nowrap">{u.meterNumber}</span>
                <span className="admin-subtle">
                  {propertyName.get(u.propertyId)} · {t('quality.radio_id')} <code>{u.radioId}</code>
                  {u.driver ? ` · ${u.driver}` : ''}
                </span>
              </th>
              <td className="admin-why">
                {UNTAKEN_REASONS.includes(u.reason as UntakenReason)
                  ? t(`quality.untaken_reasons.${u.reason as UntakenReason}`)
                  : u.reason}
                <UntakenDetail telegrams={u} lang={lang} />
              </td>
              <TelegramCounts telegrams={u.telegrams} lastSeen={u.lastSeen} lang={lang} />
            </tr>
          ))}
        </TelegramSection>
      )}
      {unknownRadioIds.length > 0 && (
        <TelegramSection
          id="radio"
          title={t('quality.unknown_title')}
          hint={t('quality.unknown_hint')}
          columns={[t('quality.radio_id'), t('quality.give_column')]}
        >
          {unknownRadioIds.map((u) => (
            <UnknownRow key={u.radioId} unknown={u} lang={lang} />
          ))}
        </TelegramSection>
      )}
    </div>
  );
}

type Feed = NonNullable<DataQualityQueueQuery['dataQualityQueue']['mqttFeed']>;

/**
 * The MQTT feed as its subscribers last reported (src/server/mqtt/status.ts): connected or not and since when,
 * the broker's latest error, the last telegram stored; a subscriber that stopped reporting is said to be so; and
 * the telegrams waiting to be taken in.
 */
function FeedStatus({ feed, lang }: { feed: Feed; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  return (
    <section className="card stack admin-feed" aria-labelledby="feed-title" data-testid="mqtt-feed">
      <h2 id="feed-title">{t('quality.feed.title')}</h2>
      {feed.subscribers.map((s) => {
        const level = !s.running ? 'bad' : s.connected ? 'ok' : 'warn';
        return (
          <div key={s.clientId} className="stack" data-testid={`feed-${s.clientId}`}>
            <p>
              <span className={`status-dot ${level}`} aria-hidden="true" />
              {!s.running
                ? t('quality.feed.not_running', { at: when(s.reportedAt, lang) })
                : t(s.connected ? 'quality.feed.connected' : 'quality.feed.disconnected', {
                    url: s.url,
                    at: when(s.since, lang),
                  })}
              <span className="admin-subtle">
                {t('quality.feed.subscription', { topic: s.topic, clientId: s.clientId })}
              </span>
            </p>
            {s.lastError && <p className="admin-why">{t('quality.feed.error', { error: s.lastError })}</p>}
            <p>
              {s.lastTelegramAt
                ? t('quality.feed.last_telegram', { at: when(s.lastTelegramAt, lang) })
                : t('quality.feed.no_telegram')}
            </p>
          </div>
        );
      })}
      <p>
        {feed.waiting === 0
          ? t('quality.feed.none_waiting')
          : t('quality.feed.waiting', {
              count: feed.waiting,
              n: formatNumber(feed.waiting, lang),
              at: when(feed.oldestWaitingAt, lang),
            })}
      </p>
    </section>
  );
}

/** "Update the list", after a row's decision: the queue is asked for again. */
function RefreshQueue({ ref }: { ref?: Ref<HTMLButtonElement> }) {
  const { t } = useTranslation('admin-ops');
  const client = useQueryClient();
  return (
    <button
      ref={ref}
      type="button"
      className="button ghost"
      onClick={() => client.invalidateQueries({ queryKey: ['admin', 'dataQuality'] })}
    >
      {t('quality.refresh')}
    </button>
  );
}

type Unknown = DataQualityQueueQuery['dataQualityQueue']['unknownRadioIds'][number];

/** An unknown radio id, with a form that gives it to a meter by the meter's number. */
function UnknownRow({ unknown: u, lang }: { unknown: Unknown; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const [meterNumber, setMeterNumber] = useState('');
  const give = useMutation({
    mutationFn: () => adminRequest(GiveRadioIdDocument, { radioId: u.radioId, meterNumber }),
  });
  const given = give.data?.giveRadioId;
  const inputId = `give-${u.radioId}`;
  // The form goes once the id is given: the focus goes to what replaces it, not back to the page's start.
  const refreshButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (given) refreshButton.current?.focus();
  }, [given]);
  return (
    <tr data-testid={`radio-${u.radioId}`}>
      <td>
        <code className="admin-nowrap">{u.radioId}</code>
        {u.driver && <span className="admin-subtle">{u.driver}</span>}
      </td>
      <td>
        {given ? (
          <span role="status">
            {t('quality.given', { meter: given.meterNumber })} <RefreshQueue ref={refreshButton} />
          </span>
        ) : (
          <form
            className="admin-row-actions"
            onSubmit={(e) => {
              e.preventDefault();
              if (meterNumber.trim()) give.mutate();
            }}
          >
            <label className="visually-hidden" htmlFor={inputId}>
              {t('quality.give_label', { radioId: u.radioId })}
            </label>
            <input
              id={inputId}
              value={meterNumber}
              onChange={(e) => setMeterNumber(e.target.value)}
              placeholder={t('quality.give_placeholder')}
              autoComplete="off"
              spellCheck={false}
              required
            />
            <button type="submit" className="button" disabled={give.isPending}>
              {t('quality.give')}
            </button>
          </form>
        )}
        <ErrorAlert code={give.error?.message} />
      </td>
      <TelegramCounts telegrams={u.telegrams} lastSeen={u.lastSeen} lang={lang} />
    </tr>
  );
}

/** Why the latest telegram gave nothing: localised from its code, else the English detail as stored. */
function UntakenDetail({
  telegrams,
  lang,
}: {
  telegrams: DataQualityQueueQuery['dataQualityQueue']['untakenTelegrams'][number];
  lang: Language;
}) {
  const { telegramDetail } = useRefusalText(lang);
  const text = telegramDetail(telegrams.detailCode, telegrams.detailParams) ?? telegrams.detail;
  return text ? (
    <span className="admin-subtle" data-testid="untaken-detail">
      {text}
    </span>
  ) : null;
}

/** A table of telegrams that gave no reading: its own columns first, then how many and when last. */
function TelegramSection({
  id,
  title,
  hint,
  columns,
  children,
}: {
  id: string;
  title: string;
  hint?: string;
  columns: string[];
  children: ReactNode;
}) {
  const { t } = useTranslation('admin-ops');
  return (
    <section className="stack" aria-labelledby={`${id}-title`} data-testid={`${id}-telegrams`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {hint && <p>{hint}</p>}
      <TableScroll label={title}>
        <table className="admin-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
              <th scope="col" className="num">
                {t('quality.telegrams')}
              </th>
              <th scope="col">{t('quality.last_seen')}</th>
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function TelegramCounts({
  telegrams,
  lastSeen,
  lang,
}: {
  telegrams: number;
  lastSeen: string;
  lang: Language;
}) {
  return (
    <>
      <td className="num">{telegrams}</td>
      <td>
        <WhenCell iso={lastSeen} lang={lang} />
      </td>
    </>
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
