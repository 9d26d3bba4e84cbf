/**
 * Guard boundaries of the session machine: for every guard, the last input that passes and the first that does
 * not, with the state and context written out by hand, so a guard moved by one fails here.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import type { BackendTokens, SessionTokens, Tenancy } from '../../src/machines/session.types.ts';
import { Deferreds, ManualClock } from './harness.ts';

const access = (name: string) => ({ token: `${name}-access`, expiresAt: Date.UTC(2030, 0, 1) });
const both = (name: string): BackendTokens => ({
  access: access(name),
  refreshToken: `${name}-refresh`,
  refreshExpiresAt: null,
});
const onlyRefresh = (name: string): BackendTokens => ({
  access: null,
  refreshToken: `${name}-refresh`,
  refreshExpiresAt: null,
});
const onlyAccess = (name: string): BackendTokens => ({
  access: access(name),
  refreshToken: null,
  refreshExpiresAt: null,
});
const nothing: BackendTokens = { access: null, refreshToken: null, refreshExpiresAt: null };

const tenancy = (id: string) => ({ id }) as Tenancy;
const user = { id: 'u1', email: 'tenant@demo.test' };

function session() {
  const deferreds = new Deferreds();
  const machine = sessionMachine.provide({
    actors: {
      restoreSession: deferreds.actor as never,
      refreshAccess: deferreds.actor as never,
      loadUser: deferreds.actor as never,
      login: deferreds.actor as never,
      revoke: deferreds.actor as never,
    },
    delays: { accountRefreshDelay: 1_000, tenantRefreshDelay: 2_000 },
  });
  const clock = new ManualClock();
  const actor = createActor(machine, { input: { urlTenancyId: null }, clock }).start();
  const restore = (tokens: SessionTokens | null) =>
    deferreds.resolve('restoreSession', { tokens, storedTenancyId: null });
  return { actor, deferreds, clock, restore, value: () => actor.getSnapshot().value };
}

describe('session guards while restoring', () => {
  it('isSessionMissing: nothing stored, or a backend with neither token, ends at the login', async () => {
    for (const tokens of [
      null,
      { account: nothing, tenant: both('tenant') },
      { account: both('account'), tenant: nothing },
    ]) {
      const { restore, value, actor, deferreds } = session();
      await restore(tokens);
      expect(value()).toBe('loggedOut');
      expect(actor.getSnapshot().context).toMatchObject({ tokens: null, user: null, tenancies: [] });
      expect(deferreds.has('loadUser')).toBe(false);
    }
  });

  it('isSessionMissing: an access token alone is enough to load the user', async () => {
    const { restore, value, deferreds } = session();
    const tokens = { account: onlyAccess('account'), tenant: onlyAccess('tenant') };
    await restore(tokens);
    expect(value()).toEqual({ initialising: 'loadingUser' });
    expect(deferreds.input('loadUser')).toEqual({ tokens });
  });

  it('accountNeedsRefresh: a refresh token without access refreshes the account first, then the tenant', async () => {
    const { restore, value, deferreds, actor } = session();
    await restore({ account: onlyRefresh('account'), tenant: onlyRefresh('tenant') });
    expect(value()).toEqual({ initialising: 'refreshingAccount' });
    expect(deferreds.input('refreshAccount')).toEqual({
      backend: 'account',
      refreshToken: 'account-refresh',
    });
    await deferreds.resolve('refreshAccount', both('account'));
    expect(value()).toEqual({ initialising: 'refreshingTenant' });
    expect(deferreds.input('refreshTenant')).toEqual({ backend: 'tenant', refreshToken: 'tenant-refresh' });
    await deferreds.resolve('refreshTenant', both('tenant'));
    expect(value()).toEqual({ initialising: 'loadingUser' });
    expect(actor.getSnapshot().context.tokens).toEqual({ account: both('account'), tenant: both('tenant') });
  });

  it('tenantNeedsRefresh: only the tenant lacks access, so only the tenant refreshes', async () => {
    const { restore, value, deferreds } = session();
    await restore({ account: both('account'), tenant: onlyRefresh('tenant') });
    expect(value()).toEqual({ initialising: 'refreshingTenant' });
    expect(deferreds.has('refreshAccount')).toBe(false);
  });
});

describe('session guards while logged in', () => {
  async function loggedIn(tenancies: Tenancy[]) {
    const s = session();
    await s.restore({ account: both('account'), tenant: both('tenant') });
    await s.deferreds.resolve('loadUser', { user, tenancies });
    return s;
  }

  it('hasTenancies: one tenancy is enough; none goes to noTenancies', async () => {
    const one = await loggedIn([tenancy('7')]);
    expect(one.value()).toEqual({
      loggedIn: {
        tenancy: 'withTenancies',
        accountToken: 'fresh',
        tenantToken: 'fresh',
        impersonation: 'none',
      },
    });
    expect(one.actor.getSnapshot().context.selectedTenancyId).toBe('7');

    const none = await loggedIn([]);
    expect(none.value()).toEqual({
      loggedIn: {
        tenancy: 'noTenancies',
        accountToken: 'fresh',
        tenantToken: 'fresh',
        impersonation: 'none',
      },
    });
    expect(none.actor.getSnapshot().context.selectedTenancyId).toBeNull();
  });

  it('isOwnTenancy: one of the user tenancies is selected, any other id is ignored', async () => {
    const { actor } = await loggedIn([tenancy('7'), tenancy('9')]);
    actor.send({ type: 'tenancy.select', tenancyId: '9' });
    expect(actor.getSnapshot().context.selectedTenancyId).toBe('9');
    actor.send({ type: 'tenancy.select', tenancyId: '8' });
    expect(actor.getSnapshot().context.selectedTenancyId).toBe('9');
  });

  it('isForBackend: an expired account token refreshes the account only, and the tenant likewise', async () => {
    const account = await loggedIn([tenancy('7')]);
    account.actor.send({ type: 'token.expired', backend: 'account' });
    expect(account.value()).toMatchObject({ loggedIn: { accountToken: 'refreshing', tenantToken: 'fresh' } });
    expect(account.deferreds.has('refreshTenant')).toBe(false);

    const tenant = await loggedIn([tenancy('7')]);
    tenant.actor.send({ type: 'token.expired', backend: 'tenant' });
    expect(tenant.value()).toMatchObject({ loggedIn: { accountToken: 'fresh', tenantToken: 'refreshing' } });
    expect(tenant.deferreds.has('refreshAccount')).toBe(false);
  });

  it('each token region refreshes on its own delay', async () => {
    const { clock, value } = await loggedIn([tenancy('7')]);
    clock.fire(2_000);
    expect(value()).toMatchObject({ loggedIn: { accountToken: 'fresh', tenantToken: 'refreshing' } });
    clock.fire(1_000);
    expect(value()).toMatchObject({ loggedIn: { accountToken: 'refreshing', tenantToken: 'refreshing' } });
  });
});
