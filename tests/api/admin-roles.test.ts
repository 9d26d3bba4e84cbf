/**
 * The console's role matrix: every admin-backend call × {organisation admin, manager of this property, manager
 * of another property, tenant, anonymous}, checked on the server. Operator tokens are signed directly here (the
 * login with its second factor is admin-auth.test.ts); the tenant presents a real tenant-app token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/server/admin/audit.ts';
import { issueTokens } from '../../src/server/auth/login.ts';
import type { Database } from '../../src/server/db/client.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { PASSWORD } from './helpers/accountsFixture.ts';
import { A } from './helpers/adminApi.ts';
import { type AdminFixture, seedAdminFixture } from './helpers/adminFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: AdminFixture;
type Who = 'orgAdmin' | 'managerHere' | 'managerElsewhere' | 'otherOrgAdmin' | 'tenant' | 'anonymous';
const tokens = {} as Record<Who, string | null>;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAdminFixture(database.db);
  api = await createTestApi(database, { TRUST_PROXY: '1' });
  const sign = async (u: { id: number; email: string }) =>
    (await issueTokens(database.db, api.services.config, 'admin', api.services.keys.admin, u)).token;
  tokens.orgAdmin = await sign(fx.ops.admin1);
  tokens.managerHere = await sign(fx.ops.manager1);
  tokens.managerElsewhere = await sign(fx.ops.manager2);
  tokens.otherOrgAdmin = await sign(fx.ops.admin2);
  const tenant = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
    email: fx.tenant.email,
    password: PASSWORD,
  });
  tokens.tenant = tenant.data!.tokenAuth.token;
  tokens.anonymous = null;
  // Generous: on a loaded machine, migrating and hashing the fixture's passwords can take minutes.
}, 600_000);
afterAll(async () => {
  await database?.close();
});

const as = (who: Who, query: string, variables: Record<string, unknown> = {}) =>
  call<Record<string, unknown>>(api.admin, query, variables, { token: tokens[who] });

/** The error code per caller (undefined: answered). Property P1 is "this property". */
async function matrix(query: string, variables: () => Record<string, unknown>) {
  const out: Partial<Record<Who, unknown>> = {};
  for (const who of Object.keys(tokens) as Who[]) out[who] = codeOf(await as(who, query, variables()));
  return out;
}

const unauth = { tenant: 'UNAUTHENTICATED', anonymous: 'UNAUTHENTICATED' };

describe('role matrix', () => {
  it('operatorMe: every operator, nobody else', async () => {
    expect(await matrix(A.me, () => ({}))).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: undefined,
      otherOrgAdmin: undefined,
      ...unauth,
    });
  });

  it('operators: organisation admins only, each their own organisation', async () => {
    expect(await matrix(A.operators, () => ({}))).toEqual({
      orgAdmin: undefined,
      managerHere: 'ORG_ADMIN_ONLY',
      managerElsewhere: 'ORG_ADMIN_ONLY',
      otherOrgAdmin: undefined,
      ...unauth,
    });
    const list = await as('otherOrgAdmin', A.operators);
    expect((list.data!.operators as Array<{ email: string }>).map((o) => o.email)).toEqual([
      fx.ops.admin2.email,
    ]);
  });

  it('properties: the organisation’s for its admin, a manager’s own for a manager', async () => {
    const numbers = async (who: Who) =>
      ((await as(who, A.properties)).data?.properties as Array<{ number: string }> | undefined)?.map(
        (p) => p.number,
      );
    expect(await numbers('orgAdmin')).toEqual(['P1', 'P2']);
    expect(await numbers('managerHere')).toEqual(['P1']);
    expect(await numbers('managerElsewhere')).toEqual(['P2']);
    expect(await numbers('otherOrgAdmin')).toEqual(['P3']);
    expect(codeOf(await as('tenant', A.properties))).toBe('UNAUTHENTICATED');
    expect(codeOf(await as('anonymous', A.properties))).toBe('UNAUTHENTICATED');
  });

  it('property(P1): its organisation admin and its manager; unknown ids read as forbidden', async () => {
    expect(await matrix(A.property, () => ({ id: String(fx.p1) }))).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...unauth,
    });
    expect(codeOf(await as('orgAdmin', A.property, { id: '999999' }))).toBe('FORBIDDEN');
    expect(codeOf(await as('orgAdmin', A.property, { id: 'abc' }))).toBe('FORBIDDEN');
  });

  it('auditLog(P1): readable by its organisation admin and its manager', async () => {
    expect(await matrix(A.audit, () => ({ f: { propertyId: String(fx.p1) } }))).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...unauth,
    });
  });

  it('auditLog without a filter: a manager sees only their properties’ entries, an admin only their organisation’s', async () => {
    const entries = async (who: Who) =>
      (await as(who, A.audit)).data!.auditLog as { entries: Array<{ action: string; subjectId: string }> };
    // The seed's operator.create entries have no property: organisation admins see them, managers do not.
    expect((await entries('orgAdmin')).entries.map((e) => e.subjectId)).toEqual(
      expect.arrayContaining([String(fx.ops.admin1.id), String(fx.ops.manager1.id)]),
    );
    expect((await entries('orgAdmin')).entries.map((e) => e.subjectId)).not.toContain(
      String(fx.ops.admin2.id),
    );
    expect((await entries('managerHere')).entries).toEqual([]);
  });

  it('createOperator: organisation admins only, with their own organisation’s properties', async () => {
    let n = 0;
    expect(
      await matrix(A.create, () => ({
        i: { email: `new${++n}@org1.test`, role: 'PROPERTY_MANAGER', propertyIds: [String(fx.p1)] },
      })),
    ).toEqual({
      orgAdmin: undefined,
      managerHere: 'ORG_ADMIN_ONLY',
      managerElsewhere: 'ORG_ADMIN_ONLY',
      // Organisation 2's admin may not hand out organisation 1's property.
      otherOrgAdmin: 'FORBIDDEN',
      ...unauth,
    });
  });

  it('setOperatorAccess: organisation admins only, and only for their own operators', async () => {
    expect(
      await matrix(A.setAccess, () => ({
        u: String(fx.ops.manager1.id),
        r: 'PROPERTY_MANAGER',
        p: [String(fx.p1), String(fx.p2)],
      })),
    ).toEqual({
      orgAdmin: undefined,
      managerHere: 'ORG_ADMIN_ONLY',
      managerElsewhere: 'ORG_ADMIN_ONLY',
      otherOrgAdmin: 'FORBIDDEN',
      ...unauth,
    });
    // Audited with before and after.
    const audit = await as('orgAdmin', A.audit, { f: { action: 'operator.set_access' } });
    const entry = (
      audit.data!.auditLog as { entries: Array<{ before: unknown; after: unknown; actor: string }> }
    ).entries[0]!;
    expect(entry).toMatchObject({
      actor: fx.ops.admin1.email,
      before: { role: 'property_manager', propertyIds: [fx.p1] },
      after: { role: 'property_manager', propertyIds: [fx.p1, fx.p2].sort((a, b) => a - b) },
    });
  });

  it('deactivateOperator: organisation admins only', async () => {
    const created = await as('orgAdmin', A.create, { i: { email: 'gone@org1.test', role: 'ORG_ADMIN' } });
    const id = (created.data!.createOperator as { operator: { id: string } }).operator.id;
    const result = await matrix(A.deactivate, () => ({ u: id }));
    expect(result).toEqual({
      orgAdmin: undefined,
      managerHere: 'ORG_ADMIN_ONLY',
      managerElsewhere: 'ORG_ADMIN_ONLY',
      otherOrgAdmin: 'FORBIDDEN',
      ...unauth,
    });
  });
});

describe('the audit page: entries and filter choices by property, actor and date', () => {
  const facets = `{ auditFacets { actors actions } }`;
  type Entry = { action: string; subjectId: string; propertyId: string | null; actor: string };
  const ids = async (who: Who, f: Record<string, unknown> = {}) =>
    ((await as(who, A.audit, { f })).data!.auditLog as { entries: Entry[] }).entries.map((e) => e.subjectId);

  beforeAll(async () => {
    // The setOperatorAccess test above gave manager1 both properties: back to P1 only.
    await as('orgAdmin', A.setAccess, {
      u: String(fx.ops.manager1.id),
      r: 'PROPERTY_MANAGER',
      p: [String(fx.p1)],
    });
    const org1 = (actor: string) => ({ operatorId: null, actor });
    const at = (propertyId: number, subjectId: string, accountId: number) => ({
      action: 'tenancy.move_out',
      subjectType: 'tenancy',
      subjectId,
      propertyId,
      accountId,
    });
    await recordAudit(database.db, org1('cli:alice'), at(fx.p1, 'audit-p1', fx.org1));
    await recordAudit(database.db, org1('cli:bob'), at(fx.p2, 'audit-p2', fx.org1));
    await recordAudit(database.db, org1('cli:carol'), at(fx.p3, 'audit-p3', fx.org2));
  });

  it('a property manager sees only their properties’ entries and filter choices; an admin only their organisation’s', async () => {
    const f = { action: 'tenancy.move_out' };
    expect(await ids('managerHere', f)).toEqual(['audit-p1']);
    expect(await ids('managerElsewhere', f)).toEqual(['audit-p2']);
    expect(await ids('orgAdmin', f)).toEqual(['audit-p2', 'audit-p1']);
    expect(await ids('otherOrgAdmin', f)).toEqual(['audit-p3']);
    const choices = async (who: Who) => (await as(who, facets)).data!.auditFacets;
    expect(await choices('managerHere')).toEqual({ actors: ['cli:alice'], actions: ['tenancy.move_out'] });
    expect((await choices('orgAdmin')) as { actors: string[] }).toMatchObject({
      actors: expect.arrayContaining(['cli:alice', 'cli:bob']),
    });
    expect(JSON.stringify(await choices('orgAdmin'))).not.toContain('cli:carol');
    expect(await matrix(facets, () => ({}))).toMatchObject(unauth);
  });

  it('filters by actor (whole name, case-insensitive) and by date range on the server', async () => {
    expect(await ids('orgAdmin', { actor: 'CLI:Bob' })).toEqual(['audit-p2']);
    expect(await ids('orgAdmin', { actor: 'cli:bo' })).toEqual([]);
    expect(await ids('orgAdmin', { actor: 'cli:%' })).toEqual([]);
    // A manager filtering by another property's actor finds nothing.
    expect(await ids('managerHere', { actor: 'cli:bob' })).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids('orgAdmin', { actor: 'cli:bob', from: today })).toEqual(['audit-p2']);
    expect(await ids('orgAdmin', { actor: 'cli:bob', to: today })).toEqual([]);
    expect(codeOf(await as('orgAdmin', A.audit, { f: { from: 'yesterday' } }))).toBe('BAD_USER_INPUT');
  });
});
