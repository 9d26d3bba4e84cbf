/** The notification list (SPEC §2 notifications): newest first, read and unread, "mark all read", empty state. */
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useMarkAllNotificationsRead } from '../../client/operations/notificationMutations.ts';
import { useNotifications } from '../../client/operations/notificationQueries.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { EmptyState } from '../alarms/EmptyState.tsx';
import { useTenancyInView } from '../alarms/shared.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { notificationTexts, receivedAt } from './text.ts';
import '../alarms/alarms.css';

/** The island. */
export default function NotificationList({ lang }: { lang: Language }) {
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
  const list = useNotifications(tenancyId);
  const markAll = useMarkAllNotificationsRead(tenancyId ?? '');
  if (!tenancyId) return null;
  if (list.isPending) return <Spinner label={t('notifications.loading')} />;
  if (list.isError)
    return (
      <div className="state-box" role="alert">
        <p>{t('notifications.error')}</p>
        <button type="button" className="button secondary" onClick={() => void list.refetch()}>
          {t('list.retry')}
        </button>
      </div>
    );
  const { items, unreadCount } = list.data;
  if (items.length === 0)
    return (
      <EmptyState
        image="/illustrations/no-notifications.svg"
        title={t('notifications.empty_title')}
        text={t('notifications.empty_text')}
      />
    );
  const base = `/t/${encodeURIComponent(tenancyId)}/notifications`;
  return (
    <>
      <div className="alarm-toolbar">
        <p className="muted" aria-live="polite" data-testid="unread-count">
          {t('notifications.unread_count', { count: unreadCount })}
        </p>
        <button
          type="button"
          className="button secondary"
          disabled={unreadCount === 0 || markAll.isPending}
          onClick={() =>
            markAll.mutate(undefined, {
              onSuccess: () => toast.success(t('notifications.all_read')),
              onError: () => toast.error(t('notifications.error')),
            })
          }
        >
          {t('notifications.mark_all')}
        </button>
      </div>
      <ul className="notification-list" aria-label={t('notifications.title')}>
        {items.map((n) => {
          const { title, text } = notificationTexts(n, lang, t);
          return (
            <li key={n.id} className={`card notification-item${n.read ? '' : ' unread'}`}>
              <a className="notification-link" href={`${base}/${n.id}`}>
                <span className="notification-title">
                  {title}
                  {!n.read && <span className="visually-hidden"> ({t('notifications.unread')})</span>}
                </span>
                <span>{text}</span>
                <span className="notification-meta">{receivedAt(n, lang)}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
}
