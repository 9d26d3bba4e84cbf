/**
 * The authenticated app shell (SPEC §2): route guard, side menu, header with breadcrumbs, address,
 * tenancy and language pickers, and the page's toaster. Persisted across soft navigation.
 */
import { navigate } from 'astro:transitions/client';
import { useEffect, useId, useState } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { getSessionActor, type SessionSnapshot, tenancyIdFromPath } from '../../client/session.ts';
import type { Language } from '../../lib/languages.ts';
import { MAX_VISIBLE_TOASTS, toastDuration } from '../../lib/toastPolicy.ts';
import type { Tenancy } from '../../machines/session.machine.ts';
import { LanguagePicker } from '../shared/LanguagePicker.tsx';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';
import { useTenancyUnit } from '../shared/useTenancyUnit.ts';
import { Icon, type IconName } from './Icons.tsx';

/** One breadcrumb: a common-namespace key and, except for the current page, a link. */
export type Crumb = { key: string; href?: string };

type Props = { lang: Language; pathname: string; crumbs: Crumb[] };

type Status = 'initialising' | 'loggedOut' | 'busy' | 'noTenancies' | 'ready';

function statusOf(s: SessionSnapshot): Status {
  if (s.matches('initialising')) return 'initialising';
  if (s.matches('loggedOut')) return 'loggedOut';
  if (s.matches('loggingIn') || s.matches('loggingOut')) return 'busy';
  if (s.matches({ loggedIn: { tenancy: 'noTenancies' } })) return 'noTenancies';
  return 'ready';
}

/** The shell island. */
export default function AppShell(props: Props) {
  return (
    <Providers lang={props.lang}>
      <Shell {...props} />
    </Providers>
  );
}

function Shell({ pathname, crumbs }: Props) {
  const { t } = useTranslation('common');
  const status = useSession(statusOf);
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  const urlId = tenancyIdFromPath(pathname);

  // The guard of SPEC §2: no user → login, no tenancies → no-tenancies, another tenancy → the selected one.
  useEffect(() => {
    if (status === 'loggedOut') void navigate('/login', { history: 'replace' });
    else if (status === 'noTenancies') void navigate('/no-tenancies', { history: 'replace' });
    else if (status === 'ready' && selectedId && urlId !== selectedId) {
      void navigate(`/t/${encodeURIComponent(selectedId)}/`, { history: 'replace' });
    }
  }, [status, selectedId, urlId]);

  const ready = status === 'ready' && !!selectedId && urlId === selectedId;
  return (
    <>
      {ready ? (
        <Frame tenancyId={selectedId} crumbs={crumbs} />
      ) : (
        <Spinner label={t('app.loading')} fullscreen />
      )}
      <ShellToaster />
    </>
  );
}

function ShellToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    // SPEC §9: at most 20 toasts are visible; the oldest beyond that are dismissed.
    const visible = toasts.filter((item) => item.visible);
    for (const extra of visible.slice(MAX_VISIBLE_TOASTS)) toast.dismiss(extra.id);
  }, [toasts]);
  return (
    <Toaster
      position="top-right"
      toastOptions={{
        duration: toastDuration('data', 'plain'),
        success: { duration: toastDuration('data', 'success') },
        error: { duration: toastDuration('data', 'error') },
        loading: { duration: toastDuration('data', 'loading') },
      }}
    />
  );
}

function Frame({ tenancyId, crumbs }: { tenancyId: string; crumbs: Crumb[] }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const tenancies = useSession((s) => s.context.tenancies);
  const tenancy = tenancies.find((x) => x.id === tenancyId);

  useEffect(() => {
    // SPEC §4: body scroll is locked while the drawer is open below 1280 px (CSS applies the width rule).
    document.body.classList.toggle('menu-open', menuOpen);
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <>
      <SideMenu tenancyId={tenancyId} open={menuOpen} onClose={() => setMenuOpen(false)} />
      {menuOpen && (
        <button
          type="button"
          className="drawer-backdrop"
          aria-hidden="true"
          tabIndex={-1}
          onClick={() => setMenuOpen(false)}
        />
      )}
      <Header
        tenancy={tenancy}
        tenancies={tenancies}
        crumbs={crumbs}
        menuOpen={menuOpen}
        onMenu={() => setMenuOpen(true)}
      />
    </>
  );
}

type Entry = { key: string; icon: IconName; href?: string; active?: boolean };

function SideMenu({ tenancyId, open, onClose }: { tenancyId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('common');
  const user = useSession((s) => s.context.user);
  const { unit } = useTenancyUnit(tenancyId);
  // SPEC §2: notifications are hidden when the property has any settings entries.
  const hideNotifications = (unit?.path[0]?.property.settings.length ?? 0) > 0;
  const base = `/t/${encodeURIComponent(tenancyId)}/`;

  const entries: Entry[] = [
    { key: 'nav.consumption', icon: 'consumption', href: base, active: true },
    ...(user?.accountHasStatements ? [{ key: 'nav.statements', icon: 'statements' as const }] : []),
    { key: 'nav.alarms', icon: 'alarms' },
    { key: 'nav.tenancy_info', icon: 'tenancy', href: `${base}settings` },
    ...(hideNotifications ? [] : [{ key: 'nav.notifications', icon: 'notifications' as const }]),
    { key: 'nav.help', icon: 'help' },
    { key: 'nav.profile', icon: 'profile', href: `${base}profile` },
  ];

  return (
    <div id="app-menu" className={open ? 'sidebar open' : 'sidebar'}>
      <div className="sidebar-top">
        <a className="brand" href={base} onClick={onClose}>
          <img src="/brand/logo.svg" alt="" width="32" height="32" />
          <span>{config.title}</span>
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
            <li key={entry.key}>
              {entry.href ? (
                <a
                  className={entry.active ? 'nav-link active' : 'nav-link'}
                  href={entry.href}
                  aria-current={entry.active ? 'page' : undefined}
                  onClick={onClose}
                >
                  <Icon name={entry.icon} />
                  <span>{t(entry.key)}</span>
                </a>
              ) : (
                // Not built yet: shown, but not a link, so nothing leads to a dead page.
                <span className="nav-link disabled" title={t('nav.coming_later')}>
                  <Icon name={entry.icon} />
                  <span>{t(entry.key)}</span>
                  <span className="badge">
                    <span aria-hidden="true">{t('nav.soon')}</span>
                    <span className="visually-hidden">{t('nav.coming_later')}</span>
                  </span>
                </span>
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
    </div>
  );
}

type HeaderProps = {
  tenancy: Tenancy | undefined;
  tenancies: Tenancy[];
  crumbs: Crumb[];
  menuOpen: boolean;
  onMenu: () => void;
};

function Header({ tenancy, tenancies, crumbs, menuOpen, onMenu }: HeaderProps) {
  const { t } = useTranslation('common');
  const back = crumbs.length > 1 ? crumbs[crumbs.length - 2] : undefined;
  return (
    <header className="app-header">
      {back?.href ? (
        <a className="icon-button small-only" href={back.href} aria-label={t('header.back')}>
          <Icon name="back" />
        </a>
      ) : (
        <button
          type="button"
          className="icon-button small-only"
          onClick={onMenu}
          aria-label={t('nav.open_menu')}
          aria-controls="app-menu"
          aria-expanded={menuOpen}
        >
          <Icon name="menu" />
        </button>
      )}
      <nav aria-label={t('header.breadcrumbs')} className="breadcrumbs">
        <ol>
          {crumbs.map((crumb, i) => (
            <li key={crumb.key}>
              {crumb.href && i < crumbs.length - 1 ? (
                <a href={crumb.href}>{t(crumb.key)}</a>
              ) : (
                <span aria-current="page">{t(crumb.key)}</span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className="header-end">
        {tenancy && (
          <p className="apartment">
            {/* With a picker the address is already on screen, in the picker. */}
            {tenancies.length < 2 && <span className="apartment-address">{tenancy.apartment.address}</span>}
            <span className="apartment-city wide-only">
              {tenancy.apartment.apartmentInfo.zipcode} {tenancy.apartment.apartmentInfo.city}
            </span>
          </p>
        )}
        {tenancies.length > 1 && tenancy && <TenancyPicker tenancies={tenancies} selectedId={tenancy.id} />}
        <LanguagePicker compact />
      </div>
    </header>
  );
}

function TenancyPicker({ tenancies, selectedId }: { tenancies: Tenancy[]; selectedId: string }) {
  const { t } = useTranslation('common');
  const id = useId();
  const sorted = [...tenancies].sort((a, b) => a.apartment.address.localeCompare(b.apartment.address));
  return (
    <div className="tenancy-picker">
      <label htmlFor={id} className="visually-hidden">
        {t('header.choose_tenancy')}
      </label>
      <select
        id={id}
        value={selectedId}
        onChange={(event) => {
          const tenancyId = event.target.value;
          getSessionActor().send({ type: 'tenancy.select', tenancyId });
          void navigate(`/t/${encodeURIComponent(tenancyId)}/`);
        }}
      >
        {sorted.map((x) => (
          <option key={x.id} value={x.id}>
            {x.apartment.address}
          </option>
        ))}
      </select>
    </div>
  );
}
