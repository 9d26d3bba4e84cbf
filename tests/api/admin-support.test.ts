/**
 * The console's Support page (issue 21): find a tenant, impersonate with a reason, deactivate and reactivate.
 * Role matrix × {organisation admin, manager of the tenant's property (P1), manager of P2, another organisation's
 * admin, tenant, anonymous}; a refused call records nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/password.ts';
import {
  apartments,
  auditLog,
  impersonations,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { PASSWORD } from './helpers/accountsFixture.ts';
import { type AdminMatrix, setUpAdminMatrix, UNAUTH } from './helpers/adminMatrix.ts';

const S = {
  search: `query ($q: String!) { supportSearch(query: $q) { id email isActive canImpersonate tenancies { reference propertyNumber apartment address start end } } }`,
  impersonate: `mutation ($u: ID!, $r: String!) { startImpersonation(userId: $u, reason: $r) { link expiresAt minutes } }`,
  setActive: `mutation ($u: ID!, $a: Boolean!, $r: String!) { setTenantActive(userId: $u, active: $a, reason: $r) { id isActive canImpersonate } }`,
} as const;

let m: AdminMatrix;
const count = async (table: typeof auditLog | typeof impersonations) =>
  (await m.database.db.select().from(table)).length;

beforeAll(async () => {
  m = await setUpAdminMatrix();
});
afterAll(async () => {
  await m?.database.close();
});

describe('finding a tenant', () => {
  it('by email, address or tenancy reference, only in the caller’s properties', async () => {
    const found = async (who: Parameters<AdminMatrix['as']>[0], q: string) => {
      const r = await m.as(who, S.search, { q });
      return r.errors ? codeOf(r) : (r.data!.supportSearch as { email: string }[]).map((t) => t.email);
    };
    for (const q of ['tenant@p1', 'TENANT@P1.TEST', 'Street P1', 'T-P1-1']) {
      expect(await found('orgAdmin', q)).toEqual(['tenant@p1.test']);
      expect(await found('managerHere', q)).toEqual(['tenant@p1.test']);
      // The other side of the boundary: answered, with nobody in it.
      expect(await found('managerElsewhere', q)).toEqual([]);
      expect(await found('otherOrgAdmin', q)).toEqual([]);
    }
    expect(await found('tenant', 'tenant@p1')).toBe(UNAUTH.tenant);
    expect(await found('anonymous', 'tenant@p1')).toBe(UNAUTH.anonymous);
    expect(await found('orgAdmin', ' t ')).toBe('SEARCH_TOO_SHORT');
    expect(await found('orgAdmin', '100%')).toEqual([]);
    const r = await m.as('managerHere', S.search, { q: 'tenant@p1' });
    expect(r.data!.supportSearch).toEqual([
      {
        id: String(m.fx.tenant.id),
        email: 'tenant@p1.test',
        isActive: true,
        canImpersonate: true,
        tenancies: [
          {
            reference: 'T-P1-1',
            propertyNumber: 'P1',
            apartment: 'st. tv',
            address: 'Street P1, st. tv',
            start: '2025-01-01',
            end: null,
          },
        ],
      },
    ]);
  });
});

describe('impersonation from the console', () => {
  it('P1’s admin and manager get a link; others are refused and nothing is recorded', async () => {
    const before = { audit: await count(auditLog), links: await count(impersonations) };
    const codes = await m.matrix(S.impersonate, () => ({
      u: String(m.fx.tenant.id),
      r: 'Ticket 4711: the graph is empty',
    }));
    expect(codes).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    });
    expect(await count(auditLog)).toBe(before.audit + 2);
    expect(await count(impersonations)).toBe(before.links + 2);
  });

  it('the link opens a session as the tenant, and the audit log has who, whom and why', async () => {
    const r = await m.as('managerHere', S.impersonate, {
      u: String(m.fx.tenant.id),
      r: '  Ticket 4712: check the alarm  ',
    });
    const issued = r.data!.startImpersonation as { link: string; minutes: number };
    expect(issued.minutes).toBe(10);
    const token = new URL(issued.link).pathname.split('/').at(-1)!;
    const session = await call<{ impersonate: { email: string } }>(m.api.account, Q.impersonate, {
      t: token,
    });
    expect(session.data?.impersonate.email).toBe('tenant@p1.test');
    const [entry] = await m.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'impersonation.start'), eq(auditLog.reason, 'Ticket 4712: check the alarm')),
      );
    expect(entry).toMatchObject({
      actor: 'manager1@org1.test',
      subjectType: 'user',
      subjectId: String(m.fx.tenant.id),
      propertyId: m.fx.p1,
      accountId: m.fx.org1,
    });
    const [link] = await m.database.db
      .select()
      .from(impersonations)
      .where(eq(impersonations.reason, 'Ticket 4712: check the alarm'));
    expect(link).toMatchObject({ operator: 'manager1@org1.test', userEmail: 'tenant@p1.test' });
  });

  it('refuses a missing or short reason, an id that is not ours and an operator, recording nothing', async () => {
    const before = { audit: await count(auditLog), links: await count(impersonations) };
    const code = async (u: string, r: string) => codeOf(await m.as('orgAdmin', S.impersonate, { u, r }));
    expect(await code(String(m.fx.tenant.id), '')).toBe('REASON_REQUIRED');
    expect(await code(String(m.fx.tenant.id), '  abc  ')).toBe('REASON_REQUIRED');
    expect(await code(String(m.fx.tenant.id), 'x'.repeat(501))).toBe('REASON_REQUIRED');
    expect(await code('999999', 'A good reason')).toBe('FORBIDDEN');
    expect(await code('1 OR 1=1', 'A good reason')).toBe('FORBIDDEN');
    // An operator is no tenant of ours even when asked by id.
    expect(await code(String(m.fx.ops.manager1.id), 'A good reason')).toBe('FORBIDDEN');
    expect(await count(auditLog)).toBe(before.audit);
    expect(await count(impersonations)).toBe(before.links);
  });
});

describe('deactivating a tenant', () => {
  it('organisation admins only; the tenant’s sessions end at once, and reactivation lets them back in', async () => {
    const args = () => ({ u: String(m.fx.tenant.id), a: false, r: 'Account misuse, ticket 9' });
    // Refusals first, so the one success is last.
    for (const who of ['managerHere', 'managerElsewhere'] as const)
      expect(codeOf(await m.as(who, S.setActive, args()))).toBe('ORG_ADMIN_ONLY');
    expect(codeOf(await m.as('otherOrgAdmin', S.setActive, args()))).toBe('FORBIDDEN');
    expect(codeOf(await m.as('tenant', S.setActive, args()))).toBe('UNAUTHENTICATED');
    expect(codeOf(await m.as('orgAdmin', S.setActive, { ...args(), r: 'no' }))).toBe('REASON_REQUIRED');
    const [still] = await m.database.db.select().from(users).where(eq(users.id, m.fx.tenant.id));
    expect(still!.isActive).toBe(true);

    const login = await call<{ tokenAuth: { token: string } }>(m.api.account, Q.tokenAuth, {
      email: m.fx.tenant.email,
      password: PASSWORD,
    });
    const token = login.data!.tokenAuth.token;
    const me = () => call<{ me: { email: string } | null }>(m.api.account, '{ me { email } }', {}, { token });
    expect((await me()).data?.me?.email).toBe(m.fx.tenant.email);

    const off = await m.as('orgAdmin', S.setActive, args());
    expect(off.data!.setTenantActive).toEqual({
      id: String(m.fx.tenant.id),
      isActive: false,
      canImpersonate: false,
    });
    expect(codeOf(await me())).toBe('UNAUTHENTICATED');
    expect(
      codeOf(await call(m.api.account, Q.tokenAuth, { email: m.fx.tenant.email, password: PASSWORD })),
    ).toBeDefined();
    expect(
      codeOf(await m.as('orgAdmin', S.impersonate, { u: String(m.fx.tenant.id), r: 'Look at the graph' })),
    ).toBe('TENANT_DEACTIVATED');

    const on = await m.as('orgAdmin', S.setActive, { ...args(), a: true, r: 'Resolved with the tenant' });
    expect(on.data!.setTenantActive).toMatchObject({ isActive: true, canImpersonate: true });
    const again = await call<{ tokenAuth: { token: string } }>(m.api.account, Q.tokenAuth, {
      email: m.fx.tenant.email,
      password: PASSWORD,
    });
    expect(again.data?.tokenAuth.token).toBeTruthy();
    const actions = (await m.database.db.select().from(auditLog).where(eq(auditLog.subjectType, 'user')))
      .map((e) => [e.action, e.reason])
      .filter(([a]) => a !== 'impersonation.start');
    expect(actions).toEqual([
      ['tenant.deactivate', 'Account misuse, ticket 9'],
      ['tenant.reactivate', 'Resolved with the tenant'],
    ]);
  });

  it('refuses a tenant who also rents from another organisation, on both sides', async () => {
    const db = m.database.db;
    const [user] = await db
      .insert(users)
      .values({ email: 'two-landlords@test.test', name: 'Two', passwordHash: await hashPassword(PASSWORD) })
      .returning();
    const flat = async (propertyId: number, unique: string) => {
      const [apt] = await db
        .insert(apartments)
        .values({
          propertyId,
          uniqueId: unique,
          apartment: '1. th',
          address: `${unique} street`,
          zipcode: '8000',
          city: 'Aarhus C',
          areaM2: '60',
          rooms: 2,
        })
        .returning();
      const [t] = await db
        .insert(tenancies)
        .values({ apartmentId: apt!.id, tenancyId: `T-${unique}`, start: '2025-01-01' })
        .returning();
      await db.insert(tenancyMembers).values({ tenancyId: t!.id, userId: user!.id });
    };
    await flat(m.fx.p1, 'TWO-P1');
    await flat(m.fx.p3, 'TWO-P3');
    const args = { u: String(user!.id), a: false, r: 'Account misuse, ticket 10' };
    expect(codeOf(await m.as('orgAdmin', S.setActive, args))).toBe('TENANT_OF_ANOTHER_ORGANISATION');
    expect(codeOf(await m.as('otherOrgAdmin', S.setActive, args))).toBe('TENANT_OF_ANOTHER_ORGANISATION');
    // Each organisation sees only its own tenancy of them.
    const seen = await m.as('otherOrgAdmin', S.search, { q: 'two-landlords' });
    expect(
      (seen.data!.supportSearch as { tenancies: { reference: string }[] }[])[0]!.tenancies.map(
        (t) => t.reference,
      ),
    ).toEqual(['T-TWO-P3']);
    const [row] = await db.select().from(users).where(eq(users.id, user!.id));
    expect(row!.isActive).toBe(true);
  });
});
