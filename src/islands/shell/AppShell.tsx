/**
 * The authenticated app shell (SPEC §2): route guard, side menu, header with breadcrumbs, address,
 * tenancy and language pickers, and the page's toaster (ShellToaster.tsx). Persisted across soft navigation.
 */
import { navigate } from 'astro:transitions/client';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { useCrumbLabels, withCrumbLabels } from '../../client/crumbLabels.ts';
import { useNotifications } from '../../client/operations/notificationQueries.ts';
import { loggedOutPath } from '../../client/pendingCode.ts';
import { rememberReturnTo } from '../../client/returnTo.ts';
import { type SessionSnapshot, tenancyIdFromPath } from '../../client/session.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { useSession } from '../shared/useSession.ts';
import type { Crumb } from './Breadcrumbs.tsx';
import { Header } from './Header.tsx';
import { ShellPlaceholder } from './ShellPlaceholder.tsx';
import { SideMenu } from './SideMenu.tsx';
import { useDebugDump } from './useDebugDump.ts';
import { useDrawer } from './useDrawer.ts';
import { useToasterWanted } from './useToasterWanted.ts';
import './menu.css';

const ShellToaster = lazy(() => import('./ShellToaster.tsx'));

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

/** The shell of a ready tenancy: the side menu (a drawer on small screens) and the header. */
function Frame({ tenancyId, crumbs, pathname }: { tenancyId: string; crumbs: Crumb[]; pathname: string }) {
  const [menuOpen, setMenuOpen] = useDrawer();
  const tenancies = useSession((s) => s.context.tenancies);
  const tenancy = tenancies.find((x) => x.id === tenancyId);
  // The unread count is in the header: on a phone the menu is closed, and where SPEC §2 takes notifications out
  // of the menu (a property with settings) it is the way to them besides the alarm settings' link.
  const unread = useNotifications(tenancyId).data?.unreadCount ?? 0;
  // A crumb the page's island named once its data came (the meter number for a meter page's internal id).
  const learned = useCrumbLabels();

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
        crumbs={withCrumbLabels(crumbs, learned)}
        menuOpen={menuOpen}
        onMenu={() => setMenuOpen(true)}
        unread={
          unread > 0
            ? { href: `/t/${encodeURIComponent(tenancyId)}/notifications`, count: unread }
            : undefined
        }
      />
    </>
  );
}
