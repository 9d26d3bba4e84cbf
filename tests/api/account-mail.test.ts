/**
 * The flows that send mail, read from a real SMTP server in-process: password reset, email change,
 * invitations; the outbox when SMTP_URL is unset; account deletion.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverErrorCode } from '../../src/lib/errors.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  mailOutbox,
  oneTimeTokens,
  refreshTokens,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import {
  type AccountsFixture,
  NEW_PASSWORD,
  PASSWORD,
  seedAccountsFixture,
} from './helpers/accountsFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.ts';

let database: Database;
let api: TestApi;
let fx: AccountsFixture;
let smtp: TestSmtp;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAccountsFixture(database.db);
  smtp = await startTestSmtp();
  api = await createTestApi(database, {
    TRUST_PROXY: '1',
    SMTP_URL: smtp.url,
    APP_URL: 'https://app.example.test',
  });
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});

type Pair = { token: string; refreshToken: string };

async function newUser(email: string, language = 'en') {
  const [row] = await database.db.select().from(users).where(eq(users.id, fx.users.adminB.id));
  const [user] = await database.db
    .insert(users)
    .values({ email, passwordHash: row!.passwordHash, language })
    .returning();
  return user!;
}

async function login(email: string, password = PASSWORD) {
  const a = await call<{ tokenAuth: Pair }>(api.account, Q.tokenAuth, { email, password });
  const t = await call<{ loginWithEmailAndPassword: { ok: Pair } }>(api.tenant, Q.tenantLogin, {
    email,
    password,
  });
  expect(a.errors).toBeUndefined();
  return { account: a.data!.tokenAuth, tenant: t.data!.loginWithEmailAndPassword.ok };
}

const linkIn = (text: string) => /https:\/\/app\.example\.test\/\S+/.exec(text)?.[0] ?? '';

describe('password reset', () => {
  it("mails a single-use link in the user's language, with a plain-text and an HTML part", async () => {
    const user = await newUser('reset-me@test.test', 'nb');
    const session = await login(user.email);
    const r = await call(
      api.account,
      Q.requestReset,
      { email: ' Reset-Me@test.test ' },
      { ip: '192.0.2.10' },
    );
    expect(r.data).toEqual({ requestPasswordReset: { ok: true } });
    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Tilbakestill passordet ditt');
    expect(mail.text).toContain('60 minutter');
    expect(mail.html).toContain('<a href="https://app.example.test/reset-password?');
    const link = new URL(linkIn(mail.text));
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('email')).toBe(user.email);
    const token = link.searchParams.get('token')!;

    const wrongEmail = await call(api.account, Q.reset, {
      email: 'other@test.test',
      token,
      pw: NEW_PASSWORD,
    });
    expect(codeOf(wrongEmail)).toBe('PASSWORD_UPDATE_FAILED');
    const ok = await call(api.account, Q.reset, { email: user.email, token, pw: NEW_PASSWORD });
    expect(ok.data).toEqual({ passwordReset: { ok: true } });
    const again = await call(api.account, Q.reset, { email: user.email, token, pw: 'Another#Pass-99' });
    expect(codeOf(again)).toBe('PASSWORD_UPDATE_FAILED');
    expect(again.errors![0]!.message).toBe('Password update failed. Please try again.');
    expect(serverErrorCode(again.errors)).toBe('password_update_failed');

    // Every earlier session ends on both backends.
    expect(codeOf(await call(api.account, Q.accountRefresh, { t: session.account.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
    expect(codeOf(await call(api.tenant, Q.tenantRefresh, { t: session.tenant.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
    await login(user.email, NEW_PASSWORD);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = smtp.mails.length;
    const r = await call(
      api.account,
      Q.requestReset,
      { email: 'nobody-here@test.test' },
      { ip: '192.0.2.11' },
    );
    expect(r).toEqual({ data: { requestPasswordReset: { ok: true } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.length).toBe(before);
  });

  it('an expired link fails, and a new request spends the older link', async () => {
    const user = await newUser('slow-reader@test.test');
    await call(api.account, Q.requestReset, { email: user.email }, { ip: '192.0.2.12' });
    const first = new URL(linkIn((await smtp.waitFor((m) => m.to.includes(user.email))).text));
    await call(api.account, Q.requestReset, { email: user.email }, { ip: '192.0.2.12' });
    await smtp.waitFor((m) => m.to.includes(user.email) && linkIn(m.text) !== first.toString());
    const old = await call(api.account, Q.reset, {
      email: user.email,
      token: first.searchParams.get('token'),
      pw: NEW_PASSWORD,
    });
    expect(codeOf(old)).toBe('PASSWORD_UPDATE_FAILED');

    await database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.userId, user.id));
    const latest = smtp.mails.filter((m) => m.to.includes(user.email)).at(-1)!;
    const token = new URL(linkIn(latest.text)).searchParams.get('token');
    const expired = await call(api.account, Q.reset, { email: user.email, token, pw: NEW_PASSWORD });
    expect(codeOf(expired)).toBe('PASSWORD_UPDATE_FAILED');
    await login(user.email, PASSWORD);
  });

  it('is throttled per email (3 an hour), with the same answer whether or not the email exists', async () => {
    await newUser('often-forgets@test.test');
    for (const email of ['often-forgets@test.test', 'ghost@test.test']) {
      for (let i = 0; i < 3; i++) {
        const r = await call(api.account, Q.requestReset, { email }, { ip: `192.0.2.${20 + i}` });
        expect(r.errors).toBeUndefined();
      }
      const r = await call(api.account, Q.requestReset, { email }, { ip: '192.0.2.30' });
      expect(codeOf(r)).toBe('TOO_MANY_ATTEMPTS');
    }
  });

  it('refuses a weak new password before looking at the token', async () => {
    const r = await call(api.account, Q.reset, {
      email: 'reset-me@test.test',
      token: 'x'.repeat(43),
      pw: 'weakpassword',
    });
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
  });
});

describe('email change', () => {
  it('needs the password, confirms by mail to the new address, warns the old one, then ends every session', async () => {
    const user = await newUser('old-address@test.test', 'da');
    const session = await login(user.email);
    const wrong = await call(
      api.account,
      Q.requestEmailChange,
      { pw: 'Wrong#Pass-123', email: 'new-address@test.test' },
      { token: session.account.token },
    );
    expect(codeOf(wrong)).toBe('WRONG_PASSWORD');
    const taken = await call(
      api.account,
      Q.requestEmailChange,
      { pw: PASSWORD, email: fx.users.adminA.email },
      { token: session.account.token },
    );
    expect(codeOf(taken)).toBe('USER_EXISTS');

    const r = await call(
      api.account,
      Q.requestEmailChange,
      { pw: PASSWORD, email: 'New-Address@test.test' },
      { token: session.account.token },
    );
    expect(r.data).toEqual({ requestEmailChange: { ok: true } });
    const confirm = await smtp.waitFor((m) => m.to.includes('new-address@test.test'));
    expect(confirm.subject).toBe('Bekræft din nye e-mailadresse');
    const notice = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(notice.text).toContain('new-address@test.test');
    const link = new URL(linkIn(confirm.text));
    expect(link.pathname).toBe('/confirm-email');
    // Nothing changes before confirmation.
    await login(user.email);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const done = await call(api.account, Q.confirmEmailChange, { t: link.searchParams.get('token') });
    expect(done.data).toEqual({ confirmEmailChange: { ok: true } });
    expect(codeOf(await call(api.account, Q.accountMe, {}, { token: session.account.token }))).toBe(
      'TOKEN_EXPIRED',
    );
    expect(codeOf(await call(api.tenant, Q.tenantRefresh, { t: session.tenant.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
    expect(codeOf(await call(api.account, Q.tokenAuth, { email: user.email, password: PASSWORD }))).toBe(
      'INVALID_CREDENTIALS',
    );
    await login('new-address@test.test');
    const reused = await call(api.account, Q.confirmEmailChange, { t: link.searchParams.get('token') });
    expect(codeOf(reused)).toBe('PASSWORD_UPDATE_FAILED');
  });
});

describe('invitations', () => {
  it("mail the code link in the invitee's language, or the inviter's for a new address", async () => {
    const admin = await login(fx.users.adminA.email);
    const r = await call(
      api.account,
      Q.invite,
      { id: String(fx.tenancyA), email: 'Co-Tenant@test.test' },
      { token: admin.account.token },
    );
    expect(r.errors).toBeUndefined();
    const mail = await smtp.waitFor((m) => m.to.includes('co-tenant@test.test'));
    // Admin A writes in Danish; the invitee has no account yet.
    expect(mail.subject).toBe('Du er inviteret til Fjordvej 2, st. tv, 8000 Aarhus C');
    expect(mail.text).toContain('Admin A');
    const link = new URL(linkIn(mail.text));
    expect(link.pathname).toBe('/signup');
    const code = link.searchParams.get('activationCode')!;
    expect(code).toMatch(/^[A-Z]{12}$/);
    expect(mail.text).toContain(code);

    // The invitee signs up with the code and joins, not as admin.
    const signup = await call<{ createEmailPasswordUser: Pair }>(
      api.account,
      Q.signup,
      { email: 'co-tenant@test.test', password: NEW_PASSWORD },
      { ip: '192.0.2.40' },
    );
    const token = signup.data!.createEmailPasswordUser.token;
    expect((await call(api.account, Q.addTenancy, { code }, { token, ip: '192.0.2.40' })).data).toEqual({
      addTenancy: { ok: true },
    });
    const settings = await call<{
      tenancySettings: { members: Array<{ email: string; isAdmin: boolean }>; pendingInvitations: unknown[] };
    }>(api.account, Q.settings, { id: String(fx.tenancyA) }, { token });
    expect(settings.data!.tenancySettings.members).toContainEqual(
      expect.objectContaining({ email: 'co-tenant@test.test', isAdmin: false }),
    );
    expect(settings.data!.tenancySettings.pendingInvitations).toEqual([]);

    const existing = await call(
      api.account,
      Q.invite,
      { id: String(fx.tenancyA), email: fx.users.adminB.email },
      { token: admin.account.token },
    );
    expect(existing.errors).toBeUndefined();
    const toB = await smtp.waitFor((m) => m.to.includes(fx.users.adminB.email));
    expect(toB.subject).toBe('You are invited to Fjordvej 2, st. tv, 8000 Aarhus C');
  });
});

describe('without SMTP_URL', () => {
  it('mail goes to the mail_outbox table and the log', async () => {
    const offline = await createTestApi(database, { TRUST_PROXY: '1' });
    const r = await call(
      offline.account,
      Q.requestReset,
      { email: fx.users.tenantA.email },
      { ip: '192.0.2.50' },
    );
    expect(r.errors).toBeUndefined();
    let rows: Array<typeof mailOutbox.$inferSelect> = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, fx.users.tenantA.email));
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]!.subject).toBe('Tilbakestill passordet ditt');
    expect(rows[0]!.body).toContain('/reset-password?');
    expect(rows[0]!.html).toContain('<a href=');
    expect(offline.logs.some((l) => l.msg?.toString().startsWith('mail stored in mail_outbox'))).toBe(true);
  });
});

describe('deleteAccount', () => {
  it('needs the typed email and the password; then the user, their tokens and their mail are gone on both backends', async () => {
    const user = await newUser('leaving-for-good@test.test');
    await database.db
      .insert(tenancyMembers)
      .values({ tenancyId: fx.tenancyB, userId: user.id, isAdmin: false });
    const session = await login(user.email);
    const typo = await call(
      api.account,
      Q.deleteAccount,
      { pw: PASSWORD, c: 'leaving@test.test' },
      { token: session.account.token },
    );
    expect(codeOf(typo)).toBe('BAD_USER_INPUT');
    const wrong = await call(
      api.account,
      Q.deleteAccount,
      { pw: 'Wrong#Pass-123', c: user.email },
      { token: session.account.token },
    );
    expect(codeOf(wrong)).toBe('WRONG_PASSWORD');

    const r = await call(
      api.account,
      Q.deleteAccount,
      { pw: PASSWORD, c: ` ${user.email.toUpperCase()} ` },
      { token: session.account.token },
    );
    expect(r.data).toEqual({ deleteAccount: { ok: true } });
    expect(await database.db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id))).toEqual(
      [],
    );
    expect(await database.db.select().from(tenancyMembers).where(eq(tenancyMembers.userId, user.id))).toEqual(
      [],
    );
    expect(codeOf(await call(api.account, Q.accountMe, {}, { token: session.account.token }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(codeOf(await call(api.tenant, Q.tenantUnits, {}, { token: session.tenant.token }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(codeOf(await call(api.tenant, Q.tenantRefresh, { t: session.tenant.refreshToken }))).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('passes the admin flag on when the last admin of a shared tenancy deletes their account', async () => {
    const admin = await newUser('sole-admin@test.test');
    const other = await newUser('stays@test.test');
    await database.db.insert(tenancyMembers).values([
      { tenancyId: fx.tenancyC, userId: admin.id, isAdmin: true },
      { tenancyId: fx.tenancyC, userId: other.id, isAdmin: false },
    ]);
    const session = await login(admin.email);
    const r = await call(
      api.account,
      Q.deleteAccount,
      { pw: PASSWORD, c: admin.email },
      { token: session.account.token },
    );
    expect(r.errors).toBeUndefined();
    const [heir] = await database.db.select().from(tenancyMembers).where(eq(tenancyMembers.userId, other.id));
    expect(heir!.isAdmin).toBe(true);
  });
});
