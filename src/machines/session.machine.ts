/**
 * The session (SPEC §4): app initialisation, login, token refresh 5 s before expiry, tenancy choice, logout,
 * and the end of an impersonation session 60 minutes after it started (SPEC §9). Pure: storage, network, timers'
 * clock and navigation are supplied with `.provide()`.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { UserQueryQuery } from '../client/gql/account.ts';
import { type ServerErrorCode, serverErrorCode } from '../lib/errors.ts';

/** The two backends, each with its own tokens (SPEC §3). */
export type Backend = 'account' | 'tenant';

/** An access token with its expiry in ms since the epoch (read from the JWT's exp). */
export type AccessToken = { token: string; expiresAt: number };

/** One backend's tokens; an expired access token is stored as null. */
export type BackendTokens = {
  access: AccessToken | null;
  refreshToken: string | null;
  /** Refresh token expiry in ms, when the backend tells it. */
  refreshExpiresAt: number | null;
};

export type SessionTokens = Record<Backend, BackendTokens>;

/** The signed-in user, full shape of SPEC §3, as the account backend's UserQuery answers it. */
type SessionUser = NonNullable<UserQueryQuery['me']>;

/** A tenancy of the signed-in user (SPEC §3), as UserQuery answers it. */
export type Tenancy = UserQueryQuery['allTenanciesForCurrentUser'][number];

/** An impersonation session in this tab (SPEC §4): whom it shows, and when it ends in ms since the epoch. */
export type Impersonation = { email: string; endsAt: number };

/**
 * What restoring from storage yields: tokens with expired ones already cleared, the stored tenancy, and the
 * impersonation this tab holds (absent or null for an ordinary session).
 */
export type RestoredSession = {
  tokens: SessionTokens | null;
  storedTenancyId: string | null;
  impersonation?: Impersonation | null;
};

export type UserAndTenancies = { user: SessionUser; tenancies: Tenancy[] };

type SessionContext = {
  tokens: SessionTokens | null;
  user: SessionUser | null;
  tenancies: Tenancy[];
  selectedTenancyId: string | null;
  /** Tenancy id from the URL when the app started; it wins over the stored one. */
  urlTenancyId: string | null;
  storedTenancyId: string | null;
  /** Why the last login failed; its message is `errors.<code>` in the domain namespace. */
  loginError: ServerErrorCode | null;
  /** The impersonation this tab's session is, or null for an ordinary session. */
  impersonation: Impersonation | null;
  /** Why the last session ended: the user asked, the server refused it, or the impersonation's hour was up. */
  logoutReason: LogoutReason | null;
};

/** Why a session ended. */
export type LogoutReason = 'user' | 'expired' | 'impersonationEnded';

export type SessionEvent =
  | { type: 'session.login'; email: string; password: string }
  | { type: 'session.logout' }
  /** Sent by the GraphQL client when a backend answers "login required". */
  | { type: 'session.unauthorized' }
  /** Sent by the GraphQL client when it finds an access token expired before a request. */
  | { type: 'token.expired'; backend: Backend }
  | { type: 'tenancy.select'; tenancyId: string };

type SessionInput = { urlTenancyId?: string | null };

/** How long before its expiry an access token is refreshed (SPEC §9). */
const REFRESH_MARGIN_MS = 5_000;

/** SPEC §9: an impersonation session lasts 60 minutes from its start. */
export const IMPERSONATION_SESSION_MS = 60 * 60 * 1000;

const BACKENDS: readonly Backend[] = ['account', 'tenant'];

/** Ms from `now` until the access token should be refreshed; 0 when due or unknown. */
export function msUntilRefresh(access: AccessToken | null | undefined, now: number): number {
  if (!access) return 0;
  return Math.max(0, access.expiresAt - REFRESH_MARGIN_MS - now);
}

/**
 * Ms from `now` until the impersonation ends: 0 when past, and never more than a whole session (a stored end
 * further off than that is not believed; it also keeps the timer within setTimeout's range).
 */
export function msUntilImpersonationEnds(impersonation: Impersonation | null, now: number): number {
  if (!impersonation) return 0;
  return Math.min(IMPERSONATION_SESSION_MS, Math.max(0, impersonation.endsAt - now));
}

/** The tenancy to select: the URL's, else the stored one, else the first (SPEC §4). */
export function chooseTenancy(
  tenancies: Tenancy[],
  urlId: string | null,
  storedId: string | null,
): string | null {
  for (const id of [urlId, storedId]) {
    if (id && tenancies.some((t) => t.id === id)) return id;
  }
  return tenancies[0]?.id ?? null;
}

const needsRefresh = (tokens: SessionTokens | null, backend: Backend) =>
  !!tokens && !tokens[backend].access && !!tokens[backend].refreshToken;

const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    restoreSession: fromPromise<RestoredSession>(async () => ({ tokens: null, storedTenancyId: null })),
    refreshAccess: fromPromise<BackendTokens, { backend: Backend; refreshToken: string }>(async () => {
      throw new Error('refreshAccess not provided');
    }),
    loadUser: fromPromise<UserAndTenancies, { tokens: SessionTokens | null }>(async () => {
      throw new Error('loadUser not provided');
    }),
    login: fromPromise<SessionTokens, { email: string; password: string }>(async () => {
      throw new Error('login not provided');
    }),
    revoke: fromPromise<void, { tokens: SessionTokens | null }>(async () => {}),
  },
  actions: {
    persistTokens: (_, _params: { tokens: SessionTokens | null }) => {},
    persistSelectedTenancy: (_, _params: { tenancyId: string | null }) => {},
    clearStorage: () => {},
    redirectAfterLogout: (_, _params: { reason: LogoutReason | null }) => {},
    storeTokens: assign({
      tokens: ({ context }, params: { backend: Backend; tokens: BackendTokens }) =>
        context.tokens ? { ...context.tokens, [params.backend]: params.tokens } : null,
    }),
    acceptUser: assign(({ context }, { user, tenancies }: UserAndTenancies) => ({
      user,
      tenancies,
      selectedTenancyId: chooseTenancy(tenancies, context.urlTenancyId, context.storedTenancyId),
    })),
    clearSession: assign({
      tokens: null,
      user: null,
      tenancies: [],
      selectedTenancyId: null,
      urlTenancyId: null,
      storedTenancyId: null,
      impersonation: null,
    }),
  },
  guards: {
    isSessionMissing: ({ context }) =>
      !context.tokens || BACKENDS.some((b) => !context.tokens![b].access && !context.tokens![b].refreshToken),
    accountNeedsRefresh: ({ context }) => needsRefresh(context.tokens, 'account'),
    tenantNeedsRefresh: ({ context }) => needsRefresh(context.tokens, 'tenant'),
    hasTenancies: ({ context }) => context.tenancies.length > 0,
    isImpersonation: ({ context }) => context.impersonation !== null,
    isOwnTenancy: ({ context, event }) => {
      assertEvent(event, 'tenancy.select');
      return context.tenancies.some((t) => t.id === event.tenancyId);
    },
    isForBackend: ({ event }, params: { backend: Backend }) => {
      assertEvent(event, 'token.expired');
      return event.backend === params.backend;
    },
  },
  delays: {
    // Date.now here is the only clock read; tests replace both delays.
    accountRefreshDelay: ({ context }) => msUntilRefresh(context.tokens?.account.access, Date.now()),
    tenantRefreshDelay: ({ context }) => msUntilRefresh(context.tokens?.tenant.access, Date.now()),
    // From the end the server set when the impersonation started, so a reload keeps the same deadline.
    impersonationDelay: ({ context }) => msUntilImpersonationEnds(context.impersonation, Date.now()),
  },
});

/** The id of each backend's refresh invocation. */
const REFRESH_ACTOR = { account: 'refreshAccount', tenant: 'refreshTenant' } as const;

/** Refreshes one backend's tokens, then stores and persists the new pair; the caller adds onError. */
function refreshTokensInvoke<const Target extends string>(backend: Backend, target: Target) {
  return sessionSetup.createStateConfig({
    invoke: {
      id: REFRESH_ACTOR[backend],
      src: 'refreshAccess',
      input: ({ context }) => ({ backend, refreshToken: context.tokens?.[backend].refreshToken ?? '' }),
      onDone: {
        target,
        actions: [
          { type: 'storeTokens', params: ({ event }) => ({ backend, tokens: event.output }) },
          { type: 'persistTokens', params: ({ context }) => ({ tokens: context.tokens }) },
        ],
      },
    },
  }).invoke;
}

/** Loads the user and tenancies, selects and persists a tenancy, then the session is logged in; the caller adds onError. */
function loadUserInvoke() {
  return sessionSetup.createStateConfig({
    invoke: {
      id: 'loadUser',
      src: 'loadUser',
      input: ({ context }) => ({ tokens: context.tokens }),
      onDone: {
        target: '#session.loggedIn',
        actions: [
          { type: 'acceptUser', params: ({ event }) => event.output },
          {
            type: 'persistSelectedTenancy',
            params: ({ context }) => ({ tenancyId: context.selectedTenancyId }),
          },
        ],
      },
    },
  }).invoke;
}

/** A backend's token region while logged in: refresh on its timer or when a request finds it expired. */
function tokenRegion(backend: Backend) {
  return sessionSetup.createStateConfig({
    initial: 'fresh',
    states: {
      fresh: {
        // Spelled out, not a computed key, so the delay names stay checked against setup's.
        after:
          backend === 'account'
            ? { accountRefreshDelay: 'refreshing' }
            : { tenantRefreshDelay: 'refreshing' },
        on: {
          'token.expired': { guard: { type: 'isForBackend', params: { backend } }, target: 'refreshing' },
        },
      },
      refreshing: {
        invoke: {
          ...refreshTokensInvoke(backend, 'fresh'),
          // A failed refresh ends the session (SPEC §4).
          onError: { target: '#session.loggingOut', actions: assign({ logoutReason: 'expired' }) },
        },
      },
    },
  });
}

/** The session machine; the app provides its actors and effect actions. */
export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: ({ input }) => ({
    tokens: null,
    user: null,
    tenancies: [],
    selectedTenancyId: null,
    urlTenancyId: input?.urlTenancyId ?? null,
    storedTenancyId: null,
    loginError: null,
    impersonation: null,
    logoutReason: null,
  }),
  initial: 'initialising',
  states: {
    initialising: {
      initial: 'restoring',
      states: {
        restoring: {
          invoke: {
            id: 'restoreSession',
            src: 'restoreSession',
            onDone: {
              target: 'checking',
              actions: assign({
                tokens: ({ event }) => event.output.tokens,
                storedTenancyId: ({ event }) => event.output.storedTenancyId,
                impersonation: ({ event }) => event.output.impersonation ?? null,
              }),
            },
            onError: { target: '#session.loggedOut', actions: ['clearSession', 'clearStorage'] },
          },
        },
        checking: {
          always: [
            {
              guard: 'isSessionMissing',
              target: '#session.loggedOut',
              actions: ['clearSession', 'clearStorage'],
            },
            { guard: 'accountNeedsRefresh', target: 'refreshingAccount' },
            { guard: 'tenantNeedsRefresh', target: 'refreshingTenant' },
            { target: 'loadingUser' },
          ],
        },
        refreshingAccount: {
          invoke: {
            ...refreshTokensInvoke('account', 'checking'),
            // A refresh token the server refuses ends the stored session.
            onError: { target: '#session.loggedOut', actions: ['clearSession', 'clearStorage'] },
          },
        },
        refreshingTenant: {
          invoke: {
            ...refreshTokensInvoke('tenant', 'checking'),
            onError: { target: '#session.loggedOut', actions: ['clearSession', 'clearStorage'] },
          },
        },
        loadingUser: {
          invoke: {
            ...loadUserInvoke(),
            onError: { target: '#session.loggedOut', actions: ['clearSession', 'clearStorage'] },
          },
        },
      },
    },
    loggedOut: {
      on: {
        'session.login': { target: 'loggingIn', actions: assign({ loginError: null, logoutReason: null }) },
      },
    },
    loggingIn: {
      initial: 'authenticating',
      states: {
        authenticating: {
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'session.login');
              return { email: event.email, password: event.password };
            },
            onDone: {
              target: 'loadingUser',
              actions: [
                assign({ tokens: ({ event }) => event.output }),
                { type: 'persistTokens', params: ({ context }) => ({ tokens: context.tokens }) },
              ],
            },
            onError: {
              target: '#session.loggedOut',
              actions: [
                assign({ loginError: ({ event }) => serverErrorCode(event.error) }),
                'clearSession',
                'clearStorage',
              ],
            },
          },
        },
        loadingUser: {
          invoke: {
            ...loadUserInvoke(),
            onError: {
              target: '#session.loggedOut',
              actions: [
                assign({ loginError: ({ event }) => serverErrorCode(event.error) }),
                'clearSession',
                'clearStorage',
              ],
            },
          },
        },
      },
    },
    loggedIn: {
      type: 'parallel',
      on: {
        'session.logout': { target: 'loggingOut', actions: assign({ logoutReason: 'user' }) },
        'session.unauthorized': { target: 'loggingOut', actions: assign({ logoutReason: 'expired' }) },
      },
      states: {
        tenancy: {
          initial: 'deciding',
          states: {
            deciding: {
              always: [{ guard: 'hasTenancies', target: 'withTenancies' }, { target: 'noTenancies' }],
            },
            withTenancies: {
              on: {
                'tenancy.select': {
                  guard: 'isOwnTenancy',
                  actions: [
                    assign({ selectedTenancyId: ({ event }) => event.tenancyId }),
                    {
                      type: 'persistSelectedTenancy',
                      params: ({ event }) => ({ tenancyId: event.tenancyId }),
                    },
                  ],
                },
              },
            },
            noTenancies: {},
          },
        },
        accountToken: tokenRegion('account'),
        tenantToken: tokenRegion('tenant'),
        // SPEC §4, §9: an impersonation logs out by itself when its 60 minutes are up.
        impersonation: {
          initial: 'deciding',
          states: {
            deciding: {
              always: [{ guard: 'isImpersonation', target: 'running' }, { target: 'none' }],
            },
            running: {
              after: {
                impersonationDelay: {
                  target: '#session.loggingOut',
                  actions: assign({ logoutReason: 'impersonationEnded' }),
                },
              },
            },
            none: {},
          },
        },
      },
    },
    loggingOut: {
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ context }) => ({ tokens: context.tokens }),
        onDone: 'loggedOut',
        // Revocation is best effort: the tokens are forgotten here either way.
        onError: 'loggedOut',
      },
      exit: [
        'clearSession',
        'clearStorage',
        { type: 'redirectAfterLogout', params: ({ context }) => ({ reason: context.logoutReason }) },
      ],
    },
  },
});
