/**
 * The end of an impersonation session (SPEC §4, §9: it logs out by itself after 60 minutes), as the session
 * machine's delayed transition, on XState's simulated clock. The deadline is the end the server set when the
 * impersonation started, so a reload keeps it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import {
  IMPERSONATION_SESSION_MS,
  type Impersonation,
  type LogoutReason,
  msUntilImpersonationEnds,
  type RestoredSession,
  type SessionTokens,
  type Tenancy,
} from '../../src/machines/session.types.ts';
import { flush } from './harness.ts';

const STARTED = Date.UTC(2026, 0, 15, 12, 0, 0);
const MINUTE = 60_000;
const impersonation: Impersonation = { email: 'multi@demo.test', endsAt: STARTED + 60 * MINUTE };

// Access tokens that outlive the impersonation, so no refresh happens during these tests.
const backend = (name: string) => ({
  access: { token: `${name}-access`, expiresAt: STARTED + 3 * 60 * MINUTE },
  refreshToken: `${name}-refresh`,
  refreshExpiresAt: null,
});
const tokens: SessionTokens = { account: backend('account'), tenant: backend('tenant') };
const loaded = { user: { id: 'u1' }, tenancies: [{ id: '7' } as Tenancy] };

/** A session restored at `now` from a tab holding `held`; its timers run on a simulated clock. */
async function restoredAt(now: number, held: Impersonation | null) {
  vi.useFakeTimers({ toFake: ['Date'], now });
  const clock = new SimulatedClock();
  const revoked: unknown[] = [];
  const redirects: Array<LogoutReason | null> = [];
  let cleared = 0;
  const machine = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise<RestoredSession>(async () => ({
        tokens,
        storedTenancyId: null,
        impersonation: held,
      })),
      loadUser: fromPromise(async () => loaded) as never,
      revoke: fromPromise(async ({ input }) => {
        revoked.push(input.tokens);
      }),
    },
    actions: {
      clearStorage: () => {
        cleared += 1;
      },
      redirectAfterLogout: (_, params) => {
        redirects.push(params.reason);
      },
    },
  });
  const actor = createActor(machine, { input: {}, clock }).start();
  await flush();
  await flush();
  return { actor, clock, revoked, redirects, cleared: () => cleared };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('impersonation deadline', () => {
  it('an impersonation session is still in a millisecond before its hour is up', async () => {
    const { actor, clock, redirects } = await restoredAt(STARTED, impersonation);
    expect(actor.getSnapshot().value).toEqual({
      loggedIn: {
        tenancy: 'withTenancies',
        accountToken: 'fresh',
        tenantToken: 'fresh',
        impersonation: 'running',
      },
    });
    expect(actor.getSnapshot().context.impersonation).toEqual(impersonation);
    clock.increment(60 * MINUTE - 1);
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
    expect(redirects).toEqual([]);
  });

  it('at the hour it logs out: tokens revoked, storage cleared, sent to login saying the session ended', async () => {
    const { actor, clock, revoked, redirects, cleared } = await restoredAt(STARTED, impersonation);
    clock.increment(60 * MINUTE);
    expect(actor.getSnapshot().value).toBe('loggingOut');
    expect(actor.getSnapshot().context.logoutReason).toBe('impersonationEnded');
    await flush();
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(revoked).toEqual([tokens]);
    expect(cleared()).toBe(1);
    expect(redirects).toEqual(['impersonationEnded']);
    expect(actor.getSnapshot().context).toMatchObject({ tokens: null, user: null, impersonation: null });
  });

  it('a reload 25 minutes in keeps the deadline: 35 minutes later, not 60', async () => {
    const { actor, clock } = await restoredAt(STARTED + 25 * MINUTE, impersonation);
    clock.increment(35 * MINUTE - 1);
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().context.logoutReason).toBe('impersonationEnded');
  });

  it('a tab restored after the deadline logs out at once', async () => {
    const { actor, clock } = await restoredAt(STARTED + 61 * MINUTE, impersonation);
    clock.increment(0);
    expect(actor.getSnapshot().matches('loggedIn')).toBe(false);
    expect(actor.getSnapshot().context.logoutReason).toBe('impersonationEnded');
  });

  it('an ordinary session has no deadline', async () => {
    const { actor, clock } = await restoredAt(STARTED, null);
    expect(actor.getSnapshot().matches({ loggedIn: { impersonation: 'none' } })).toBe(true);
    clock.increment(2 * 60 * MINUTE);
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
    expect(actor.getSnapshot().context.logoutReason).toBeNull();
  });

  it('a user ending the session early logs out as a user logout', async () => {
    const { actor, redirects } = await restoredAt(STARTED, impersonation);
    actor.send({ type: 'session.logout' });
    await flush();
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(redirects).toEqual(['user']);
  });
});

describe('msUntilImpersonationEnds', () => {
  it('counts down to the end, never below 0 nor above one session', () => {
    expect(msUntilImpersonationEnds(impersonation, STARTED)).toBe(60 * MINUTE);
    expect(msUntilImpersonationEnds(impersonation, STARTED + 60 * MINUTE - 1)).toBe(1);
    expect(msUntilImpersonationEnds(impersonation, STARTED + 60 * MINUTE)).toBe(0);
    expect(msUntilImpersonationEnds(impersonation, STARTED + 90 * MINUTE)).toBe(0);
    // An end further off than a whole session (a wrong clock, a tampered tab) is held to 60 minutes.
    expect(msUntilImpersonationEnds(impersonation, STARTED - 30 * MINUTE)).toBe(IMPERSONATION_SESSION_MS);
    expect(msUntilImpersonationEnds(null, STARTED)).toBe(0);
  });
});
