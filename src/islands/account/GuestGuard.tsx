/**
 * Routing for the unauthenticated pages (SPEC §2): a logged-in user on /login or /signup goes to their
 * dashboard; /no-tenancies is only for a logged-in user without tenancies. Also keeps `?activationCode=`.
 */
import { navigate } from 'astro:transitions/client';
import { useEffect, useRef } from 'react';
import { captureActivationCode } from '../../client/pendingCode.ts';
import { homePath } from '../../client/session.ts';
import { useSession } from '../shared/useSession.ts';

type Mode = 'guest' | 'noTenancies';

/** The island; renders nothing. */
export default function GuestGuard({ mode }: { mode: Mode }) {
  const status = useSession((s) =>
    s.matches('loggedIn')
      ? s.context.tenancies.length > 0
        ? 'withTenancies'
        : 'noTenancies'
      : s.matches('loggedOut')
        ? 'loggedOut'
        : 'busy',
  );
  const home = useSession(homePath);
  useEffect(() => {
    captureActivationCode(new URL(window.location.href));
  }, []);
  // Decided once, when the session is first known: a login or signup on this very page must not be
  // overtaken by the guard (the form navigates on by itself).
  const decided = useRef(false);
  useEffect(() => {
    if (status === 'busy' || decided.current) return;
    decided.current = true;
    if (mode === 'guest' && status === 'withTenancies') void navigate(home, { history: 'replace' });
    if (mode === 'guest' && status === 'noTenancies' && !window.location.pathname.startsWith('/signup')) {
      void navigate('/no-tenancies', { history: 'replace' });
    }
    if (mode === 'noTenancies' && status === 'loggedOut') void navigate('/login', { history: 'replace' });
    if (mode === 'noTenancies' && status === 'withTenancies') void navigate(home, { history: 'replace' });
  }, [mode, status, home]);
  return null;
}
