import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  type BackendTokens,
  chooseTenancy,
  msUntilRefresh,
  type RestoredSession,
  type SessionEvent,
  type SessionTokens,
  sessionMachine,
  type Tenancy,
  type UserAndTenancies,
} from '../../src/machines/session.machine.ts';
import { ManualClock } from './harness.ts';

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
  { type: 'session.logout' },
  { type: 'session.unauthorized' },
  { type: 'xstate.done.actor.revoke', output: undefined },
  { type: 'xstate.error.actor.revoke', error: new Error('offline') },
] as unknown as SessionEvent[];

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void; input: unknown };

/** A live session actor whose effects are fakes the test resolves by hand. */
function harness() {
  const pending = new Map<string, Pending>();
  const effects = {
    persistedTokens: [] as (SessionTokens | null)[],
    persistedTenancy: [] as (string | null)[],
    cleared: 0,
    redirects: [] as (string | null)[],
  };
  const deferred = fromPromise<unknown, unknown>(
    ({ input, self }) =>
      new Promise((resolve, reject) => {
        pending.set(self.id, { resolve, reject, input });
      }),
  );
  const clock = new ManualClock();
  const machine = sessionMachine.provide({
    // One deferred fake stands in for every promise actor; the cast only widens its output type.
    actors: {
      restoreSession: deferred as never,
      refreshAccess: deferred as never,
      loadUser: deferred as never,
      login: deferred as never,
      revoke: deferred as never,
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
    delays: { accountRefreshDelay: 1_000, tenantRefreshDelay: 2_000 },
  });
  const actor = createActor(machine, { input: { urlTenancyId: null }, clock });
  actor.start();
  return { actor, pending, effects, clock };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function settle(pending: Map<string, Pending>, id: string, how: 'resolve' | 'reject', value: unknown) {
  const p = pending.get(id);
  if (!p) throw new Error(`no pending ${id} actor`);
  pending.delete(id);
  if (how === 'resolve') p.resolve(value);
  else p.reject(value);
  await flush();
}

type Node = {
  id?: string;
  invoke?: { id: string; onDone?: unknown; onError?: unknown } | undefined;
  after?: Record<string, unknown>;
  on?: Record<string, unknown>;
  states?: Record<string, Node>;
};

/**
 * createTestModel refuses invocations and delays, so the model is the same chart with each invoke's
 * onDone/onError and each delayed transition rewritten as the event the live actor receives.
 */
function asTestableChart(node: Node, path: string[]): Node {
  const { invoke, after, states, ...rest } = node;
  const on: Record<string, unknown> = { ...(node.on ?? {}) };
  if (invoke) {
    if (invoke.onDone) on[`xstate.done.actor.${invoke.id}`] = invoke.onDone;
    if (invoke.onError) on[`xstate.error.actor.${invoke.id}`] = invoke.onError;
  }
  for (const [delay, target] of Object.entries(after ?? {}))
    on[`xstate.after.${delay}.${path.join('.')}`] = target;
  const children = states
    ? Object.fromEntries(Object.entries(states).map(([k, v]) => [k, asTestableChart(v, [...path, k])]))
    : undefined;
  return { ...rest, on, ...(children ? { states: children } : {}) };
}

const chart = createMachine(
  asTestableChart(sessionMachine.config as unknown as Node, ['session']) as typeof sessionMachine.config,
).provide(sessionMachine.implementations as never);
const model = createTestModel(chart, {
  events,
  // A state is its value plus its context: which event led there does not matter.
  serializeState: (state) => JSON.stringify([state.value, state.context]),
});

// Shortest paths to every distinct (state, context) the events above reach; a change here is a change of the chart.
const EXPECTED_PATHS = 68;

describe('session machine model', () => {
  const paths = model.getShortestPaths({ limit: 2_000 });

  it('has the expected number of shortest paths', () => {
    expect(paths.length).toBe(EXPECTED_PATHS);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, pending, effects, clock } = harness();
      const delays: Record<string, number> = { accountRefreshDelay: 1_000, tenantRefreshDelay: 2_000 };
      await path.test({
        events: Object.fromEntries(
          events.map((e) => [
            e.type,
            async ({ event }: { event: Record<string, unknown> }) => {
              const type = String(event.type);
              const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
              const failed = /^xstate\.error\.actor\.(.+)$/.exec(type);
              const after = /^xstate\.after\.(\w+)\./.exec(type);
              if (done) await settle(pending, done[1]!, 'resolve', event.output);
              else if (failed) await settle(pending, failed[1]!, 'reject', event.error);
              else if (after) {
                clock.fire(delays[after[1]!]!);
                await flush();
              } else actor.send(event as unknown as SessionEvent);
            },
          ]),
        ),
        states: {
          '*': (state) => {
            const live = actor.getSnapshot();
            expect(live.value).toEqual(state.value);
            expect(live.context.selectedTenancyId).toBe(state.context.selectedTenancyId);
            expect(live.context.loginError).toBe(state.context.loginError);
            expect(live.context.tokens).toEqual(state.context.tokens);
            if (state.matches('loggedOut')) {
              expect(live.context.tokens).toBeNull();
              expect(effects.cleared).toBeGreaterThan(0);
            }
          },
        },
      });
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
    await settle(h.pending, 'restoreSession', 'resolve', restored(restoredTokens));
    await settle(h.pending, 'loadUser', 'resolve', withTenancies);
    return h;
  }

  it('selects the stored tenancy after restoring, and persists it', async () => {
    const { actor, effects } = await loggedIn();
    expect(actor.getSnapshot().matches({ loggedIn: { tenancy: 'withTenancies' } })).toBe(true);
    expect(actor.getSnapshot().context.selectedTenancyId).toBe('9');
    expect(effects.persistedTenancy).toEqual(['9']);
  });

  it('refreshes an expired access token before loading the user, and stores the new pair', async () => {
    const { actor, pending, effects } = harness();
    await settle(pending, 'restoreSession', 'resolve', restored(accountExpired));
    expect(actor.getSnapshot().matches({ initialising: 'refreshingAccount' })).toBe(true);
    expect(pending.get('refreshAccount')?.input).toEqual({
      backend: 'account',
      refreshToken: 'account-refresh',
    });
    await settle(pending, 'refreshAccount', 'resolve', refreshed('account'));
    expect(actor.getSnapshot().matches({ initialising: 'loadingUser' })).toBe(true);
    expect(effects.persistedTokens.at(-1)?.account).toEqual(refreshed('account'));
  });

  it('logs out through revoke with the current tokens, clears storage and goes to login', async () => {
    const { actor, pending, effects } = await loggedIn();
    actor.send({ type: 'session.logout' });
    expect(pending.get('revoke')?.input).toEqual({ tokens: fullTokens });
    await settle(pending, 'revoke', 'resolve', undefined);
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(effects.redirects).toEqual(['user']);
  });

  it('a failed refresh in the session logs out with reason expired', async () => {
    const { actor, pending, effects, clock } = await loggedIn();
    clock.fire(1_000);
    await flush();
    await settle(pending, 'refreshAccount', 'reject', { code: 'TOKEN_REVOKED' });
    expect(actor.getSnapshot().matches('loggingOut')).toBe(true);
    await settle(pending, 'revoke', 'reject', new Error('offline'));
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(effects.redirects).toEqual(['expired']);
  });

  it('keeps the login error code and clears it on the next attempt', async () => {
    const { actor, pending } = harness();
    await settle(pending, 'restoreSession', 'resolve', restored(null));
    actor.send({ type: 'session.login', email: 'a@b.dk', password: 'wrong' });
    expect(actor.getSnapshot().matches('loggingIn')).toBe(true);
    await settle(pending, 'login', 'reject', authError);
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
