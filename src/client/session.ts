/**
 * The page's one session actor, with the real effects: storage, both backends and navigation.
 * Islands share no React context, so each subscribes to this module singleton.
 */
import { navigate } from 'astro:transitions/client';
import { type Actor, createActor, fromPromise, type SnapshotFrom, waitFor } from 'xstate';
import { parseLanguage } from '../lib/languages.ts';
import { sessionMachine } from '../machines/session.machine.ts';
import type { Backend, BackendTokens, RestoredSession, SessionTokens } from '../machines/session.types.ts';
import { config } from './config.ts';
import { configureAuth } from './graphql.ts';
import { saveLanguageChoice } from './languageChoice.ts';
import { refreshAccountToken } from './operations/accountRefreshToken.ts';
import { revokeToken } from './operations/revokeToken.ts';
import { tenantLogin } from './operations/tenantLogin.ts';
import { refreshTenantToken } from './operations/tenantRefreshToken.ts';
import { revokeTenantToken } from './operations/tenantRevokeToken.ts';
import { tokenAuth } from './operations/tokenAuth.ts';
import { fetchUserAndTenancies } from './operations/userQuery.ts';
import { queryClient } from './queryClient.ts';
import { rememberReturnTo, takeReturnTo } from './returnTo.ts';
import {
  browserStorage,
  clearSessionStorage,
  forgetImpersonation,
  readImpersonation,
  readSelectedTenancy,
  readTokens,
  writeSelectedTenancy,
  writeTokens,
} from './storage.ts';

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
export type SessionActor = Actor<typeof sessionMachine>;

/** The tenancy id in a /t/{tenantId}/… path, or null. */
export function tenancyIdFromPath(pathname: string): string | null {
  const match = /^\/t\/([^/]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

// The raw failure of the last login or user load, so the login form maps it with lib/errors like any
// server error; the machine keeps only its code.
let lastLoginFailure: unknown = null;

async function rememberingFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    lastLoginFailure = err;
    throw err;
  }
}

const liveMachine = sessionMachine.provide({
  actors: {
    restoreSession: fromPromise<RestoredSession>(async () => ({
      tokens: readTokens(browserStorage(), Date.now()),
      storedTenancyId: readSelectedTenancy(browserStorage()),
      impersonation: readImpersonation(),
    })),
    refreshAccess: fromPromise<BackendTokens, { backend: Backend; refreshToken: string }>(
      async ({ input }) =>
        input.backend === 'account'
          ? refreshAccountToken(input.refreshToken)
          : refreshTenantToken(input.refreshToken),
    ),
    loadUser: fromPromise(({ input }: { input: { tokens: SessionTokens | null } }) =>
      rememberingFailure(async () => {
        const token = input.tokens?.account.access?.token;
        if (!token) throw new Error('Invalid user response');
        return fetchUserAndTenancies(token);
      }),
    ),
    login: fromPromise<SessionTokens, { email: string; password: string }>(({ input }) =>
      rememberingFailure(async () => {
        // SPEC §3: one login yields tokens for both backends.
        const [account, tenant] = await Promise.all([
          tokenAuth(input.email, input.password),
          tenantLogin(input.email, input.password),
        ]);
        return { account, tenant };
      }),
    ),
    revoke: fromPromise(async ({ input }: { input: { tokens: SessionTokens | null } }) => {
      // Logout ends the refresh tokens of both backends; one failing does not keep the other alive.
      const account = input.tokens?.account.refreshToken;
      const tenant = input.tokens?.tenant.refreshToken;
      await Promise.allSettled([
        account ? revokeToken(account) : null,
        tenant ? revokeTenantToken(tenant) : null,
      ]);
    }),
  },
  actions: {
    persistTokens: (_, params) => writeTokens(browserStorage(), params.tokens),
    persistSelectedTenancy: (_, params) => writeSelectedTenancy(browserStorage(), params.tenancyId),
    clearStorage: () => {
      // In an impersonation tab this clears its sessionStorage, and then the tab goes back to localStorage.
      clearSessionStorage(browserStorage());
      forgetImpersonation();
      queryClient.clear();
    },
    redirectAfterLogout: (_, params) => {
      // A chosen logout goes to login; an ended impersonation too, saying so; an expired or refused session
      // with SPEC §8's "Your log in expired", and the page it was on is kept for after the next login.
      if (params.reason === 'user') return void navigate('/login');
      if (params.reason === 'impersonationEnded') return void navigate('/login?ended=impersonation');
      rememberReturnTo(new URL(window.location.href));
      void navigate('/login?expired=1');
    },
  },
});

let actor: SessionActor | null = null;

/** The started session actor (browser only). */
export function getSessionActor(): SessionActor {
  if (typeof window === 'undefined') throw new Error('The session actor exists only in the browser');
  if (!actor) {
    actor = createActor(liveMachine, {
      input: { urlTenancyId: tenancyIdFromPath(window.location.pathname) },
    });
    configureAuth({ accessToken, unauthorized: () => actor?.send({ type: 'session.unauthorized' }) });
    actor.start();
  }
  return actor;
}

const isFresh = (s: SessionSnapshot, backend: Backend) =>
  s.matches({ loggedIn: backend === 'account' ? { accountToken: 'fresh' } : { tenantToken: 'fresh' } });

/** A valid access token for a backend; an expired one is refreshed first (SPEC §7). */
async function accessToken(backend: Backend, opts: { forceRefresh?: boolean } = {}): Promise<string> {
  const session = getSessionActor();
  let snap = await waitFor(session, (s) => !s.matches('initialising') && !s.matches('loggingIn'));
  const access = snap.context.tokens?.[backend].access;
  const stale = !access || access.expiresAt - 1_000 <= Date.now();
  if (snap.matches('loggedIn') && (opts.forceRefresh || stale)) {
    if (isFresh(snap, backend)) session.send({ type: 'token.expired', backend });
    snap = await waitFor(session, (s) => !s.matches('loggedIn') || isFresh(s, backend));
  }
  const token = snap.matches('loggedIn') ? snap.context.tokens?.[backend].access?.token : null;
  if (!token) throw new Error('Login required');
  return token;
}

/** Logs in through the session and resolves when the user is loaded; rejects with the server's error. */
export async function loginThroughSession(email: string, password: string): Promise<SessionSnapshot> {
  const session = getSessionActor();
  await waitFor(session, (s) => !s.matches('initialising'));
  lastLoginFailure = null;
  session.send({ type: 'session.login', email, password });
  const done = await waitFor(session, (s) => !s.matches('loggingIn'));
  if (done.matches('loggedIn')) return done;
  throw lastLoginFailure ?? new Error(done.context.loginError ?? 'unknown');
}

/**
 * SPEC §3/§4: the language saved to the account is the interface's after a login, on any device; the page the
 * login goes to is rendered in it (storage and the `lang` cookie). A language this site does not offer is ignored.
 */
export function adoptAccountLanguage(snapshot: SessionSnapshot): void {
  const lang = parseLanguage(snapshot.context.user?.language);
  if (lang && config.languages.includes(lang)) saveLanguageChoice(lang);
}

/**
 * Where a login goes: the app page the user was sent away from (selecting its tenancy when it is one of
 * theirs), else the dashboard (homePath).
 */
export function afterLoginPath(snapshot: SessionSnapshot): string {
  adoptAccountLanguage(snapshot);
  const target = takeReturnTo();
  const id = target ? tenancyIdFromPath(target) : null;
  if (!target || !id || !snapshot.context.tenancies.some((t) => t.id === id)) return homePath(snapshot);
  if (id !== snapshot.context.selectedTenancyId)
    getSessionActor().send({ type: 'tenancy.select', tenancyId: id });
  return target;
}

/** The dashboard path of the selected tenancy, or the no-tenancies page. */
export function homePath(snapshot: SessionSnapshot): string {
  const id = snapshot.context.selectedTenancyId;
  return id ? `/t/${encodeURIComponent(id)}/` : '/no-tenancies';
}
