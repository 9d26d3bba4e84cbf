import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import {
  type BackendTokens,
  chooseTenancy,
  msUntilRefresh,
  type RestoredSession,
  type SessionEvent,
  type SessionTokens,
  type Tenancy,
  type UserAndTenancies,
} from '../../src/machines/session.types.ts';
import { Deferreds, executor, flush, ManualClock, modelOf, type Outcomes, replay } from './harness.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

const backend = (name: string, accessValid = true): BackendTokens => ({
  access: accessValid ? { token: `${name}-access`, expiresAt: NOW + 300_000 } : null,
  refreshToken: `${name}-refresh`,
  refreshExpiresAt: null,
});
const fullTokens: SessionTokens = { account: backend('account'), tenant: backend('tenant') };
const accountExpired: SessionTokens = { account: backend('account', false), tenant: backend('tenant') };
const halfSession: SessionTokens = {
  account: backend('account'),
  tenant: { access: null, refreshToken: null, refreshExpiresAt: null },
};

const tenancy = (id: string): Tenancy => ({
  id,
  propertyNumber: '1001',
  tenancyId: `T-${id}`,
  tenant: 'Tenant',
  start: '2024-01-01',
  end: null,
  useNewBackend: true,
  dataAvailability: { start: '2024-01-01', end: null },
  billingPeriod: { start: '2025-07-01', end: '2026-06-30' },
  apartment: {
    apartmentInfo: { city: 'Aarhus C', zipcode: '8000' },
    uniqueId: `apt-${id}`,
    apartment: 'st. tv.',
    address: `Vestergade ${id}`,
  },
  latestAllocationStatement: null,
  meterUnits: [],
  isAdmin: false,
});
const user = {
  id: 'u1',
  email: 'tenant@demo.test',
  name: 'Tenant',
  language: 'da',
  isSuperuser: false,
  isActive: true,
  isAdmin: false,
  userType: 'email',
  emailNotifications: true,
  accountHasStatements: false,
};
const withTenancies: UserAndTenancies = { user, tenancies: [tenancy('7'), tenancy('9')] };
const withoutTenancies: UserAndTenancies = { user, tenancies: [] };

const restored = (tokens: SessionTokens | null): RestoredSession => ({ tokens, storedTenancyId: '9' });
const authError = { message: 'Please enter valid credentials', extensions: { code: 'INVALID_CREDENTIALS' } };
const refreshed = (name: string): BackendTokens => ({
  access: { token: `${name}-access-2`, expiresAt: NOW + 600_000 },
  refreshToken: `${name}-refresh-2`,
  refreshExpiresAt: null,
});

// Data events, with valid and invalid payloads, that drive the traversal.
const events = [
  { type: 'xstate.done.actor.restoreSession', output: restored(fullTokens) },
  { type: 'xstate.done.actor.restoreSession', output: restored(accountExpired) },
  { type: 'xstate.done.actor.restoreSession', output: restored(halfSession) },
  { type: 'xstate.done.actor.restoreSession', output: restored(null) },
  {
    type: 'xstate.done.actor.restoreSession',
    output: {
      ...restored(fullTokens),
      impersonation: { email: 'tenant@demo.test', endsAt: NOW + 3_600_000 },
    },
  },
  { type: 'xstate.error.actor.restoreSession', error: new Error('storage unavailable') },
  { type: 'xstate.done.actor.refreshAccount', output: refreshed('account') },
  { type: 'xstate.error.actor.refreshAccount', error: { code: 'TOKEN_REVOKED' } },
  { type: 'xstate.done.actor.refreshTenant', output: refreshed('tenant') },
  { type: 'xstate.error.actor.refreshTenant', error: { code: 'TOKEN_REVOKED' } },
  { type: 'xstate.done.actor.loadUser', output: withTenancies },
  { type: 'xstate.done.actor.loadUser', output: withoutTenancies },
  { type: 'xstate.error.actor.loadUser', error: { code: 'UNAUTHENTICATED' } },
  { type: 'session.login', email: 'tenant@demo.test', password: 'Demo#Tenant2026' },
  { type: 'xstate.done.actor.login', output: fullTokens },
  { type: 'xstate.error.actor.login', error: authError },
  { type: 'tenancy.select', tenancyId: '7' },
  { type: 'tenancy.select', tenancyId: 'someone-elses' },
  { type: 'token.expired', backend: 'account' },
  { type: 'token.expired', backend: 'tenant' },
  { type: 'xstate.after.accountRefreshDelay.session.loggedIn.accountToken.fresh' },
  { type: 'xstate.after.tenantRefreshDelay.session.loggedIn.tenantToken.fresh' },
  { type: 'xstate.after.impersonationDelay.session.loggedIn.impersonation.running' },
  { type: 'session.logout' },
  { type: 'session.unauthorized' },
  { type: 'xstate.done.actor.revoke', output: undefined },
  { type: 'xstate.error.actor.revoke', error: new Error('offline') },
] as unknown as SessionEvent[];

const DELAYS = { accountRefreshDelay: 1_000, tenantRefreshDelay: 2_000, impersonationDelay: 3_000 };

/** A live session actor whose invocations the test settles by hand, with its effects recorded. */
function harness() {
  const deferreds = new Deferreds();
  const effects = {
    persistedTokens: [] as (SessionTokens | null)[],
    persistedTenancy: [] as (string | null)[],
    cleared: 0,
    redirects: [] as (string | null)[],
  };
  const clock = new ManualClock();
  const machine = sessionMachine.provide({
    // One deferred fake stands in for every promise actor; the cast only widens its output type.
    actors: {
      restoreSession: deferreds.actor as never,
      refreshAccess: deferreds.actor as never,
      loadUser: deferreds.actor as never,
      login: deferreds.actor as never,
      revoke: deferreds.actor as never,
    },
    actions: {
      persistTokens: (_, params) => {
        effects.persistedTokens.push(params.tokens);
      },
      persistSelectedTenancy: (_, params) => {
        effects.persistedTenancy.push(params.tenancyId);
      },
      clearStorage: () => {
        effects.cleared += 1;
      },
      redirectAfterLogout: (_, params) => {
        effects.redirects.push(params.reason);
      },
    },
    delays: DELAYS,
  });
  const actor = createActor(machine, { input: { urlTenancyId: null }, clock });
  actor.start();
  return { actor, deferreds, effects, clock, exec: executor(actor, deferreds, { clock, delays: DELAYS }) };
}

const model = createTestModel(modelOf(sessionMachine), {
  events,
  // A state is its value plus its context: which event led there does not matter.
  serializeState: (state) => JSON.stringify([state.value, state.context]),
  // An impersonation is walked to its end and to a user logout only: its token refreshes and tenancy choice are
  // the ordinary session's, and crossing them again would double the paths without new checks.
  filterEvents: (state, event) =>
    !state.context.impersonation ||
    !['token.expired', 'tenancy.select', 'session.unauthorized', 'xstate.after.', 'xstate.error.actor.'].some(
      (t) => event.type.startsWith(t) && !event.type.startsWith('xstate.after.impersonationDelay'),
    ),
});

// Shortest paths to every distinct (state, context) the events above reach; a change here is a change of the chart.
const EXPECTED_PATHS = 72;

type Context = ReturnType<typeof sessionMachine.getInitialSnapshot>['context'];
const ids = (c: Context) => c.tenancies.map((t) => t.id);

/** What each state a path ends in must hold, by SPEC §4 (written by hand, not read from the machine). */
function outcomes(effects: ReturnType<typeof harness>['effects']): Outcomes<Context> {
  return [
    [
      'loggedOut',
      (c) => {
        expect(c).toMatchObject({
          tokens: null,
          user: null,
          tenancies: [],
          selectedTenancyId: null,
          impersonation: null,
        });
        expect(effects.cleared).toBeGreaterThan(0);
      },
    ],
    [{ initialising: 'restoring' }, { tokens: null, user: null }],
    // Refresh only a backend that has a refresh token and no access token; the account first.
    [
      { initialising: 'refreshingAccount' },
      (c) => expect(c.tokens?.account).toMatchObject({ access: null, refreshToken: 'account-refresh' }),
    ],
    [
      { initialising: 'refreshingTenant' },
      (c) => {
        expect(c.tokens?.account.access).not.toBeNull();
        expect(c.tokens?.tenant).toMatchObject({ access: null, refreshToken: 'tenant-refresh' });
      },
    ],
    // The user is loaded only with an access token for both backends.
    [
      { initialising: 'loadingUser' },
      (c) => {
        expect(c.tokens?.account.access).not.toBeNull();
        expect(c.tokens?.tenant.access).not.toBeNull();
        expect(c.user).toBeNull();
      },
    ],
    [{ loggingIn: 'authenticating' }, { tokens: null, loginError: null, user: null }],
    [{ loggingIn: 'loadingUser' }, { tokens: fullTokens, loginError: null }],
    [
      { loggedIn: { tenancy: 'withTenancies' } },
      (c) => {
        expect(c.user).toEqual(user);
        expect(ids(c)).toEqual(['7', '9']);
        expect(['7', '9']).toContain(c.selectedTenancyId);
        expect(c.logoutReason).toBeNull();
      },
    ],
    [
      { loggedIn: { tenancy: 'noTenancies' } },
      { user, tenancies: [], selectedTenancyId: null, logoutReason: null },
    ],
    [
      'loggingOut',
      (c) => {
        expect(['user', 'expired', 'impersonationEnded']).toContain(c.logoutReason);
        expect(c.user).toEqual(user);
        if (c.logoutReason === 'impersonationEnded') expect(c.impersonation).not.toBeNull();
      },
    ],
  ];
}

describe('session machine model', () => {
  const paths = model.getShortestPaths({ limit: 2_000 });

  it('has the expected number of shortest paths', () => {
    expect(paths.length).toBe(EXPECTED_PATHS);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, effects, exec } = harness();
      await replay(path, actor, exec, outcomes(effects));
      actor.stop();
    });
  }
});

describe('session machine effects', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function loggedIn(restoredTokens: SessionTokens = fullTokens) {
    const h = harness();
    await h.deferreds.resolve('restoreSession', restored(restoredTokens));
    await h.deferreds.resolve('loadUser', withTenancies);
    return h;
  }

  it('selects the stored tenancy after restoring, and persists it', async () => {
    const { actor, effects } = await loggedIn();
    expect(actor.getSnapshot().matches({ loggedIn: { tenancy: 'withTenancies' } })).toBe(true);
    expect(actor.getSnapshot().context.selectedTenancyId).toBe('9');
    expect(effects.persistedTenancy).toEqual(['9']);
  });

  it('refreshes an expired access token before loading the user, and stores the new pair', async () => {
    const { actor, deferreds, effects } = harness();
    await deferreds.resolve('restoreSession', restored(accountExpired));
    expect(actor.getSnapshot().matches({ initialising: 'refreshingAccount' })).toBe(true);
    expect(deferreds.input('refreshAccount')).toEqual({
      backend: 'account',
      refreshToken: 'account-refresh',
    });
    await deferreds.resolve('refreshAccount', refreshed('account'));
    expect(actor.getSnapshot().matches({ initialising: 'loadingUser' })).toBe(true);
    expect(effects.persistedTokens.at(-1)?.account).toEqual(refreshed('account'));
  });

  it('logs out through revoke with the current tokens, clears storage and goes to login', async () => {
    const { actor, deferreds, effects } = await loggedIn();
    actor.send({ type: 'session.logout' });
    expect(deferreds.input('revoke')).toEqual({ tokens: fullTokens });
    await deferreds.resolve('revoke', undefined);
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(effects.redirects).toEqual(['user']);
  });

  it('a failed refresh in the session logs out with reason expired', async () => {
    const { actor, deferreds, effects, clock } = await loggedIn();
    clock.fire(1_000);
    await flush();
    await deferreds.reject('refreshAccount', { code: 'TOKEN_REVOKED' });
    expect(actor.getSnapshot().matches('loggingOut')).toBe(true);
    await deferreds.reject('revoke', new Error('offline'));
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(effects.redirects).toEqual(['expired']);
  });

  it('keeps the login error code and clears it on the next attempt', async () => {
    const { actor, deferreds } = harness();
    await deferreds.resolve('restoreSession', restored(null));
    actor.send({ type: 'session.login', email: 'a@b.dk', password: 'wrong' });
    expect(actor.getSnapshot().matches('loggingIn')).toBe(true);
    await deferreds.reject('login', authError);
    expect(actor.getSnapshot().context.loginError).toBe('invalid_credentials');
    actor.send({ type: 'session.login', email: 'a@b.dk', password: 'right' });
    expect(actor.getSnapshot().context.loginError).toBeNull();
  });
});

describe('refresh timing from the token expiry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('msUntilRefresh is 5 s before expiry, never negative, 0 without a token', () => {
    expect(msUntilRefresh({ token: 't', expiresAt: NOW + 60_000 }, NOW)).toBe(55_000);
    expect(msUntilRefresh({ token: 't', expiresAt: NOW + 3_000 }, NOW)).toBe(0);
    expect(msUntilRefresh(null, NOW)).toBe(0);
  });

  it('the default delay fires the refresh exactly 5 s before the access token expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const clock = new SimulatedClock();
    const started = new Set<string>();
    const never = fromPromise<unknown, unknown>(({ self }) => {
      started.add(self.id);
      return new Promise(() => {});
    });
    const machine = sessionMachine.provide({
      actors: {
        restoreSession: fromPromise(async () => restored(fullTokens)),
        loadUser: fromPromise(async () => withTenancies),
        refreshAccess: never as never,
      },
    });
    const actor = createActor(machine, { input: {}, clock });
    actor.start();
    await flush();
    await flush();
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
    clock.increment(294_999);
    expect(started.size).toBe(0);
    clock.increment(1);
    expect([...started].sort()).toEqual(['refreshAccount', 'refreshTenant']);
    actor.stop();
  });
});

describe('chooseTenancy', () => {
  const list = [tenancy('1'), tenancy('2'), tenancy('3')];
  it('prefers the URL, then the stored one, then the first; ignores ids not in the list', () => {
    expect(chooseTenancy(list, '3', '2')).toBe('3');
    expect(chooseTenancy(list, 'x', '2')).toBe('2');
    expect(chooseTenancy(list, null, 'gone')).toBe('1');
    expect(chooseTenancy([], '1', '1')).toBeNull();
  });
});
