/** Login, access tokens and refresh tokens on both backends, including the ways a token can be wrong. */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverErrorCode } from '../../src/lib/errors.ts';
import { generateSigningKey } from '../../src/server/auth/keys.ts';
import { AUDIENCE, ISSUER, signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { refreshTokens } from '../../src/server/db/schema.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, PASSWORD, seedFixture } from './helpers/fixtures.ts';

const TOKEN_AUTH = `mutation ($email: String!, $password: String!) {
  tokenAuth(email: $email, password: $password) { token refreshToken refreshExpiresIn payload } }`;
const ACCOUNT_REFRESH = `mutation ($t: String!) { refreshToken(refreshToken: $t) { token refreshToken refreshExpiresIn payload } }`;
const REVOKE = `mutation ($t: String!) { revokeToken(refreshToken: $t) { revoked } }`;
const ACCOUNT_ME = `query UserQuery { me { id email isActive isSuperuser isAdmin userType emailNotifications accountHasStatements language name } }`;
const TENANCIES = `{ allTenanciesForCurrentUser { id } }`;
const TENANT_LOGIN = `mutation ($email: String!, $password: String!, $target: String!) {
  loginWithEmailAndPassword(credentials: { email: $email, password: $password, targetResource: $target }) { ok { token refreshToken } } }`;
const TENANT_REFRESH = `mutation ($t: String!) { refreshToken(refreshToken: $t) { ok { token refreshToken } } }`;
const TENANT_ME = `query Me { me { id name email language permissions { name description } accounts { id } } }`;
const UNITS = `{ tenantUnits { unit { id } } }`;

let database: Database;
let api: TestApi;
let fx: Fixture;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
});
afterAll(async () => {
  await database?.close();
});

async function accountLogin(email = fx.users.alice.email) {
  const r = await gql<{ tokenAuth: { token: string; refreshToken: string } }>(api.account, TOKEN_AUTH, {
    email,
    password: PASSWORD,
  });
  expect(r.errors).toBeUndefined();
  return r.data!.tokenAuth;
}

async function tenantLogin(email = fx.users.alice.email) {
  const r = await gql<{ loginWithEmailAndPassword: { ok: { token: string; refreshToken: string } } }>(
    api.tenant,
    TENANT_LOGIN,
    { email, password: PASSWORD, target: 'tenant' },
  );
  expect(r.errors).toBeUndefined();
  return r.data!.loginWithEmailAndPassword.ok;
}

describe('login', () => {
  it('account tokenAuth returns tokens whose payload names the user and backend', async () => {
    const r = await gql<{
      tokenAuth: { token: string; refreshExpiresIn: number; payload: Record<string, unknown> };
    }>(api.account, TOKEN_AUTH, { email: ' ALICE@test.test ', password: PASSWORD });
    expect(r.errors).toBeUndefined();
    const { payload, refreshExpiresIn } = r.data!.tokenAuth;
    expect(payload).toMatchObject({
      sub: String(fx.users.alice.id),
      email: 'alice@test.test',
      iss: ISSUER.account,
      aud: AUDIENCE.account,
    });
    expect(payload.exp).toBe((payload.iat as number) + api.services.config.ACCESS_TOKEN_TTL);
    expect(refreshExpiresIn).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
    const me = await gql<{ me: Record<string, unknown> }>(
      api.account,
      ACCOUNT_ME,
      {},
      r.data!.tokenAuth.token,
    );
    expect(me.data!.me).toEqual({
      id: String(fx.users.alice.id),
      email: 'alice@test.test',
      name: 'Alice',
      language: 'da',
      isActive: true,
      isSuperuser: false,
      isAdmin: false,
      userType: 'email',
      emailNotifications: true,
      accountHasStatements: false,
    });
  });

  it('tenant loginWithEmailAndPassword returns a token the Me query accepts', async () => {
    const { token } = await tenantLogin();
    const me = await gql<{ me: Record<string, unknown> }>(api.tenant, TENANT_ME, {}, token);
    expect(me.errors).toBeUndefined();
    expect(me.data!.me).toEqual({
      id: String(fx.users.alice.id),
      name: 'Alice',
      email: 'alice@test.test',
      language: 'da',
      permissions: [{ name: 'view_consumption', description: 'May view consumption' }],
      accounts: [{ id: String(fx.accountId) }],
    });
  });

  it.each([
    ['a wrong password', 'alice@test.test', 'Wrong#Password2026'],
    ['an unknown email', 'nobody@test.test', PASSWORD],
    ['an inactive user', 'inactive@test.test', PASSWORD],
  ])('refuses %s with "Please enter valid credentials" on both backends', async (_case, email, password) => {
    const account = await gql(api.account, TOKEN_AUTH, { email, password });
    expect(account.data).toBeNull();
    expect(account.errors?.[0]).toMatchObject({
      message: 'Please enter valid credentials',
      extensions: { code: 'INVALID_CREDENTIALS' },
    });
    const tenant = await gql(api.tenant, TENANT_LOGIN, { email, password, target: 'tenant' });
    expect(tenant.data).toBeNull();
    expect(tenant.errors?.[0]).toMatchObject({
      message: 'Please enter valid credentials',
      extensions: { code: 'INVALID_CREDENTIALS' },
    });
  });

  it('refuses malformed input with BAD_USER_INPUT and issues no token', async () => {
    const before = await database.db.select().from(refreshTokens);
    const badEmail = await gql(api.account, TOKEN_AUTH, { email: 'not-an-email', password: PASSWORD });
    expect(errorCode(badEmail)).toBe('BAD_USER_INPUT');
    const hugePassword = await gql(api.account, TOKEN_AUTH, {
      email: 'alice@test.test',
      password: 'x'.repeat(5000),
    });
    expect(errorCode(hugePassword)).toBe('BAD_USER_INPUT');
    const wrongTarget = await gql(api.tenant, TENANT_LOGIN, {
      email: 'alice@test.test',
      password: PASSWORD,
      target: 'admin',
    });
    expect(errorCode(wrongTarget)).toBe('BAD_USER_INPUT');
    expect(await database.db.select().from(refreshTokens)).toHaveLength(before.length);
  });
});

describe('access tokens', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (userId: number, backend: 'account' | 'tenant') => ({
    sub: String(userId),
    iss: ISSUER[backend],
    aud: AUDIENCE[backend],
    iat: now(),
    exp: now() + 300,
  });

  it('no token: protected queries say "login required"; me is null', async () => {
    const units = await gql(api.tenant, UNITS);
    expect(units.errors?.[0]).toMatchObject({
      message: 'login required',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const tenancies = await gql(api.account, TENANCIES);
    expect(tenancies.errors?.[0]).toMatchObject({
      message: 'login required',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const me = await gql<{ me: unknown }>(api.account, ACCOUNT_ME);
    expect(me.errors).toBeUndefined();
    expect(me.data!.me).toBeNull();
  });

  it('refuses a token signed with another key (forged)', async () => {
    const forger = await generateSigningKey();
    const { token } = await signAccessToken('tenant', forger, fx.users.alice, 300);
    const r = await gql(api.tenant, UNITS, {}, token);
    expect(r.errors?.[0]).toMatchObject({
      message: 'login required',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(r.data).toBeNull();
    const me = await gql(api.tenant, TENANT_ME, {}, token);
    expect(errorCode(me)).toBe('UNAUTHENTICATED');
  });

  it('refuses an expired token with TOKEN_EXPIRED', async () => {
    const { token } = await signAccessToken(
      'tenant',
      api.services.keys.tenant,
      fx.users.alice,
      60,
      now() - 3600,
    );
    const r = await gql(api.tenant, UNITS, {}, token);
    expect(errorCode(r)).toBe('TOKEN_EXPIRED');
    expect(r.data).toBeNull();
    // The web app reads it as an expired session (refresh and retry), not as "login required" (log out).
    expect(serverErrorCode(r.errors)).toBe('session_expired');
  });

  it("refuses the other backend's token, both ways", async () => {
    const accountTokens = await accountLogin();
    const tenantTokens = await tenantLogin();
    expect(errorCode(await gql(api.tenant, UNITS, {}, accountTokens.token))).toBe('UNAUTHENTICATED');
    expect(errorCode(await gql(api.account, TENANCIES, {}, tenantTokens.token))).toBe('UNAUTHENTICATED');
    // Even signed with the right key, the other backend's issuer and audience are refused.
    const { token } = await signAccessToken('account', api.services.keys.tenant, fx.users.alice, 300);
    expect(errorCode(await gql(api.tenant, UNITS, {}, token))).toBe('UNAUTHENTICATED');
    // And refresh tokens do not cross over either.
    const crossed = await gql(api.tenant, TENANT_REFRESH, { t: accountTokens.refreshToken });
    expect(errorCode(crossed)).toBe('UNAUTHENTICATED');
  });

  it('refuses tokens without typ, with alg none, and with HS256', async () => {
    const key = api.services.keys.tenant;
    const noTyp = await new SignJWT(claims(fx.users.alice.id, 'tenant'))
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(key.privateKey);
    const wrongTyp = await new SignJWT(claims(fx.users.alice.id, 'tenant'))
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .sign(key.privateKey);
    const none = new UnsecuredJWT(claims(fx.users.alice.id, 'tenant')).encode();
    const hs256 = await new SignJWT(claims(fx.users.alice.id, 'tenant'))
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .sign(new TextEncoder().encode('a-shared-secret-someone-guessed-0123456789'));
    for (const token of [noTyp, wrongTyp, none, hs256, 'garbage', `${noTyp}x`]) {
      const r = await gql(api.tenant, UNITS, {}, token);
      expect(errorCode(r), token).toBe('UNAUTHENTICATED');
      expect(r.data).toBeNull();
    }
  });
});

describe('refresh tokens', () => {
  const hash = (t: string) => createHash('sha256').update(t).digest('base64url');

  it('are stored only as hashes', async () => {
    const { refreshToken } = await accountLogin();
    const rows = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hash(refreshToken)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.backend).toBe('account');
    const all = await database.db.select().from(refreshTokens);
    expect(all.some((r) => r.tokenHash === refreshToken)).toBe(false);
  });

  it('rotate on every use; reusing a spent one revokes the whole family', async () => {
    const first = await tenantLogin(fx.users.bob.email);
    const second = await gql<{ refreshToken: { ok: { token: string; refreshToken: string } } }>(
      api.tenant,
      TENANT_REFRESH,
      {
        t: first.refreshToken,
      },
    );
    expect(second.errors).toBeUndefined();
    const rotated = second.data!.refreshToken.ok;
    expect(rotated.refreshToken).not.toBe(first.refreshToken);
    expect((await gql(api.tenant, UNITS, {}, rotated.token)).errors).toBeUndefined();

    const reuse = await gql(api.tenant, TENANT_REFRESH, { t: first.refreshToken });
    expect(errorCode(reuse)).toBe('TOKEN_REVOKED');
    expect(reuse.data).toBeNull();
    // The newest token of the family stops working too.
    const newest = await gql(api.tenant, TENANT_REFRESH, { t: rotated.refreshToken });
    expect(errorCode(newest)).toBe('TOKEN_REVOKED');
    // Another session of the same user (another family) is untouched.
    const other = await tenantLogin(fx.users.bob.email);
    expect((await gql(api.tenant, TENANT_REFRESH, { t: other.refreshToken })).errors).toBeUndefined();
  });

  it('account refresh returns a new access token and rotated refresh token', async () => {
    const first = await accountLogin();
    const r = await gql<{ refreshToken: { token: string; refreshToken: string; payload: { sub: string } } }>(
      api.account,
      ACCOUNT_REFRESH,
      { t: first.refreshToken },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.refreshToken.payload.sub).toBe(String(fx.users.alice.id));
    expect((await gql(api.account, TENANCIES, {}, r.data!.refreshToken.token)).errors).toBeUndefined();
    expect(errorCode(await gql(api.account, ACCOUNT_REFRESH, { t: first.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
  });

  it('an expired refresh token gives TOKEN_EXPIRED; an unknown one UNAUTHENTICATED', async () => {
    const { refreshToken } = await accountLogin();
    await database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, hash(refreshToken)));
    expect(errorCode(await gql(api.account, ACCOUNT_REFRESH, { t: refreshToken }))).toBe('TOKEN_EXPIRED');
    const unknown = await gql(api.account, ACCOUNT_REFRESH, { t: 'A'.repeat(43) });
    expect(errorCode(unknown)).toBe('UNAUTHENTICATED');
  });

  it('revokeToken revokes the family: the token can no longer refresh', async () => {
    const first = await accountLogin();
    const rotated = await gql<{ refreshToken: { refreshToken: string } }>(api.account, ACCOUNT_REFRESH, {
      t: first.refreshToken,
    });
    const latest = rotated.data!.refreshToken.refreshToken;
    const r = await gql<{ revokeToken: { revoked: number } }>(api.account, REVOKE, { t: latest });
    expect(r.errors).toBeUndefined();
    expect(Math.abs(r.data!.revokeToken.revoked - Date.now() / 1000)).toBeLessThan(60);
    expect(errorCode(await gql(api.account, ACCOUNT_REFRESH, { t: latest }))).toBe('TOKEN_REVOKED');
    expect(errorCode(await gql(api.account, REVOKE, { t: 'B'.repeat(43) }))).toBe('NOT_FOUND');
  });
});

describe('request ids', () => {
  it('every response carries x-request-id, and a plain caller-given id is kept', async () => {
    const r = await gql(api.tenant, UNITS);
    expect(r.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await api.tenant.fetch('http://yoga/api/tenant/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'abc-123' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
  });
});
