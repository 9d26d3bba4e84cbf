/**
 * Social login against a local JWKS server with keys made here (nothing about the provider is faked in
 * the code under test: it fetches the keys over HTTP and verifies), and impersonation links.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueImpersonationLink } from '../../src/server/account/impersonation.ts';
import type { Database } from '../../src/server/db/client.ts';
import { impersonations, refreshTokens, users } from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { type AccountsFixture, seedAccountsFixture } from './helpers/accountsFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: AccountsFixture;
let jwksServer: Server;
let providerKey: CryptoKey;
let otherKey: CryptoKey;
const ISSUER = 'https://accounts.google.test';
const CLIENT_ID = 'our-client-id.apps.test';

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAccountsFixture(database.db);
  const pair = await generateKeyPair('RS256', { extractable: true });
  providerKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  api = await createTestApi(database, {
    TRUST_PROXY: '1',
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_ISSUER: ISSUER,
    GOOGLE_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
  });
});
afterAll(async () => {
  jwksServer?.close();
  await database?.close();
});

async function idToken(claims: Record<string, unknown>, opts: { key?: CryptoKey; exp?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: 'social.person@test.test', email_verified: true, nonce: 'n-123', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer((claims.iss as string) ?? ISSUER)
    .setAudience((claims.aud as string) ?? CLIENT_ID)
    .setSubject('google-sub-1')
    .setIssuedAt(now - 10)
    .setExpirationTime(opts.exp ?? now + 300)
    .sign(opts.key ?? providerKey);
}

type Social = {
  socialAuth: { token: string; slt: string; social: { provider: string; user: { email: string } } };
};

describe('socialAuth', () => {
  it('lists only configured providers', async () => {
    expect((await call(api.account, Q.socialProviders)).data).toEqual({ socialProviders: ['google'] });
  });

  it('signs up with a verified ID token and hands a session to the tenant backend', async () => {
    const r = await call<Social>(api.account, Q.socialAuth, {
      t: await idToken({}),
      p: 'google',
      n: 'n-123',
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!.socialAuth.social).toEqual({
      provider: 'google',
      user: { email: 'social.person@test.test' },
    });
    const [user] = await database.db.select().from(users).where(eq(users.email, 'social.person@test.test'));
    expect(user).toMatchObject({ userType: 'google', passwordHash: null });
    const tenant = await call<{ loginFromSlt: { ok: { token: string } } }>(api.tenant, Q.loginFromSlt, {
      t: r.data!.socialAuth.slt,
    });
    expect(tenant.data!.loginFromSlt.ok.token).toBeTruthy();
    // The second time the same user signs in.
    const again = await call<Social>(api.account, Q.socialAuth, {
      t: await idToken({}),
      p: 'google',
      n: 'n-123',
    });
    expect(again.errors).toBeUndefined();
    expect(
      await database.db.select().from(users).where(eq(users.email, 'social.person@test.test')),
    ).toHaveLength(1);
  });

  it.each([
    ['a wrong audience', { aud: 'someone-elses-client' }, {}, 'n-123'],
    ['a wrong issuer', { iss: 'https://evil.test' }, {}, 'n-123'],
    ['an expired token', {}, { exp: Math.floor(Date.now() / 1000) - 120 }, 'n-123'],
    ['another key', {}, { key: 'other' }, 'n-123'],
    ['a wrong nonce', {}, {}, 'n-999'],
    ['no nonce', {}, {}, null],
    ['an unverified email', { email_verified: false }, {}, 'n-123'],
  ] as const)('refuses %s', async (_label, claims, opts, nonce) => {
    const token = await idToken(claims, {
      ...('exp' in opts ? { exp: opts.exp } : {}),
      ...('key' in opts ? { key: otherKey } : {}),
    });
    const r = await call(api.account, Q.socialAuth, { t: token, p: 'google', n: nonce });
    expect(codeOf(r)).toBe('SOCIAL_LOGIN_FAILED');
  });

  it('refuses a provider that is not configured, and a made-up one', async () => {
    for (const p of ['apple', 'myspace']) {
      const r = await call(api.account, Q.socialAuth, { t: await idToken({}), p, n: 'n-123' });
      expect(codeOf(r)).toBe('SOCIAL_LOGIN_FAILED');
    }
  });

  it('refuses a user with above-default rights (SPEC §6)', async () => {
    const r = await call(api.account, Q.socialAuth, {
      t: await idToken({ email: fx.users.portal.email }),
      p: 'google',
      n: 'n-123',
    });
    expect(codeOf(r)).toBe('ABOVE_DEFAULT_RIGHTS');
  });
});

describe('impersonation', () => {
  type Imp = {
    impersonate: { token: string; refreshToken: string; expiresAt: number; email: string; slt: string };
  };

  it('a one-time link gives a 60-minute session on both backends, recorded with who, whom and when', async () => {
    const issued = await issueImpersonationLink(
      database.db,
      'https://app.example.test',
      fx.users.tenantA.email,
      'support-kim',
      'ticket 42',
    );
    const url = new URL(issued.link);
    expect(url.pathname).toMatch(/^\/impersonate\/[\w-]{43}$/);
    expect(issued.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const token = url.pathname.split('/').at(-1)!;

    const started = Date.now();
    const r = await call<Imp>(api.account, Q.impersonate, { t: token });
    expect(r.errors).toBeUndefined();
    const session = r.data!.impersonate;
    expect(session.email).toBe(fx.users.tenantA.email);
    expect(session.expiresAt * 1000).toBeGreaterThanOrEqual(started + 60 * 60_000 - 2000);
    expect(session.expiresAt * 1000).toBeLessThanOrEqual(Date.now() + 60 * 60_000);

    const [audit] = await database.db
      .select()
      .from(impersonations)
      .where(eq(impersonations.userId, fx.users.tenantA.id));
    expect(audit).toMatchObject({
      operator: 'support-kim',
      userEmail: fx.users.tenantA.email,
      reason: 'ticket 42',
    });
    expect(audit!.usedAt).toBeInstanceOf(Date);

    const tenant = await call<{ loginFromSlt: { ok: { token: string; refreshToken: string } } }>(
      api.tenant,
      Q.loginFromSlt,
      { t: session.slt },
    );
    expect(tenant.data!.loginFromSlt.ok).toBeTruthy();
    // Both families end with the session, and rotation does not extend them.
    const families = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, fx.users.tenantA.id));
    expect(families).toHaveLength(2);
    for (const f of families)
      expect(f.expiresAt.getTime()).toBeLessThanOrEqual(session.expiresAt * 1000 + 1000);
    const rotated = await call<{ refreshToken: { refreshToken: string } }>(api.account, Q.accountRefresh, {
      t: session.refreshToken,
    });
    expect(rotated.errors).toBeUndefined();
    const rows = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, fx.users.tenantA.id));
    for (const f of rows) expect(f.expiresAt.getTime()).toBeLessThanOrEqual(session.expiresAt * 1000 + 1000);

    // The link works once.
    expect(codeOf(await call(api.account, Q.impersonate, { t: token }))).toBe('UNAUTHENTICATED');
  });

  it('after the 60 minutes the session cannot be refreshed on either backend', async () => {
    const issued = await issueImpersonationLink(
      database.db,
      'https://app.example.test',
      fx.users.adminB.email,
      'support-kim',
    );
    const r = await call<Imp>(api.account, Q.impersonate, { t: issued.link.split('/').at(-1) });
    const tenant = await call<{ loginFromSlt: { ok: { refreshToken: string } } }>(
      api.tenant,
      Q.loginFromSlt,
      { t: r.data!.impersonate.slt },
    );
    // Move the session's end into the past, as 60 minutes passing would.
    await database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000), sessionEndsAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, fx.users.adminB.id));
    expect(codeOf(await call(api.account, Q.accountRefresh, { t: r.data!.impersonate.refreshToken }))).toBe(
      'TOKEN_EXPIRED',
    );
    expect(
      codeOf(await call(api.tenant, Q.tenantRefresh, { t: tenant.data!.loginFromSlt.ok.refreshToken })),
    ).toBe('TOKEN_EXPIRED');
  });

  it('refuses unknown users, deactivated users and users with above-default rights', async () => {
    await expect(
      issueImpersonationLink(database.db, 'https://x.test', 'nobody@test.test', 'op'),
    ).rejects.toThrow('No user');
    await expect(
      issueImpersonationLink(database.db, 'https://x.test', fx.users.inactive.email, 'op'),
    ).rejects.toThrow('deactivated');
    await expect(
      issueImpersonationLink(database.db, 'https://x.test', fx.users.portal.email, 'op'),
    ).rejects.toThrow('above default rights');
    expect(
      codeOf(await call(api.account, Q.impersonate, { t: 'not-a-real-token-at-all-xxxxxxxxxxxxx' })),
    ).toBe('UNAUTHENTICATED');
  });
});
