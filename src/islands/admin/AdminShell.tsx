/**
 * The operator console's shell: the guard (no session → /admin/login, keeping the page for after the login),
 * the navigation (a fixed side menu from 1280 px, a drawer below, with Escape and focus return), the header
 * with the operator, their role and the language picker, and logout. Persisted across soft navigation.
 */
import { navigate } from 'astro:transitions/client';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getOperatorSession, type OperatorSessionSnapshot } from '../../client/admin/session.ts';
import { config } from '../../client/config.ts';
import { brandOf } from '../../lib/brands.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { LanguagePicker } from '../shared/LanguagePicker.tsx';
import { Providers } from '../shared/Providers.tsx';
import '../shell/menu.css';

/** The console's pages, in menu order; the key is the nav label's key in admin.json. */
const ADMIN_PAGES = [
  { key: 'portfolio', href: '/admin' },
  { key: 'properties', href: '/admin/properties' },
  { key: 'tenancies', href: '/admin/tenancies' },
  { key: 'invitations', href: '/admin/invitations' },
  { key: 'data_quality', href: '/admin/data-quality' },
  { key: 'api_keys', href: '/admin/api-keys' },
  { key: 'prices', href: '/admin/prices' },
  { key: 'report_texts', href: '/admin/report-texts' },
  { key: 'statements', href: '/admin/statements' },
  { key: 'support', href: '/admin/support' },
  { key: 'audit', href: '/admin/audit' },
] as const;

type Props = { lang: Language; pathname: string; title: string };

/** The shell island. */
export default function AdminShell(props: Props) {
  return (
    <Providers lang={props.lang}>
      <Shell {...props} />
    </Providers>
  );
}

/** Whether the operator session is signed in, out, or not known yet. */
function operatorStatus(s: OperatorSessionSnapshot): 'pending' | 'loggedIn' | 'loggedOut' {
  if (s.matches('loggedIn')) return 'loggedIn';
  if (s.matches('loggedOut')) return 'loggedOut';
  return 'pending';
}

/** The console's login page, returning to `path` afterwards. */
function loginPath(path: string, reason?: 'expired'): string {
  const params = new URLSearchParams();
  if (path !== '/admin' && path.startsWith('/admin/')) params.set('next', path);
  if (reason) params.set('reason', reason);
  const query = params.toString();
  return query ? `/admin/login?${query}` : '/admin/login';
}

function Shell({ pathname, title }: Props) {
  const { t, i18n } = useTranslation('admin');
  const session = getOperatorSession();
  const status = useSelector(session, operatorStatus);
  const logoutReason = useSelector(session, (s) => s.context.logoutReason);
  const operator = useSelector(session, (s) => s.context.operator);
  const [menuOpen, setMenuOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (status !== 'loggedOut') return;
    const here = `${window.location.pathname}${window.location.search}`;
    if (logoutReason === 'user') void navigate('/admin/login', { history: 'replace' });
    else
      void navigate(loginPath(here, logoutReason === 'expired' ? 'expired' : undefined), {
        history: 'replace',
      });
  }, [status, logoutReason]);

  useEffect(() => {
    document.body.classList.toggle('menu-open', menuOpen);
    if (!menuOpen) {
      opener.current?.focus();
      opener.current = null;
      return;
    }
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.querySelector<HTMLElement>('#admin-menu .drawer-close')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const lang = parseLanguage(i18n.language) ?? 'en';
  const brand = brandOf(config.brand);
  const current = (href: string) =>
    href === '/admin' ? pathname === '/admin' || pathname === '/admin/' : pathname.startsWith(href);

  return (
    <>
      <aside id="admin-menu" className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label={t('nav.label')}>
        <div className="sidebar-top">
          <a className="brand" href="/admin">
            <img src={brand.logo} alt="" width="32" height="32" />
            <span>{brand.appName[lang]}</span>
          </a>
          <button
            type="button"
            className="icon-button drawer-close"
            onClick={() => setMenuOpen(false)}
            aria-label={t('nav.close_menu')}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        <p className="admin-console-name">{t('console')}</p>
        <nav aria-label={t('nav.label')}>
          <ul className="nav-list">
            {ADMIN_PAGES.map((page) => (
              <li key={page.key}>
                <a
                  className={current(page.href) ? 'nav-link active' : 'nav-link'}
                  href={page.href}
                  aria-current={current(page.href) ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                >
                  <span>{t(`nav.${page.key}`)}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-bottom">
          {operator && (
            <p className="user-email" data-testid="operator-email">
              {operator.email}
            </p>
          )}
          <button
            type="button"
            className="button ghost logout"
            disabled={status !== 'loggedIn'}
            onClick={() => session.send({ type: 'session.logout' })}
          >
            <span>{t('nav.logout')}</span>
          </button>
        </div>
      </aside>
      {menuOpen && (
        <button
          type="button"
          className="drawer-backdrop"
          aria-hidden="true"
          tabIndex={-1}
          onClick={() => setMenuOpen(false)}
        />
      )}
      <header className="app-header">
        <button
          type="button"
          className="icon-button small-only"
          onClick={() => setMenuOpen(true)}
          aria-label={t('nav.open_menu')}
          aria-controls="admin-menu"
          aria-expanded={menuOpen}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <p className="admin-header-title">{title}</p>
        <div className="header-end">
          {operator && (
            <p className="apartment">
              <span className="apartment-address">{operator.organisation.name}</span>
              <span className="apartment-city">{t(`role.${operator.role}`)}</span>
            </p>
          )}
          <LanguagePicker compact />
        </div>
      </header>
    </>
  );
}
