/** The side menu (SPEC §2): brand, the tenancy's pages, the user and log out; the drawer below 1280 px (useDrawer.ts). */
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { getSessionActor } from '../../client/session.ts';
import { brandOf } from '../../lib/brands.ts';
import { parseLanguage } from '../../lib/languages.ts';
import { useSession } from '../shared/useSession.ts';
import { Icon } from './Icons.tsx';
import { useMenuEntries } from './useMenuEntries.ts';

export function SideMenu({
  tenancyId,
  pathname,
  open,
  onClose,
}: {
  tenancyId: string;
  pathname: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('common');
  const user = useSession((s) => s.context.user);
  const { base, entries, consumptionLinks } = useMenuEntries(tenancyId, pathname);

  return (
    <aside id="app-menu" className={open ? 'sidebar open' : 'sidebar'} aria-label={t('nav.label')}>
      <div className="sidebar-top">
        <a className="brand" href={base} onClick={onClose}>
          <img src={brandOf(config.brand).logo} alt="" width="32" height="32" />
          <span>{brandOf(config.brand).appName[parseLanguage(i18n.language) ?? 'en']}</span>
        </a>
        <button
          type="button"
          className="icon-button drawer-close"
          onClick={onClose}
          aria-label={t('nav.close_menu')}
        >
          <Icon name="close" />
        </button>
      </div>
      <nav aria-label={t('nav.label')}>
        <ul className="nav-list">
          {entries.map((entry) => (
            <li
              key={entry.key}
              className={entry.pending ? 'nav-pending' : undefined}
              aria-hidden={entry.pending || undefined}
            >
              <a
                className={entry.active ? 'nav-link active' : 'nav-link'}
                href={entry.href}
                aria-current={entry.active ? (pathname === entry.href ? 'page' : 'true') : undefined}
                onClick={onClose}
              >
                <Icon name={entry.icon} />
                <span>{t(entry.key)}</span>
                {entry.badge !== undefined && (
                  // The badge's text is the alarms namespace's, loaded only when there is a badge.
                  <Suspense fallback={null}>
                    <UnreadBadge count={entry.badge} />
                  </Suspense>
                )}
              </a>
              {entry.key === 'nav.consumption' && consumptionLinks.length > 0 && (
                <ul className="nav-sublist">
                  {consumptionLinks.map((link) => {
                    const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
                    return (
                      <li key={link.href}>
                        <a
                          className={current ? 'nav-sublink active' : 'nav-sublink'}
                          href={link.href}
                          aria-current={current ? 'page' : undefined}
                          onClick={onClose}
                        >
                          {link.label}
                        </a>
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar-bottom">
        {user && <p className="user-email">{user.email}</p>}
        <button
          type="button"
          className="button ghost logout"
          onClick={() => getSessionActor().send({ type: 'session.logout' })}
        >
          <Icon name="logout" />
          <span>{t('nav.logout')}</span>
        </button>
      </div>
    </aside>
  );
}

function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation('alarms');
  return (
    <span className="badge" data-testid="notification-badge">
      {t('notifications.badge', { count })}
    </span>
  );
}
