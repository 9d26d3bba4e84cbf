/**
 * The operator console's identities and login: email + password with the tenant login's throttles, then TOTP
 * (set up on first login, each code once) or a single-use recovery code; tokens of its own issuer and audience;
 * refresh and logout; SPEC §8's email rule both ways; the append-only audit log. The CLI's `operator create`:
 * admin-operator-cli.test.ts.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { auditLog, operatorTotp, users } from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { PASSWORD } from './helpers/accountsFixture.ts';
import { A, operatorLogin, totpCode } from './helpers/adminApi.ts';
import { type AdminFixture, setUpAdminApi } from './helpers/adminFixture.ts';
import type { TestApi } from './helpers/api.ts';

let database: Database;
let api: TestApi;
let fx: AdminFixture;
const secrets = new Map<string, string>();

beforeAll(async () => {
  ({ database, fx, api } = await setUpAdminApi());
  // Generous: on a loaded machine, migrating and hashing the fixture's passwords can take minutes.
}, 600_000);
afterAll(async () => {
  await database?.close();
});

type Login = {
  operatorLogin: { next: string; challenge: string; otpauthUri: string; qrSvg: string; secret: string };
};
type Second = {
  operatorSecondFactor: { token: string; refreshToken: string; recoveryCodes: string[] | null };
};

describe('first login sets up TOTP', () => {
  it('asks for setup, refuses a wrong code, accepts the right one once and hands out ten recovery codes', async () => {
    const email = fx.ops.manager2.email;
    const login = await call<Login>(
      api.admin,
      A.login,
      { email, password: PASSWORD },
      { ip: '198.51.100.20' },
    );
    const step = login.data!.operatorLogin;
    expect(step.next).toBe('TOTP_SETUP_REQUIRED');
    expect(step.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(step.qrSvg).toMatch(/^<svg/);
    const wrongCode = totpCode(step.secret) === '000000' ? '111111' : '000000';
    const wrong = await call<Second>(
      api.admin,
      A.second,
      { c: step.challenge, code: wrongCode },
      { ip: '198.51.100.20' },
    );
    expect(codeOf(wrong)).toBe('SECOND_FACTOR_INVALID');
    const code = totpCode(step.secret);
    const ok = await call<Second>(api.admin, A.second, { c: step.challenge, code }, { ip: '198.51.100.20' });
    expect(ok.errors).toBeUndefined();
    const session = ok.data!.operatorSecondFactor;
    expect(session.recoveryCodes).toHaveLength(10);
    expect(new Set(session.recoveryCodes).size).toBe(10);
    // The challenge is spent.
    const again = await call<Second>(
      api.admin,
      A.second,
      { c: step.challenge, code },
      { ip: '198.51.100.20' },
    );
    expect(codeOf(again)).toBe('CHALLENGE_EXPIRED');
    const me = await call<{ operatorMe: { email: string; role: string; secondFactorEnabled: boolean } }>(
      api.admin,
      A.me,
      {},
      { token: session.token },
    );
    expect(me.data!.operatorMe).toMatchObject({ email, role: 'PROPERTY_MANAGER', secondFactorEnabled: true });

    // The next login asks for a code; the same code (same time step) is refused the second time.
    const next = await call<Login>(
      api.admin,
      A.login,
      { email, password: PASSWORD },
      { ip: '198.51.100.20' },
    );
    expect(next.data!.operatorLogin).toMatchObject({ next: 'TOTP_REQUIRED', otpauthUri: null, secret: null });
    const replay = await call<Second>(
      api.admin,
      A.second,
      { c: next.data!.operatorLogin.challenge, code },
      { ip: '198.51.100.20' },
    );
    expect(codeOf(replay)).toBe('SECOND_FACTOR_INVALID');

    // A recovery code works once.
    const recovery = session.recoveryCodes![0]!;
    const byRecovery = await call<Second>(
      api.admin,
      A.second,
      { c: next.data!.operatorLogin.challenge, code: recovery.toUpperCase() },
      { ip: '198.51.100.20' },
    );
    expect(byRecovery.errors).toBeUndefined();
    expect(byRecovery.data!.operatorSecondFactor.recoveryCodes).toBeNull();
    const third = await call<Login>(
      api.admin,
      A.login,
      { email, password: PASSWORD },
      { ip: '198.51.100.20' },
    );
    const reused = await call<Second>(
      api.admin,
      A.second,
      { c: third.data!.operatorLogin.challenge, code: recovery },
      { ip: '198.51.100.20' },
    );
    expect(codeOf(reused)).toBe('SECOND_FACTOR_INVALID');
    const actions = (
      await database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.subjectId, String(fx.ops.manager2.id)))
    ).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['operator.second_factor_set_up', 'operator.recovery_code_used']),
    );
  });

  it('a login that never confirms keeps the factor off: the next login sets up a new secret', async () => {
    const email = fx.ops.admin2.email;
    const first = await call<Login>(
      api.admin,
      A.login,
      { email, password: PASSWORD },
      { ip: '198.51.100.21' },
    );
    const second = await call<Login>(
      api.admin,
      A.login,
      { email, password: PASSWORD },
      { ip: '198.51.100.21' },
    );
    expect(second.data!.operatorLogin.next).toBe('TOTP_SETUP_REQUIRED');
    expect(second.data!.operatorLogin.secret).not.toBe(first.data!.operatorLogin.secret);
    // The first login's challenge was replaced by the second's.
    const stale = await call<Second>(
      api.admin,
      A.second,
      { c: first.data!.operatorLogin.challenge, code: totpCode(second.data!.operatorLogin.secret) },
      { ip: '198.51.100.21' },
    );
    expect(codeOf(stale)).toBe('CHALLENGE_EXPIRED');
  });
});

describe('password step', () => {
  it('a wrong password and a tenant’s right password both get INVALID_CREDENTIALS', async () => {
    const wrong = await call(
      api.admin,
      A.login,
      { email: fx.ops.admin1.email, password: 'Wrong-password-1' },
      { ip: '198.51.100.30' },
    );
    expect(codeOf(wrong)).toBe('INVALID_CREDENTIALS');
    const tenant = await call(
      api.admin,
      A.login,
      { email: fx.tenant.email, password: PASSWORD },
      { ip: '198.51.100.30' },
    );
    expect(codeOf(tenant)).toBe('INVALID_CREDENTIALS');
  });

  it('wrong second-factor codes count as failed logins: after ten, even the right code is refused', async () => {
    const email = fx.ops.manager1.email;
    await operatorLogin(api.admin, database.db, email, PASSWORD, secrets, '198.51.100.40');
    const login = await call<Login>(
      api.admin,
      A.login,
      { email, password: PASSWORD },
      { ip: '198.51.100.40' },
    );
    const challenge = login.data!.operatorLogin.challenge;
    const right = totpCode(secrets.get(email)!);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 10; i++) {
      const r = await call(api.admin, A.second, { c: challenge, code: wrong }, { ip: '198.51.100.40' });
      expect(codeOf(r)).toBe('SECOND_FACTOR_INVALID');
    }
    await database.db
      .update(operatorTotp)
      .set({ lastStep: null })
      .where(eq(operatorTotp.userId, fx.ops.manager1.id));
    const blocked = await call(api.admin, A.second, { c: challenge, code: right }, { ip: '198.51.100.40' });
    expect(codeOf(blocked)).toBe('TOO_MANY_ATTEMPTS');
    // The tenant app's login of the same email is blocked too (one count per email, both apps).
    const pw = await call(api.admin, A.login, { email, password: PASSWORD }, { ip: '198.51.100.41' });
    expect(codeOf(pw)).toBe('TOO_MANY_ATTEMPTS');
    await database.db.execute(sql`DELETE FROM rate_limits`);
  });
});

describe('tokens, refresh and logout', () => {
  it('the admin backend refuses tenant tokens, and the tenant app refuses operator tokens', async () => {
    const tenant = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
      email: fx.tenant.email,
      password: PASSWORD,
    });
    const tenantToken = tenant.data!.tokenAuth.token;
    expect(codeOf(await call(api.admin, A.me, {}, { token: tenantToken }))).toBe('UNAUTHENTICATED');
    const op = await operatorLogin(api.admin, database.db, fx.ops.admin1.email, PASSWORD, secrets);
    expect(codeOf(await call(api.account, Q.accountMe, {}, { token: op.token }))).toBe('UNAUTHENTICATED');
    expect(codeOf(await call(api.tenant, Q.tenantMe, {}, { token: op.token }))).toBe('UNAUTHENTICATED');
    // An admin refresh token is not a tenant one either.
    expect(codeOf(await call(api.account, Q.accountRefresh, { t: op.refreshToken }))).toBeDefined();
  });

  it('refresh rotates, logout revokes the family', async () => {
    const op = await operatorLogin(api.admin, database.db, fx.ops.admin1.email, PASSWORD, secrets);
    const refreshed = await call<{ refreshToken: { token: string; refreshToken: string } }>(
      api.admin,
      A.refresh,
      {
        t: op.refreshToken,
      },
    );
    expect(refreshed.errors).toBeUndefined();
    const me = await call(api.admin, A.me, {}, { token: refreshed.data!.refreshToken.token });
    expect(me.errors).toBeUndefined();
    const out = await call(api.admin, A.revoke, { t: refreshed.data!.refreshToken.refreshToken });
    expect(out.errors).toBeUndefined();
    const after = await call(api.admin, A.refresh, { t: refreshed.data!.refreshToken.refreshToken });
    expect(codeOf(after)).toBeDefined();
  });
});

describe('SPEC §8 email rule, both ways', () => {
  it('an operator cannot sign up or log in to the tenant app', async () => {
    const signup = await call(api.account, Q.signup, {
      email: fx.ops.admin1.email,
      password: 'Fjord-Lantern-42',
    });
    expect(codeOf(signup)).toBe('EMAIL_IN_ADMIN_PORTAL');
    const login = await call(api.account, Q.tokenAuth, { email: fx.ops.admin1.email, password: PASSWORD });
    expect(codeOf(login)).toBe('ABOVE_DEFAULT_RIGHTS');
  });

  it('a tenant app email cannot become an operator; an operator email not twice', async () => {
    const op = await operatorLogin(api.admin, database.db, fx.ops.admin1.email, PASSWORD, secrets);
    const tenant = await call(
      api.admin,
      A.create,
      { i: { email: fx.tenant.email, role: 'ORG_ADMIN' } },
      { token: op.token },
    );
    expect(codeOf(tenant)).toBe('EMAIL_IN_TENANT_APP');
    const twice = await call(
      api.admin,
      A.create,
      { i: { email: fx.ops.admin2.email, role: 'ORG_ADMIN' } },
      { token: op.token },
    );
    expect(codeOf(twice)).toBe('OPERATOR_EXISTS');
    const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(users);
    // Four operators and one tenant, as seeded.
    expect(count!.n).toBe(5);
  });
});

describe('deactivation', () => {
  it('a deactivated operator’s token is refused on the next call, and the last organisation admin stays', async () => {
    const admin = await operatorLogin(api.admin, database.db, fx.ops.admin1.email, PASSWORD, secrets);
    const created = await call<{ createOperator: { operator: { id: string }; initialPassword: string } }>(
      api.admin,
      A.create,
      {
        i: { email: 'temp@org1.test', name: 'Temp', role: 'PROPERTY_MANAGER', propertyIds: [String(fx.p1)] },
      },
      { token: admin.token },
    );
    expect(created.errors).toBeUndefined();
    const temp = await operatorLogin(
      api.admin,
      database.db,
      'temp@org1.test',
      created.data!.createOperator.initialPassword,
      secrets,
    );
    expect((await call(api.admin, A.me, {}, { token: temp.token })).errors).toBeUndefined();
    const off = await call(
      api.admin,
      A.deactivate,
      { u: created.data!.createOperator.operator.id },
      { token: admin.token },
    );
    expect(off.errors).toBeUndefined();
    expect(codeOf(await call(api.admin, A.me, {}, { token: temp.token }))).toBe('UNAUTHENTICATED');
    const self = await call(api.admin, A.deactivate, { u: String(fx.ops.admin1.id) }, { token: admin.token });
    expect(codeOf(self)).toBe('LAST_ORG_ADMIN');
  });
});

describe('the audit log is append-only', () => {
  it('UPDATE, DELETE and TRUNCATE are refused by the database', async () => {
    const before = await database.db.select().from(auditLog);
    expect(before.length).toBeGreaterThan(0);
    await expect(database.db.execute(sql`UPDATE audit_log SET actor = 'x'`)).rejects.toThrow();
    await expect(database.db.execute(sql`DELETE FROM audit_log`)).rejects.toThrow();
    await expect(database.db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
    expect(await database.db.select().from(auditLog)).toEqual(before);
  });
});
