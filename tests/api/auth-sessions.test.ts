/** Login throttling, logout on both backends, deactivated users, and password changes ending every session. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { refreshTokens, tenancies, tenancyMembers, users } from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import {
  type AccountsFixture,
  NEW_PASSWORD,
  PASSWORD,
  seedAccountsFixture,
} from './helpers/accountsFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: AccountsFixture;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAccountsFixture(database.db);
  api = await createTestApi(database, { TRUST_PROXY: '1' });
});
afterAll(async () => {
  await database?.close();
});

type Pair = { token: string; refreshToken: string };

async function bothLogins(email: string, password = PASSWORD, ip = '198.51.100.1') {
  const a = await call<{ tokenAuth: Pair }>(api.account, Q.tokenAuth, { email, password }, { ip });
  const t = await call<{ loginWithEmailAndPassword: { ok: Pair } }>(
    api.tenant,
    Q.tenantLogin,
    { email, password },
    { ip },
  );
  expect(a.errors).toBeUndefined();
  expect(t.errors).toBeUndefined();
  return { account: a.data!.tokenAuth, tenant: t.data!.loginWithEmailAndPassword.ok };
}

async function makeUser(email: string) {
  const [row] = await database.db.select().from(users).where(eq(users.id, fx.users.adminB.id));
  const [user] = await database.db
    .insert(users)
    .values({ email, passwordHash: row!.passwordHash })
    .returning();
  return user!;
}

/** Makes the user a member of tenancy A too; returns the tenancy's unit (apartment id). */
async function joinTenancyA(userId: number): Promise<string> {
  await database.db.insert(tenancyMembers).values({ tenancyId: fx.tenancyA, userId });
  const [tenancy] = await database.db.select().from(tenancies).where(eq(tenancies.id, fx.tenancyA));
  return String(tenancy!.apartmentId);
}

/**
 * The error codes of a result, each once. (When one of two aliased non-null fields fails, GraphQL may answer
 * before the other's error arrives.)
 */
function codesOf(r: { errors?: { extensions?: { code?: unknown } }[] }): unknown[] {
  return [...new Set((r.errors ?? []).map((e) => e.extensions?.code))];
}

/** tenantGraph alone, twice, and beside another field: the same answer each time. */
async function graphCodes(token: string, unit: string): Promise<unknown[][]> {
  return Promise.all(
    [Q.tenantGraph, Q.tenantGraphTwice, Q.tenantGraphAndMe].map(async (q) =>
      codesOf(await call(api.tenant, q, { unit }, { token })),
    ),
  );
}

describe('login throttling', () => {
  it('per account, across both backends: after 10 failures even the right password is refused', async () => {
    const user = await makeUser('guessed@test.test');
    for (let i = 0; i < 10; i++) {
      const yoga = i % 2 === 0 ? api.account : api.tenant;
      const query = i % 2 === 0 ? Q.tokenAuth : Q.tenantLogin;
      const r = await call(
        yoga,
        query,
        { email: user.email, password: `Wrong#guess${i}` },
        { ip: `203.0.113.${i}` },
      );
      expect(codeOf(r)).toBe('INVALID_CREDENTIALS');
    }
    for (const [yoga, query] of [
      [api.account, Q.tokenAuth],
      [api.tenant, Q.tenantLogin],
    ] as const) {
      const r = await call(yoga, query, { email: user.email, password: PASSWORD }, { ip: '203.0.113.99' });
      expect(codeOf(r)).toBe('TOO_MANY_ATTEMPTS');
      expect(r.errors![0]!.message).toBe('Too many attempts. Try again in 15 minutes.');
      expect((r.errors![0]!.extensions as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(
        800,
      );
    }
    // Other accounts are not affected.
    await bothLogins(fx.users.adminA.email);
  });

  it('logs failed logins with email and address, never the password', async () => {
    const secret = 'Never#Logged-77';
    await call(
      api.account,
      Q.tokenAuth,
      { email: fx.users.adminB.email, password: secret },
      { ip: '198.51.100.7' },
    );
    const line = api.logs.find((l) => l.msg === 'failed login' && l.clientAddress === '198.51.100.7');
    expect(line).toMatchObject({
      email: fx.users.adminB.email,
      reason: 'wrong password',
      backend: 'account',
    });
    expect(JSON.stringify(api.logs)).not.toContain(secret);
  });

  it('a successful login clears the account count', async () => {
    const user = await makeUser('forgetful@test.test');
    for (let i = 0; i < 9; i++)
      await call(api.account, Q.tokenAuth, { email: user.email, password: 'x' }, { ip: '198.51.100.8' });
    await bothLogins(user.email, PASSWORD, '198.51.100.8');
    for (let i = 0; i < 9; i++) {
      const r = await call(
        api.account,
        Q.tokenAuth,
        { email: user.email, password: 'x' },
        { ip: '198.51.100.8' },
      );
      expect(codeOf(r)).toBe('INVALID_CREDENTIALS');
    }
  });

  it('per client address: after 100 failures on any emails that address is refused, others are not', async () => {
    const ip = '198.51.100.66';
    for (let i = 0; i < 100; i++) {
      const r = await call(
        api.tenant,
        Q.tenantLogin,
        { email: `nobody${i}@test.test`, password: 'x' },
        { ip },
      );
      expect(codeOf(r)).toBe('INVALID_CREDENTIALS');
    }
    const refused = await call(
      api.account,
      Q.tokenAuth,
      { email: fx.users.adminA.email, password: PASSWORD },
      { ip },
    );
    expect(codeOf(refused)).toBe('TOO_MANY_ATTEMPTS');
    const elsewhere = await call(
      api.account,
      Q.tokenAuth,
      { email: fx.users.adminA.email, password: PASSWORD },
      { ip: '198.51.100.67' },
    );
    expect(elsewhere.errors).toBeUndefined();
  });
});

describe('logout', () => {
  it('revokes the refresh tokens of both backends', async () => {
    const s = await bothLogins(fx.users.tenantA.email);
    const a = await call(api.account, Q.accountRevoke, { t: s.account.refreshToken });
    const t = await call(api.tenant, Q.tenantRevoke, { t: s.tenant.refreshToken });
    expect(a.errors).toBeUndefined();
    expect(t.errors).toBeUndefined();
    expect(codeOf(await call(api.account, Q.accountRefresh, { t: s.account.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
    expect(codeOf(await call(api.tenant, Q.tenantRefresh, { t: s.tenant.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
  });
  it("a backend refuses the other backend's refresh token for revocation", async () => {
    const s = await bothLogins(fx.users.tenantA.email);
    expect(codeOf(await call(api.tenant, Q.tenantRevoke, { t: s.account.refreshToken }))).toBe('NOT_FOUND');
  });
});

describe('deactivated users', () => {
  it('are refused on every request of both backends, and cannot refresh', async () => {
    const user = await makeUser('soon-gone@test.test');
    const unit = await joinTenancyA(user.id);
    const s = await bothLogins(user.email);
    expect((await call(api.tenant, Q.tenantUnits, {}, { token: s.tenant.token })).errors).toBeUndefined();
    expect(await graphCodes(s.tenant.token, unit)).toEqual([[], [], []]);
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect(await graphCodes(s.tenant.token, unit)).toEqual([
      ['UNAUTHENTICATED'],
      ['UNAUTHENTICATED'],
      ['UNAUTHENTICATED'],
    ]);
    for (const [yoga, query, token] of [
      [api.account, Q.accountMe, s.account.token],
      [api.account, Q.tenancies, s.account.token],
      [api.account, Q.settings, s.account.token],
      [api.tenant, Q.tenantMe, s.tenant.token],
      [api.tenant, Q.tenantUnits, s.tenant.token],
    ] as const) {
      const r = await call(yoga, query, { id: String(fx.tenancyA) }, { token });
      expect(codeOf(r)).toBe('UNAUTHENTICATED');
    }
    expect(codeOf(await call(api.account, Q.accountRefresh, { t: s.account.refreshToken }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(codeOf(await call(api.tenant, Q.tenantRefresh, { t: s.tenant.refreshToken }))).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('a deleted user is refused too, by tenantGraph alone as by every other field', async () => {
    const user = await makeUser('deleted@test.test');
    const unit = await joinTenancyA(user.id);
    const s = await bothLogins(user.email);
    expect(await graphCodes(s.tenant.token, unit)).toEqual([[], [], []]);
    await database.db.delete(users).where(eq(users.id, user.id));
    expect(await graphCodes(s.tenant.token, unit)).toEqual([
      ['UNAUTHENTICATED'],
      ['UNAUTHENTICATED'],
      ['UNAUTHENTICATED'],
    ]);
  });
});

describe('changePassword', () => {
  it('needs the current password, and wrong answers count as failed logins', async () => {
    const user = await makeUser('changer@test.test');
    const s = await bothLogins(user.email);
    const r = await call(
      api.account,
      Q.changePassword,
      { cur: 'Wrong#Current1', pw: NEW_PASSWORD },
      { token: s.account.token },
    );
    expect(codeOf(r)).toBe('WRONG_PASSWORD');
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.tokensValidAfter).toBeNull();
  });

  it('refuses a password that breaks SPEC §5, changing nothing', async () => {
    const s = await bothLogins(fx.users.adminB.email);
    const r = await call(
      api.account,
      Q.changePassword,
      { cur: PASSWORD, pw: 'password' },
      { token: s.account.token },
    );
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    await bothLogins(fx.users.adminB.email);
  });

  it('refuses the current password as the new one (SAME_PASSWORD), ending no session', async () => {
    const user = await makeUser('samer@test.test');
    const s = await bothLogins(user.email);
    const r = await call(
      api.account,
      Q.changePassword,
      { cur: PASSWORD, pw: PASSWORD },
      { token: s.account.token },
    );
    expect(codeOf(r)).toBe('SAME_PASSWORD');
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.tokensValidAfter).toBeNull();
    expect((await call(api.account, Q.accountMe, {}, { token: s.account.token })).errors).toBeUndefined();
  });

  it('ends every session on both backends and starts a new one', async () => {
    const user = await makeUser('rotator@test.test');
    const unit = await joinTenancyA(user.id);
    const first = await bothLogins(user.email);
    const second = await bothLogins(user.email);
    // Tokens of the same second as the change stay valid; wait so the old ones are strictly older.
    await new Promise((r) => setTimeout(r, 1100));
    const r = await call<{ changePassword: Pair & { slt: string } }>(
      api.account,
      Q.changePassword,
      { cur: PASSWORD, pw: NEW_PASSWORD },
      { token: first.account.token },
    );
    expect(r.errors).toBeUndefined();
    for (const s of [first, second]) {
      expect(codeOf(await call(api.account, Q.accountMe, {}, { token: s.account.token }))).toBe(
        'TOKEN_EXPIRED',
      );
      expect(codeOf(await call(api.tenant, Q.tenantUnits, {}, { token: s.tenant.token }))).toBe(
        'TOKEN_EXPIRED',
      );
      expect(await graphCodes(s.tenant.token, unit)).toEqual([
        ['TOKEN_EXPIRED'],
        ['TOKEN_EXPIRED'],
        ['TOKEN_EXPIRED'],
      ]);
      expect(codeOf(await call(api.account, Q.accountRefresh, { t: s.account.refreshToken }))).toBe(
        'TOKEN_REVOKED',
      );
      expect(codeOf(await call(api.tenant, Q.tenantRefresh, { t: s.tenant.refreshToken }))).toBe(
        'TOKEN_REVOKED',
      );
    }
    const fresh = r.data!.changePassword;
    expect((await call(api.account, Q.accountMe, {}, { token: fresh.token })).errors).toBeUndefined();
    const tenant = await call<{ loginFromSlt: { ok: Pair } }>(api.tenant, Q.loginFromSlt, { t: fresh.slt });
    expect(
      (await call(api.tenant, Q.tenantUnits, {}, { token: tenant.data!.loginFromSlt.ok.token })).errors,
    ).toBeUndefined();
    expect(await graphCodes(tenant.data!.loginFromSlt.ok.token, unit)).toEqual([[], [], []]);
    const live = await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(live.filter((t) => t.revokedAt === null)).toHaveLength(2);
    expect(codeOf(await call(api.account, Q.tokenAuth, { email: user.email, password: PASSWORD }))).toBe(
      'INVALID_CREDENTIALS',
    );
    await bothLogins(user.email, NEW_PASSWORD);
  });
});

describe('updateProfile', () => {
  it('sets language and email notifications, and refuses an unknown language', async () => {
    const s = await bothLogins(fx.users.tenantA.email);
    const r = await call(
      api.account,
      Q.updateProfile,
      { language: 'da', n: false },
      { token: s.account.token },
    );
    expect(r.data).toEqual({ updateProfile: { language: 'da', emailNotifications: false } });
    const bad = await call(api.account, Q.updateProfile, { language: 'sv' }, { token: s.account.token });
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
    expect(codeOf(await call(api.account, Q.updateProfile, { language: 'en' }))).toBe('UNAUTHENTICATED');
  });
});
