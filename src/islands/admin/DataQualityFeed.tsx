/**
 * The data-quality page's MQTT part (src/islands/admin/DataQuality.tsx): the feed's state, telegrams of the
 * operator's meters that gave no reading, and unknown radio ids, each given to a meter in its row.
 */
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { type DataQualityQueueQuery, GiveRadioIdDocument } from '../../client/gql/admin.ts';
import { formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { ErrorAlert, RefreshQueue, TableScroll, WhenCell, when } from './opsShared.tsx';
import { useRefusalText } from './refusalText.ts';

type Queue = DataQualityQueueQuery['dataQualityQueue'];

/** Why a telegram of a known meter gave no reading (src/server/mqtt/inbox.ts); others are shown as the code. */
const UNTAKEN_REASONS = ['no_value', 'refused', 'malformed'] as const;
type UntakenReason = (typeof UNTAKEN_REASONS)[number];

/** The feed's state (for the admins of the organisation that runs it), then the two lists of telegrams, when any. */
export function TelegramSections({
  queue,
  propertyName,
  lang,
}: {
  queue: Queue;
  propertyName: Map<string, string>;
  lang: Language;
}) {
  const { t } = useTranslation('admin-ops');
  const { mqttFeed, untakenTelegrams, unknownRadioIds } = queue;
  return (
    <>
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
    </>
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
