/** Signup, activation codes and the SPEC §8 signup rows, on the account backend (and slt on the tenant one). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverErrorCode } from '../../src/lib/errors.ts';
import type { Database } from '../../src/server/db/client.ts';
import { activationCodes, tenancyMembers, users } from '../../src/server/db/schema.ts';
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

type Signup = {
  createEmailPasswordUser: {
    token: string;
    refreshToken: string;
    slt: string;
    user: { id: string; email: string; language: string };
  };
};

describe('validateActivationCode', () => {
  it('accepts a fresh code, with dashes and lower case, and answers ok with empty text', async () => {
    const r = await call(api.account, Q.validate, { code: 'aaaa-aaaa-aaaa' }, { ip: '10.0.0.1' });
    expect(r.data).toEqual({ validateActivationCode: { ok: true, text: '' } });
  });
  it.each([
    ['unknown', 'ZZZZZZZZZZZZ', 'The activation code you entered is invalid.'],
    ['expired', 'EXPIREDCODEX', 'The activation code you entered is invalid.'],
    ['malformed', 'ABC123', 'The activation code you entered is invalid.'],
    ['used', 'USEDCODEUSED', 'A user already exists on the tenancy'],
  ])('refuses a %s code with the reason as text', async (_label, code, text) => {
    const r = await call(api.account, Q.validate, { code }, { ip: '10.0.0.2' });
    expect(r.data).toEqual({ validateActivationCode: { ok: false, text } });
  });
  it('is throttled per client address: the 31st check within 15 minutes is refused', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await call(api.account, Q.validate, { code: 'ZZZZZZZZZZZZ' }, { ip: '10.0.0.3' });
      expect(r.errors).toBeUndefined();
    }
    const r = await call(api.account, Q.validate, { code: 'AAAAAAAAAAAA' }, { ip: '10.0.0.3' });
    expect(codeOf(r)).toBe('TOO_MANY_ATTEMPTS');
    expect(r.errors![0]!.message).toMatch(/^Too many attempts\. Try again in \d+ minutes\.$/);
    expect(serverErrorCode(r.errors)).toBe('too_many_attempts');
    // Another address is not affected.
    const other = await call(api.account, Q.validate, { code: 'AAAAAAAAAAAA' }, { ip: '10.0.0.4' });
    expect(other.data).toEqual({ validateActivationCode: { ok: true, text: '' } });
  });
});

describe('createEmailPasswordUser', () => {
  it('creates the user with a session on both backends, then addTenancy joins the tenancy as its first admin', async () => {
    const r = await call<Signup>(
      api.account,
      Q.signup,
      { email: ' New.Tenant@Test.test ', password: NEW_PASSWORD, language: 'nb' },
      { ip: '10.0.1.1' },
    );
    expect(r.errors).toBeUndefined();
    const { token, slt, user } = r.data!.createEmailPasswordUser;
    expect(user).toMatchObject({ email: 'new.tenant@test.test', language: 'nb' });
    const [row] = await database.db.select().from(users).where(eq(users.email, 'new.tenant@test.test'));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);

    const tenant = await call<{ loginFromSlt: { ok: { token: string } | null } }>(
      api.tenant,
      Q.loginFromSlt,
      { t: slt },
    );
    expect(tenant.data!.loginFromSlt.ok?.token).toBeTruthy();
    const again = await call<{ loginFromSlt: { ok: unknown } }>(api.tenant, Q.loginFromSlt, { t: slt });
    expect(again.data!.loginFromSlt.ok).toBeNull();

    const added = await call(
      api.account,
      Q.addTenancy,
      { code: 'cccc-cccc-cccc' },
      { token, ip: '10.0.1.1' },
    );
    expect(added.data).toEqual({ addTenancy: { ok: true } });
    const list = await call<{ allTenanciesForCurrentUser: Array<{ id: string; isAdmin: boolean }> }>(
      api.account,
      Q.tenancies,
      {},
      { token },
    );
    expect(list.data!.allTenanciesForCurrentUser).toEqual([{ id: String(fx.tenancyC), isAdmin: true }]);
    const [code] = await database.db
      .select()
      .from(activationCodes)
      .where(eq(activationCodes.code, fx.codes.c));
    expect(code!.usedByUserId).toBe(Number(user.id));
    // The code is spent: the next one to try gets SPEC §8's toast text.
    const second = await call(api.account, Q.validate, { code: fx.codes.c }, { ip: '10.0.1.2' });
    expect(second.data).toEqual({
      validateActivationCode: { ok: false, text: 'A user already exists on the tenancy' },
    });
  });

  it('signs an existing user in when the password is right (a code for another tenancy)', async () => {
    const r = await call<Signup>(
      api.account,
      Q.signup,
      { email: fx.users.adminB.email, password: PASSWORD },
      { ip: '10.0.1.3' },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.createEmailPasswordUser.user.id).toBe(String(fx.users.adminB.id));
  });

  it('SPEC §8: an existing email with a wrong password', async () => {
    const r = await call(
      api.account,
      Q.signup,
      { email: fx.users.adminB.email, password: NEW_PASSWORD },
      { ip: '10.0.1.4' },
    );
    expect(codeOf(r)).toBe('USER_EXISTS');
    expect(r.errors![0]!.message).toBe(
      'A user already exists with that email, but the password is not correct.',
    );
    expect(serverErrorCode(r.errors)).toBe('user_exists');
  });

  it('SPEC §8: an admin-portal email', async () => {
    const r = await call(
      api.account,
      Q.signup,
      { email: fx.users.portal.email, password: PASSWORD },
      { ip: '10.0.1.5' },
    );
    expect(codeOf(r)).toBe('EMAIL_IN_ADMIN_PORTAL');
    expect(serverErrorCode(r.errors)).toBe('email_in_admin_portal');
  });

  it('SPEC §8: a user with above-default rights cannot add a tenancy by code', async () => {
    await database.db.update(users).set({ isSuperuser: true }).where(eq(users.id, fx.users.adminB.id));
    try {
      const login = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
        email: fx.users.adminB.email,
        password: PASSWORD,
      });
      const r = await call(
        api.account,
        Q.addTenancy,
        { code: fx.codes.a },
        { token: login.data!.tokenAuth.token, ip: '10.0.1.6' },
      );
      expect(codeOf(r)).toBe('ABOVE_DEFAULT_RIGHTS');
      expect(r.errors![0]!.message).toBe('User already exists and has above default rights.');
      expect(serverErrorCode(r.errors)).toBe('above_default_rights');
    } finally {
      await database.db.update(users).set({ isSuperuser: false }).where(eq(users.id, fx.users.adminB.id));
    }
  });

  it('SPEC §8: a used code, and a code for a tenancy the user is already on', async () => {
    const login = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
      email: fx.users.tenantA.email,
      password: PASSWORD,
    });
    const token = login.data!.tokenAuth.token;
    for (const code of [fx.codes.used, fx.codes.a]) {
      const r = await call(api.account, Q.addTenancy, { code }, { token, ip: '10.0.1.7' });
      expect(codeOf(r)).toBe('TENANCY_USER_EXISTS');
      expect(r.errors![0]!.message).toBe('A user already exists on the tenancy');
    }
    const invalid = await call(
      api.account,
      Q.addTenancy,
      { code: fx.codes.expired },
      { token, ip: '10.0.1.7' },
    );
    expect(codeOf(invalid)).toBe('ACTIVATION_CODE_INVALID');
    expect(serverErrorCode(invalid.errors)).toBe('activation_code_invalid');
    const members = await database.db
      .select()
      .from(tenancyMembers)
      .where(eq(tenancyMembers.userId, fx.users.tenantA.id));
    expect(members).toHaveLength(1);
  });

  it('addTenancy needs a signed-in user', async () => {
    const r = await call(api.account, Q.addTenancy, { code: fx.codes.a });
    expect(codeOf(r)).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['short', 'Short#1a', 'password_too_short'],
    ['no capital', 'lowercase#only1', 'password_no_capital'],
    ['no digit', 'NoDigitsHere#x', 'password_no_digit'],
    ['no special', 'NoSpecial12345', 'password_no_special'],
    ['common', 'Password123!', 'password_too_common'],
  ])('refuses a %s password on the server and creates nothing', async (_label, password, reason) => {
    const email = `weak-${reason}@test.test`;
    const r = await call(api.account, Q.signup, { email, password }, { ip: '10.0.1.8' });
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect((r.errors![0]!.extensions as { passwordErrors?: string[] }).passwordErrors).toContain(reason);
    expect(await database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('refuses an invalid email with SPEC §5 text', async () => {
    const r = await call(
      api.account,
      Q.signup,
      { email: 'not-an-email', password: NEW_PASSWORD },
      { ip: '10.0.1.9' },
    );
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toBe('The entered email-address is invalid');
  });

  it('is throttled per client address: the 11th signup within an hour is refused', async () => {
    for (let i = 0; i < 10; i++) {
      const r = await call(
        api.account,
        Q.signup,
        { email: `bulk${i}@test.test`, password: 'weak' },
        { ip: '10.0.2.1' },
      );
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
    }
    const r = await call(
      api.account,
      Q.signup,
      { email: 'bulk-last@test.test', password: NEW_PASSWORD },
      { ip: '10.0.2.1' },
    );
    expect(codeOf(r)).toBe('TOO_MANY_ATTEMPTS');
    expect(await database.db.select().from(users).where(eq(users.email, 'bulk-last@test.test'))).toEqual([]);
  });
});
