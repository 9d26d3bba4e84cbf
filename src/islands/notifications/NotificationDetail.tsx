/** The notification detail (SPEC §2 notifications/{id}): its text, the period's graph link; opening marks it read. */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useMarkNotificationRead } from '../../client/operations/notificationMutations.ts';
import { useNotification } from '../../client/operations/notificationQueries.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { amount, graphHref, periodLabel, useTenancyInView } from '../alarms/shared.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useDocumentTitle } from '../shared/useDocumentTitle.ts';
import { ReportComparison } from './ReportComparison.tsx';
import { notificationTexts, receivedAt } from './text.ts';
import '../alarms/alarms.css';

/** The island. */
export default function NotificationDetail({
  lang,
  notificationId,
}: {
  lang: Language;
  notificationId: string;
}) {
  return (
    <Providers lang={lang}>
      <Detail id={notificationId} />
    </Providers>
  );
}

function Detail({ id }: { id: string }) {
  const { t, i18n } = useTranslation(['alarms', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const tenancyId = useTenancyInView();
  const query = useNotification(tenancyId, id);
  const mark = useMarkNotificationRead(tenancyId ?? '');
  const markedOnce = useRef(false);
  const n = query.data;

  // Opening marks it read, once, judged on the first answer: a notification that was read already and is then
  // marked unread on this page stays unread (the effect used to mark it read again as soon as it turned unread).
  useEffect(() => {
    if (!n || markedOnce.current) return;
    markedOnce.current = true;
    if (!n.read) mark.mutate({ id: n.id, read: true }, { onSuccess: () => void query.refetch() });
  }, [n, mark, query]);
  useDocumentTitle(n ? t('notifications.page_title', { date: receivedAt(n, lang) }) : null);

  if (!tenancyId) return null;
  const list = `/t/${encodeURIComponent(tenancyId)}/notifications`;
  if (query.isPending) return <Spinner label={t('notifications.loading')} />;
  if (query.isError || !n)
    return (
      <div className="state-box" role="alert">
        <p>{t('notifications.not_found')}</p>
        <a href={list}>{t('notifications.back')}</a>
      </div>
    );
  const { title, text } = notificationTexts(n, lang, t);
  const period = periodLabel(n.periodStart, n.frequency, lang, t);
  return (
    <section className="card" aria-labelledby="notification-title">
      <header className="card-header">
        <div>
          <h2 id="notification-title">{title}</h2>
          <p className="card-subtitle">{receivedAt(n, lang)}</p>
        </div>
        <span className="alarm-status" data-testid="notification-read">
          {n.read ? t('notifications.read') : t('notifications.unread')}
        </span>
      </header>
      <p>{text}</p>
      {n.comparison.length > 0 ? (
        <ReportComparison notification={n} lang={lang} />
      ) : (
        n.totals.length > 0 && (
          <table className="data-table">
            <tbody>
              {n.totals.map((x) => (
                <tr key={x.quantity}>
                  <th scope="row">{t(quantityKey(x.quantity))}</th>
                  <td>{amount(x.value, x.quantity, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      <div className="alarm-toolbar">
        {n.reportUrl && (
          <a
            className="button primary"
            href={`${n.reportUrl}?lang=${lang}`}
            data-testid="notification-report"
          >
            {t('notification.report.open_report', { period })}
          </a>
        )}
        <a
          className={n.reportUrl ? 'button secondary' : 'button primary'}
          href={graphHref(tenancyId, n.quantity, n.periodStart, n.periodEnd)}
        >
          {t('notifications.open_graph', { period })}
        </a>
        {n.alarmId && (
          <a className="button secondary" href={`/t/${encodeURIComponent(tenancyId)}/alarms/${n.alarmId}`}>
            {t('notifications.open_alarm')}
          </a>
        )}
        <button
          type="button"
          className="button ghost"
          disabled={mark.isPending}
          onClick={() => mark.mutate({ id: n.id, read: !n.read }, { onSuccess: () => void query.refetch() })}
        >
          {n.read ? t('notifications.mark_unread') : t('notifications.mark_read')}
        </button>
      </div>
      <p>
        <a href={list}>{t('notifications.back')}</a>
      </p>
    </section>
  );
}
