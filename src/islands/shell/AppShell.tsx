/**
 * The authenticated app shell (SPEC §2): route guard, side menu, header with breadcrumbs, address,
 * tenancy and language pickers, and the page's toaster (ShellToaster.tsx). Persisted across soft navigation.
 */
import { navigate } from 'astro:transitions/client';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import type { KeysOf } from '../../client/i18nKeys.ts';
import { useNotifications } from '../../client/operations/notificationQueries.ts';
import { loggedOutPath } from '../../client/pendingCode.ts';
import { rememberReturnTo } from '../../client/returnTo.ts';
import { getSessionActor, type SessionSnapshot, tenancyIdFromPath } from '../../client/session.ts';
import { browserStorage, readString, writeString } from '../../client/storage.ts';
import { brandOf } from '../../lib/brands.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { debugPress } from '../../lib/shellRules.ts';
import { tenancyQuantities } from '../../lib/tenancyQuantities.ts';
import type { Tenancy } from '../../machines/session.machine.ts';
import { LanguagePicker } from '../shared/LanguagePicker.tsx';
import { Providers } from '../shared/Providers.tsx';
import { useSession } from '../shared/useSession.ts';
import { useTenancyUnit } from '../shared/useTenancyUnit.ts';
import { ChoiceMenu } from './ChoiceMenu.tsx';
import { Icon, type IconName } from './Icons.tsx';
import { ShellPlaceholder } from './ShellPlaceholder.tsx';
import './menu.css';

const ShellToaster = lazy(() => import('./ShellToaster.tsx'));

/** One breadcrumb: a common-namespace key (or a ready label, e.g. a room name) and, except for the current page, a link. */
/** A breadcrumb, translated by the layout (AppLayout.astro); the key identifies it. */
type Crumb = { key: string; href?: string; label: string };

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
  const { t, i18n } = useTranslation('common');
  const status = useSession(statusOf);
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  const urlId = tenancyIdFromPath(pathname);

  // The guard of SPEC §2: no user → signup with a pending code, else login; no tenancies → no-tenancies, another tenancy → the selected one.
  const logoutReason = useSession((s) => s.context.logoutReason);
  useEffect(() => {
    // An ended session is sent on by the session itself (with "Your log in expired" when it ran out); a page
    // opened without one goes to login here, and the page is kept for after the login.
    if (status === 'loggedOut' && logoutReason === null) {
      const here = new URL(window.location.href);
      const next = loggedOutPath(here);
      if (next === '/login') rememberReturnTo(here);
      void navigate(next, { history: 'replace' });
    } else if (status === 'loggedOut' && logoutReason === 'user')
      void navigate('/login', { history: 'replace' });
    else if (status === 'noTenancies') void navigate('/no-tenancies', { history: 'replace' });
    else if (status === 'ready' && selectedId && urlId !== selectedId) {
      void navigate(`/t/${encodeURIComponent(selectedId)}/`, { history: 'replace' });
    }
  }, [status, selectedId, urlId, logoutReason]);

  useDebugDump(pathname);
  const toasterWanted = useToasterWanted(pathname);

  const ready = status === 'ready' && !!selectedId && urlId === selectedId;
  return (
    <>
      {ready ? (
        <Frame tenancyId={selectedId} crumbs={crumbs} pathname={pathname} />
      ) : (
        <ShellPlaceholder
          brand={config.brand}
          lang={parseLanguage(i18n.language) ?? 'en'}
          crumbs={crumbs.map((c) => c.label)}
          breadcrumbsLabel={t('header.breadcrumbs')}
          loadingLabel={t('app.loading')}
        />
      )}
      {toasterWanted && (
        <Suspense fallback={null}>
          <ShellToaster />
        </Suspense>
      )}
    </>
  );
}

/** SPEC §2 debug: Ctrl+S three times within 2 s logs the session state (tokens left out) to the console. */
function useDebugDump(pathname: string) {
  const presses = useRef<number[]>([]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      const next = debugPress(presses.current, performance.now());
      presses.current = next.presses;
      if (!next.dump) return;
      const snapshot = getSessionActor().getSnapshot();
      const { tokens: _tokens, ...context } = snapshot.context as typeof snapshot.context & {
        tokens?: unknown;
      };
      console.log('[debug] app state', { state: snapshot.value, pathname, context });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pathname]);
}

/** Tenancy ids → whether their property hides the notifications entry, as the menu last saw it. */
const HIDES_NOTIFICATIONS_KEY = 'menuHidesNotifications';

function readRememberedHides(): Record<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(readString(browserStorage(), HIDES_NOTIFICATIONS_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

/** What the menu saw last time for this tenancy (undefined: never), and keeps what it knows now. */
function useRememberedHide(tenancyId: string, known: boolean | undefined): boolean | undefined {
  const [remembered] = useState(() => {
    const value = readRememberedHides()[tenancyId];
    return typeof value === 'boolean' ? value : undefined;
  });
  useEffect(() => {
    if (known === undefined) return;
    const all = readRememberedHides();
    if (all[tenancyId] === known) return;
    writeString(browserStorage(), HIDES_NOTIFICATIONS_KEY, JSON.stringify({ ...all, [tenancyId]: known }));
  }, [tenancyId, known]);
  return remembered;
}

/**
 * The toaster (react-hot-toast, 4.5 KB gzipped) loads on the first pointer or key press, or on any page but the
 * dashboard, which raises no toasts of its own. Toasts raised before it has loaded wait in react-hot-toast's
 * store and show when it mounts. Once loaded, it stays.
 */
function useToasterWanted(pathname: string): boolean {
  const [wanted, setWanted] = useState(false);
  const onDashboard = /^\/t\/[^/]+\/?$/.test(pathname);
  useEffect(() => {
    if (wanted) return;
    if (!onDashboard) {
      setWanted(true);
      return;
    }
    const want = () => setWanted(true);
    const options = { capture: true, once: true } as const;
    window.addEventListener('pointerdown', want, options);
    window.addEventListener('keydown', want, options);
    return () => {
      window.removeEventListener('pointerdown', want, options);
      window.removeEventListener('keydown', want, options);
    };
  }, [wanted, onDashboard]);
  return wanted;
}

function Frame({ tenancyId, crumbs, pathname }: { tenancyId: string; crumbs: Crumb[]; pathname: string }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const tenancies = useSession((s) => s.context.tenancies);
  const tenancy = tenancies.find((x) => x.id === tenancyId);

  useEffect(() => {
    // SPEC §4: body scroll is locked while the drawer is open below 1280 px (CSS applies the width rule).
    document.body.classList.toggle('menu-open', menuOpen);
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
      else if (e.key === 'Tab') keepTabInside(document.getElementById('app-menu'), e);
    };
    window.addEventListener('keydown', onKey);
    // The open drawer is modal: what lies under it leaves the tab order and the accessibility tree.
    const under = UNDER_DRAWER.flatMap((selector) => [...document.querySelectorAll<HTMLElement>(selector)]);
    for (const el of under) el.inert = true;
    return () => {
      window.removeEventListener('keydown', onKey);
      for (const el of under) el.inert = false;
    };
  }, [menuOpen]);

  // Focus moves into the drawer when it opens, and back to the button that opened it when it closes.
  useEffect(() => {
    if (menuOpen) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      document.querySelector<HTMLElement>('#app-menu .drawer-close')?.focus();
    } else if (opener.current) {
      opener.current.focus();
      opener.current = null;
    }
  }, [menuOpen]);

  return (
    <>
      <SideMenu
        tenancyId={tenancyId}
        pathname={pathname}
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
      />
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

/** What the open drawer covers: the page, the header, the skip link and the cookie banner. */
const UNDER_DRAWER = ['#main', '.app-header', '.skip-link', '#cookie-consent'];

/** Tab and Shift+Tab wrap around inside the container instead of leaving it. */
function keepTabInside(container: HTMLElement | null, e: KeyboardEvent): void {
  if (!container) return;
  const stops = [...container.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')].filter(
    (el) => el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"]'),
  );
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !container.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !container.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

type Entry = {
  key: Extract<KeysOf<'common'>, `nav.${string}`>;
  icon: IconName;
  href: string;
  active?: boolean;
  /** Unread notifications, shown as a badge. */
  badge?: number;
  pending?: boolean;
};

function SideMenu({
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
  const { t, i18n } = useTranslation(['common', 'consumption', 'domain']);
  const user = useSession((s) => s.context.user);
  const base = `/t/${encodeURIComponent(tenancyId)}/`;
  // On the dashboard, its one request (tenancyDashboard) brings the units too; elsewhere the menu asks.
  const onDashboard = pathname === base || pathname === base.slice(0, -1);
  const { unit } = useTenancyUnit(tenancyId, { fetch: !onDashboard });
  // SPEC §2: notifications are hidden when the property has any settings entries. Until the unit is known,
  // the menu follows what it saw last time for this tenancy; never seen, the entry keeps its place invisibly,
  // so it neither flashes in and out nor shifts the entries below.
  const known = unit === undefined ? undefined : (unit.path[0]?.property.settings.length ?? 0) > 0;
  const remembered = useRememberedHide(tenancyId, known);
  const hideNotifications = known ?? remembered ?? false;
  const settingsKnown = (known ?? remembered) !== undefined;
  const unread = useNotifications(hideNotifications ? null : tenancyId).data?.unreadCount ?? 0;
  const under = (path: string) => pathname.startsWith(`${base}${path}`);
  const tenancy = useSession((s) => s.context.tenancies.find((x) => x.id === tenancyId));
  const quantities = tenancyQuantities(tenancy?.meterUnits ?? []);
  // The consumption pages of this tenancy, under the Consumption entry (SPEC §2: it is active on all of them).
  const consumptionLinks = [
    ...quantities.consumption.map((q) => ({
      href: `${base}consumption/${q}`,
      label: t(`domain:quantities.${q}`),
    })),
    ...(quantities.climate
      ? [{ href: `${base}consumption/indoor-climate`, label: t('consumption:crumbs.indoor_climate') }]
      : []),
  ];
  const onConsumption = onDashboard || under('consumption/');

  const entries: Entry[] = [
    { key: 'nav.consumption', icon: 'consumption', href: base, active: onConsumption },
    ...(user?.accountHasStatements
      ? [
          {
            key: 'nav.statements' as const,
            icon: 'statements' as const,
            href: `${base}statements`,
            active: under('statements'),
          },
        ]
      : []),
    { key: 'nav.alarms', icon: 'alarms', href: `${base}alarms`, active: under('alarms') },
    { key: 'nav.tenancy_info', icon: 'tenancy', href: `${base}settings`, active: under('settings') },
    ...(hideNotifications
      ? []
      : [
          {
            key: 'nav.notifications' as const,
            icon: 'notifications' as const,
            href: `${base}notifications`,
            active: under('notifications'),
            badge: settingsKnown && unread > 0 ? unread : undefined,
            pending: !settingsKnown,
          },
        ]),
    { key: 'nav.help', icon: 'help', href: `${base}help`, active: under('help') },
    { key: 'nav.profile', icon: 'profile', href: `${base}profile`, active: under('profile') },
  ];

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
                <a href={crumb.href}>{crumb.label}</a>
              ) : (
                <span aria-current="page">{crumb.label}</span>
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
        <LanguagePicker saveToAccount />
      </div>
    </header>
  );
}

function TenancyPicker({ tenancies, selectedId }: { tenancies: Tenancy[]; selectedId: string }) {
  const { t } = useTranslation('common');
  const sorted = [...tenancies].sort((a, b) => a.apartment.address.localeCompare(b.apartment.address));
  return (
    <ChoiceMenu
      className="tenancy-picker"
      label={t('header.choose_tenancy')}
      current={selectedId}
      choices={sorted.map((x) => ({ value: x.id, text: x.apartment.address }))}
      onChoose={(tenancyId) => {
        getSessionActor().send({ type: 'tenancy.select', tenancyId });
        void navigate(`/t/${encodeURIComponent(tenancyId)}/`);
      }}
    />
  );
}
