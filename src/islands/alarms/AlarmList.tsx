/** The alarm list (SPEC §2 alarms): each alarm's state (OK, triggered with when, off) and the way to a new one. */
import { useTranslation } from 'react-i18next';
import { lower } from '../../client/i18nKeys.ts';
import { useAlarms } from '../../client/operations/alarmQueries.ts';
import { useNotifications } from '../../client/operations/notificationQueries.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { EmptyState } from './EmptyState.tsx';
import { periodLabel, ruleText, useTenancyInView } from './shared.ts';
import './alarms.css';

/** The island. */
export default function AlarmList({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <List />
    </Providers>
  );
}

function List() {
  const { t, i18n } = useTranslation(['alarms', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const tenancyId = useTenancyInView();
  const alarms = useAlarms(tenancyId);
  const notifications = useNotifications(tenancyId);
  if (!tenancyId) return null;
  const base = `/t/${encodeURIComponent(tenancyId)}`;
  const newHref = `${base}/alarms/new-alarm?step=1`;

  if (alarms.isPending) return <Spinner label={t('list.loading')} />;
  if (alarms.isError)
    return (
      <div className="state-box" role="alert">
        <p>{t('list.error')}</p>
        <button type="button" className="button secondary" onClick={() => void alarms.refetch()}>
          {t('list.retry')}
        </button>
      </div>
    );

  const unread = notifications.data?.unreadCount ?? 0;
  return (
    <>
      <div className="alarm-toolbar">
        <a className="button primary" href={newHref}>
          {t('list.new')}
        </a>
        <a className="button secondary" href={`${base}/notifications`}>
          {t('list.notifications', { count: unread })}
        </a>
      </div>
      {alarms.data.length === 0 ? (
        <EmptyState
          image="/illustrations/no-alarms.svg"
          title={t('list.empty_title')}
          text={t('list.empty_text')}
        />
      ) : (
        <ul className="alarm-list" aria-label={t('list.title')}>
          {alarms.data.map((alarm) => (
            <li key={alarm.id} className="card alarm-item">
              <a className="alarm-link" href={`${base}/alarms/${alarm.id}`}>
                <span className="alarm-name">
                  {t(quantityKey(alarm.quantity))} · {t(`domain:alarms.frequency.${lower(alarm.frequency)}`)}
                </span>
                <span className="alarm-rule">{ruleText(alarm, lang, t)}</span>
              </a>
              <span
                className={`alarm-status status-${alarm.status.toLowerCase()}`}
                data-testid="alarm-status"
              >
                {t(`status.${alarm.status}`)}
                {alarm.status === 'TRIGGERED' && alarm.lastFired && (
                  <span className="alarm-when">
                    {' '}
                    {t('list.triggered_for', {
                      period: periodLabel(alarm.lastFired.periodStart, alarm.frequency, lang, t),
                    })}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
