/** Tenancy info and tenancy admin: settings, invitations, admin flag, removal, leaving, and the role matrix. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { invitations, tenancyMembers, users } from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { type AccountsFixture, PASSWORD, seedAccountsFixture } from './helpers/accountsFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: AccountsFixture;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAccountsFixture(database.db);
  // No SMTP_URL: invitation mail goes to the outbox.
  api = await createTestApi(database, { TRUST_PROXY: '1' });
  for (const who of ['adminA', 'tenantA', 'adminB'] as const) {
    const r = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
      email: fx.users[who].email,
      password: PASSWORD,
    });
    tokens[who] = r.data!.tokenAuth.token;
  }
});
afterAll(async () => {
  await database?.close();
});

type Settings = {
  tenancySettings: {
    isAdmin: boolean;
    members: Array<{ userId: string; email: string; isAdmin: boolean; isMe: boolean }>;
    pendingInvitations: Array<{ id: string; email: string }>;
  };
};

async function addMember(email: string, tenancyId: number, isAdmin = false) {
  const [row] = await database.db.select().from(users).where(eq(users.id, fx.users.adminB.id));
  const [user] = await database.db
    .insert(users)
    .values({ email, passwordHash: row!.passwordHash })
    .returning();
  await database.db.insert(tenancyMembers).values({ tenancyId, userId: user!.id, isAdmin });
  const r = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
    email,
    password: PASSWORD,
  });
  return { id: user!.id, token: r.data!.tokenAuth.token };
}

describe('tenancySettings', () => {
  it('shows a member the address, dates, contact, users with admin flag and pending invitations', async () => {
    const r = await call<Settings>(
      api.account,
      Q.settings,
      { id: String(fx.tenancyA) },
      { token: tokens.tenantA },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.tenancySettings).toEqual({
      id: String(fx.tenancyA),
      tenancyId: 'T-A',
      address: 'Fjordvej 2, st. tv',
      zipcode: '8000',
      city: 'Aarhus C',
      apartment: 'st. tv',
      start: '2025-01-01',
      end: null,
      propertyName: 'Solgården',
      contact: { phone: '+45 70 10 20 30', email: 'udlejning@example.test' },
      isAdmin: false,
      members: [
        { userId: String(fx.users.adminA.id), email: fx.users.adminA.email, isAdmin: true, isMe: false },
        { userId: String(fx.users.tenantA.id), email: fx.users.tenantA.email, isAdmin: false, isMe: true },
      ],
      pendingInvitations: [],
    });
  });
  it('refuses another tenancy, an unknown id and a malformed id alike', async () => {
    for (const id of [String(fx.tenancyB), '999999', 'abc']) {
      const r = await call(api.account, Q.settings, { id }, { token: tokens.tenantA });
      expect(codeOf(r)).toBe('FORBIDDEN');
      expect(r.errors![0]!.message).toBe('Adgang ikke tilladt');
    }
  });
});

describe('admin operations', () => {
  it('invite, list as pending, resend, and refuse a second invitation or a member', async () => {
    const r = await call<{ inviteToTenancy: { id: string; email: string } }>(
      api.account,
      Q.invite,
      { id: String(fx.tenancyA), email: 'flatmate@test.test' },
      { token: tokens.adminA },
    );
    expect(r.errors).toBeUndefined();
    const invitationId = r.data!.inviteToTenancy.id;
    const s = await call<Settings>(
      api.account,
      Q.settings,
      { id: String(fx.tenancyA) },
      { token: tokens.adminA },
    );
    expect(s.data!.tenancySettings.pendingInvitations).toEqual([
      { id: invitationId, email: 'flatmate@test.test' },
    ]);
    const twice = await call(
      api.account,
      Q.invite,
      { id: String(fx.tenancyA), email: 'FLATMATE@test.test' },
      { token: tokens.adminA },
    );
    expect(codeOf(twice)).toBe('TENANCY_USER_EXISTS');
    const member = await call(
      api.account,
      Q.invite,
      { id: String(fx.tenancyA), email: fx.users.tenantA.email },
      { token: tokens.adminA },
    );
    expect(codeOf(member)).toBe('TENANCY_USER_EXISTS');
    const bad = await call(
      api.account,
      Q.invite,
      { id: String(fx.tenancyA), email: 'nope' },
      { token: tokens.adminA },
    );
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');

    const resent = await call<{ resendInvitation: { id: string } }>(
      api.account,
      Q.resend,
      { id: invitationId },
      { token: tokens.adminA },
    );
    expect(resent.data!.resendInvitation.id).toBe(invitationId);
    const rows = await database.db
      .select()
      .from(invitations)
      .where(eq(invitations.email, 'flatmate@test.test'));
    expect(rows).toHaveLength(1);
  });

  it('make admin, drop the flag, and keep the last admin', async () => {
    const last = await call(
      api.account,
      Q.setAdmin,
      { id: String(fx.tenancyA), u: String(fx.users.adminA.id), a: false },
      { token: tokens.adminA },
    );
    expect(codeOf(last)).toBe('LAST_ADMIN');
    const up = await call(
      api.account,
      Q.setAdmin,
      { id: String(fx.tenancyA), u: String(fx.users.tenantA.id), a: true },
      { token: tokens.adminA },
    );
    expect(up.data).toEqual({
      setTenancyAdmin: { userId: String(fx.users.tenantA.id), isAdmin: true, isMe: false },
    });
    // Now there are two admins, so adminA may drop their own flag; tenantA then cannot.
    const down = await call(
      api.account,
      Q.setAdmin,
      { id: String(fx.tenancyA), u: String(fx.users.adminA.id), a: false },
      { token: tokens.adminA },
    );
    expect(down.errors).toBeUndefined();
    const stuck = await call(
      api.account,
      Q.setAdmin,
      { id: String(fx.tenancyA), u: String(fx.users.tenantA.id), a: false },
      { token: tokens.tenantA },
    );
    expect(codeOf(stuck)).toBe('LAST_ADMIN');
    // Restore.
    await call(
      api.account,
      Q.setAdmin,
      { id: String(fx.tenancyA), u: String(fx.users.adminA.id), a: true },
      { token: tokens.tenantA },
    );
    await call(
      api.account,
      Q.setAdmin,
      { id: String(fx.tenancyA), u: String(fx.users.tenantA.id), a: false },
      { token: tokens.adminA },
    );
  });

  it('remove a user; the last admin cannot remove themselves; a non-member id is refused', async () => {
    const extra = await addMember('removable@test.test', fx.tenancyA);
    const r = await call(
      api.account,
      Q.remove,
      { id: String(fx.tenancyA), u: String(extra.id) },
      { token: tokens.adminA },
    );
    expect(r.data).toEqual({ removeTenancyUser: { ok: true } });
    expect(
      codeOf(await call(api.account, Q.settings, { id: String(fx.tenancyA) }, { token: extra.token })),
    ).toBe('FORBIDDEN');
    const self = await call(
      api.account,
      Q.remove,
      { id: String(fx.tenancyA), u: String(fx.users.adminA.id) },
      { token: tokens.adminA },
    );
    expect(codeOf(self)).toBe('LAST_ADMIN');
    const stranger = await call(
      api.account,
      Q.remove,
      { id: String(fx.tenancyA), u: String(fx.users.adminB.id) },
      { token: tokens.adminA },
    );
    expect(codeOf(stranger)).toBe('FORBIDDEN');
  });

  describe('role matrix: a tenant, an admin of another tenancy and an anonymous caller are refused', () => {
    const tenancy = () => String(fx.tenancyA);
    const ops: Array<[string, string, () => Record<string, unknown>]> = [
      ['inviteToTenancy', Q.invite, () => ({ id: tenancy(), email: 'intruder@test.test' })],
      ['setTenancyAdmin', Q.setAdmin, () => ({ id: tenancy(), u: String(fx.users.tenantA.id), a: true })],
      ['removeTenancyUser', Q.remove, () => ({ id: tenancy(), u: String(fx.users.adminA.id) })],
    ];
    for (const [name, query, vars] of ops) {
      it(`${name}`, async () => {
        const before = await database.db
          .select()
          .from(tenancyMembers)
          .where(eq(tenancyMembers.tenancyId, fx.tenancyA));
        expect(codeOf(await call(api.account, query, vars(), { token: tokens.tenantA }))).toBe('FORBIDDEN');
        expect(codeOf(await call(api.account, query, vars(), { token: tokens.adminB }))).toBe('FORBIDDEN');
        expect(codeOf(await call(api.account, query, vars()))).toBe('UNAUTHENTICATED');
        const after = await database.db
          .select()
          .from(tenancyMembers)
          .where(eq(tenancyMembers.tenancyId, fx.tenancyA));
        expect(after).toEqual(before);
      });
    }
    it('resendInvitation', async () => {
      const [pending] = await database.db
        .select()
        .from(invitations)
        .where(eq(invitations.tenancyId, fx.tenancyA));
      const vars = { id: String(pending!.id) };
      expect(codeOf(await call(api.account, Q.resend, vars, { token: tokens.tenantA }))).toBe('FORBIDDEN');
      expect(codeOf(await call(api.account, Q.resend, vars, { token: tokens.adminB }))).toBe('FORBIDDEN');
      expect(codeOf(await call(api.account, Q.resend, vars))).toBe('UNAUTHENTICATED');
      const [after] = await database.db.select().from(invitations).where(eq(invitations.id, pending!.id));
      expect(after!.lastSentAt).toEqual(pending!.lastSentAt);
    });
    it('tenancySettings (members only)', async () => {
      expect(codeOf(await call(api.account, Q.settings, { id: tenancy() }, { token: tokens.adminB }))).toBe(
        'FORBIDDEN',
      );
      expect(codeOf(await call(api.account, Q.settings, { id: tenancy() }))).toBe('UNAUTHENTICATED');
    });
    it('no invitation was created by the refused calls', async () => {
      const rows = await database.db
        .select()
        .from(invitations)
        .where(and(eq(invitations.tenancyId, fx.tenancyA), eq(invitations.email, 'intruder@test.test')));
      expect(rows).toEqual([]);
    });
  });
});

describe('leaveTenancy', () => {
  it('a member leaves; the last admin of a shared tenancy cannot; a sole member can', async () => {
    const leaver = await addMember('short-stay@test.test', fx.tenancyA);
    expect(
      (await call(api.account, Q.leave, { id: String(fx.tenancyA) }, { token: leaver.token })).data,
    ).toEqual({
      leaveTenancy: { ok: true },
    });
    expect(
      codeOf(await call(api.account, Q.leave, { id: String(fx.tenancyA) }, { token: leaver.token })),
    ).toBe('FORBIDDEN');
    const blocked = await call(api.account, Q.leave, { id: String(fx.tenancyA) }, { token: tokens.adminA });
    expect(codeOf(blocked)).toBe('LAST_ADMIN');
    const alone = await call(api.account, Q.leave, { id: String(fx.tenancyB) }, { token: tokens.adminB });
    expect(alone.data).toEqual({ leaveTenancy: { ok: true } });
  });
});
