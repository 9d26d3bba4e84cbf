/**
 * The session (SPEC §4): app initialisation, login, token refresh 5 s before expiry, tenancy choice, logout,
 * and the end of an impersonation session 60 minutes after it started (SPEC §9). Pure: storage, network, timers'
 * clock and navigation are supplied with `.provide()`.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { serverErrorCode } from '../lib/errors.ts';
import {
  BACKENDS,
  type Backend,
  type BackendTokens,
  chooseTenancy,
  type LogoutReason,
  msUntilImpersonationEnds,
  msUntilRefresh,
  needsRefresh,
  type RestoredSession,
  type SessionContext,
  type SessionEvent,
  type SessionInput,
  type SessionTokens,
  type UserAndTenancies,
} from './session.types.ts';

// The types other modules take from here; their definitions are in session.types.ts.
export type {
  Backend,
  BackendTokens,
  Impersonation,
  SessionTokens,
  Tenancy,
  UserAndTenancies,
} from './session.types.ts';

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
