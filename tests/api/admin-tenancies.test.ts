/**
 * Move-out and move-in through the console (issue 21), and what the tenants then see, from both sides of each
 * date. Fixture: apartment B's Bob (from 2024-01-01) is moved out with 2025-03-14 as his last day and Dave moved
 * in from 2025-03-15; B's heat is a constant 3 kWh an hour. The fixture's organisation keeps ended tenancies
 * readable for 120 months; the grace tests shorten that, and give a final statement, and check both sides.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../src/server/admin/operators.ts';
import { issueTokens } from '../../src/server/auth/login.ts';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  allocationStatements,
  auditLog,
  meters,
  registerReadings,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, HEAT_B, PASSWORD, seedFixture } from './helpers/fixtures.ts';

const MOVE_OUT = `mutation ($i: MoveOutInput!) { moveOut(input: $i) {
  id end accessEndsAt interimReadings { meterNumber value source readingTs at } } }`;
const MOVE_IN = `mutation ($i: MoveInInput!) { moveIn(input: $i) { id reference start end } }`;
const GRACE = `mutation ($m: Int!) { setMoveOutGraceMonths(months: $m) }`;
const FLATS = `query ($p: ID!) { tenancyApartments(propertyId: $p) { id tenancies { reference start end members { email } } } }`;

const SERIES = `consumption { values }`;
/** Aliases and several root fields in one document: each must be bounded on its own. */
const MANY = `query ($unit: ID!, $t: ID!) {
  before: tenantGraph(graph: { graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-03-10T00:00",
    periodEnd: "2025-03-15T00:00", objects: [{ kind: UNIT, id: $unit }], quantities: ["heat-energy"] }) { graphs { ${SERIES} } }
  after: tenantGraph(graph: { graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-03-15T00:00",
    periodEnd: "2025-03-20T00:00", objects: [{ kind: UNIT, id: $unit }], quantities: ["heat-energy"] }) { graphs { ${SERIES} } }
  across: tenantGraph(graph: { graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-03-12T00:00",
    periodEnd: "2025-03-18T00:00", objects: [{ kind: UNIT, id: $unit }], quantities: ["heat-energy"] }) { graphs { ${SERIES} } }
  kpiAfter: unitQuantityKpis(input: { unitId: $unit, quantities: ["heat-energy"], periodBegin: "2025-03-15",
    periodEnd: "2025-03-31" }) { total }
  kpiAcross: unitQuantityKpis(input: { unitId: $unit, quantities: ["heat-energy"], periodBegin: "2025-03-01",
    periodEnd: "2025-03-31" }) { total }
  alarms(tenancyId: $t) { id }
}`;

let database: Database;
let api: TestApi;
let fx: Fixture;
let operatorToken = '';
const ids = { bobTenancy: 0, daveTenancy: 0, dave: 0 };
const tokens = { bob: '', dave: '' };

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  const { operator } = await createOperator(
    database.db,
    { operatorId: null, actor: 'test' },
    {
      email: 'ops@landlord.test',
      role: 'org_admin',
      accountId: fx.accountId,
      propertyIds: [],
      password: PASSWORD,
    },
  );
  operatorToken = (
    await issueTokens(database.db, api.services.config, 'admin', api.services.keys.admin, {
      id: operator.id,
      email: operator.email,
    })
  ).token;
  const [bob] = await database.db.select().from(tenancies).where(eq(tenancies.tenancyId, 'T-B-2024'));
  ids.bobTenancy = bob!.id;
  const [dave] = await database.db
    .insert(users)
    .values({ email: 'dave@test.test', name: 'Dave', passwordHash: 'x' })
    .returning();
  ids.dave = dave!.id;
  tokens.bob = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.bob, 300)).token;
  tokens.dave = (await signAccessToken('tenant', api.services.keys.tenant, dave!, 300)).token;
}, 600_000);
afterAll(async () => {
  await database?.close();
});

const admin = <T = Record<string, unknown>>(query: string, variables: Record<string, unknown>) =>
  gql<T>(api.admin, query, variables, operatorToken);

const daySums = (r: { graphs: { consumption: { values: (number | null)[] }[] }[] }) =>
  r.graphs[0]?.consumption[0]?.values ?? [];

describe('move-out and move-in', () => {
  it('refuses a move-in while the flat’s tenancy runs, then moves Bob out with interim readings', async () => {
    const early = await admin(MOVE_IN, {
      i: {
        apartmentId: String(fx.apartmentB),
        reference: 'T-B-2025',
        tenant: 'Dave D.',
        firstDay: '2025-03-15',
      },
    });
    expect(early.errors?.[0]?.extensions?.code).toBe('TENANCY_OVERLAP');

    // M-HEAT-B's register, read on 13 March and on 16 March (after the change).
    const [meter] = await database.db.select().from(meters).where(eq(meters.number, 'M-HEAT-B'));
    const heatB = meter!.id;
    await database.db.insert(registerReadings).values([
      { meterId: heatB, ts: new Date('2025-03-13T12:00:00Z'), value: '1500.5' },
      { meterId: heatB, ts: new Date('2025-03-16T12:00:00Z'), value: '1700' },
    ]);

    const bad = await admin(MOVE_OUT, { i: { tenancyId: String(ids.bobTenancy), lastDay: '2025-02-30' } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const notHere = await admin(MOVE_OUT, {
      i: {
        tenancyId: String(ids.bobTenancy),
        lastDay: '2025-03-14',
        readings: [{ meterNumber: 'M-HEAT-A', value: '1' }],
      },
    });
    expect(notHere.errors?.[0]?.extensions?.code).toBe('NOT_A_METER_OF_THE_FLAT');
    expect(
      (await database.db.select().from(tenancies).where(eq(tenancies.id, ids.bobTenancy)))[0]!.end,
    ).toBeNull();

    const out = await admin<{ moveOut: { end: string; accessEndsAt: string; interimReadings: unknown[] } }>(
      MOVE_OUT,
      { i: { tenancyId: String(ids.bobTenancy), lastDay: '2025-03-14' } },
    );
    expect(out.errors).toBeUndefined();
    expect(out.data!.moveOut.end).toBe('2025-03-14');
    // 120 months after 15 March 2025, local midnight (CET: 23:00 UTC the day before).
    expect(out.data!.moveOut.accessEndsAt).toBe('2035-03-14T23:00:00.000Z');
    // The meter's own latest reading at or before the change (local midnight 14/15 March), not the later one.
    expect(out.data!.moveOut.interimReadings).toEqual([
      {
        meterNumber: 'M-HEAT-B',
        value: '1500.5',
        source: 'METER',
        readingTs: '2025-03-13T12:00:00.000Z',
        at: '2025-03-14T23:00:00.000Z',
      },
    ]);
  });

  it('moves Dave in from the next day; an overlapping or taken reference is refused', async () => {
    const overlap = await admin(MOVE_IN, {
      i: { apartmentId: String(fx.apartmentB), reference: 'T-B-2025', firstDay: '2025-03-14' },
    });
    expect(overlap.errors?.[0]?.extensions?.code).toBe('TENANCY_OVERLAP');
    const taken = await admin(MOVE_IN, {
      i: { apartmentId: String(fx.apartmentB), reference: 'T-A-2025', firstDay: '2025-03-15' },
    });
    expect(taken.errors?.[0]?.extensions?.code).toBe('TENANCY_REFERENCE_TAKEN');
    const moved = await admin<{ moveIn: { id: string; start: string; end: null } }>(MOVE_IN, {
      i: {
        apartmentId: String(fx.apartmentB),
        reference: 'T-B-2025',
        tenant: 'Dave D.',
        firstDay: '2025-03-15',
      },
    });
    expect(moved.errors).toBeUndefined();
    expect(moved.data!.moveIn).toMatchObject({ start: '2025-03-15', end: null });
    ids.daveTenancy = Number(moved.data!.moveIn.id);
    await database.db
      .insert(tenancyMembers)
      .values({ tenancyId: ids.daveTenancy, userId: ids.dave, isAdmin: true });
    // Bob's last day cannot now move past Dave's first.
    const later = await admin(MOVE_OUT, { i: { tenancyId: String(ids.bobTenancy), lastDay: '2025-03-20' } });
    expect(later.errors?.[0]?.extensions?.code).toBe('TENANCY_OVERLAP');

    const flats = await admin<{ tenancyApartments: { id: string; tenancies: { reference: string }[] }[] }>(
      FLATS,
      {
        p: String(fx.propertyId),
      },
    );
    const b = flats.data!.tenancyApartments.find((f) => f.id === String(fx.apartmentB))!;
    expect(b.tenancies.map((t) => t.reference)).toEqual(['T-B-2024', 'T-B-2025']);
    const entries = await database.db.select().from(auditLog);
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['tenancy.move_out', 'tenancy.move_in']),
    );
    expect(entries.find((e) => e.action === 'tenancy.move_out')!.before).toEqual({ end: null });
  });

  it('Bob’s token gets nothing dated after his last day, in aliases and several fields of one document', async () => {
    const r = await gql<Record<string, { graphs: { consumption: { values: (number | null)[] }[] }[] }>>(
      api.tenant,
      MANY,
      { unit: String(fx.apartmentB), t: String(ids.bobTenancy) },
      tokens.bob,
    );
    expect(r.errors).toBeUndefined();
    const data = r.data as unknown as Record<string, never>;
    expect(daySums(data.before)).toEqual([24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B]);
    expect(daySums(data.after)).toEqual([null, null, null, null, null]);
    expect(daySums(data.across)).toEqual([24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B, null, null, null]);
    expect((data.kpiAfter as { total: number | null }[])[0]!.total).toBeNull();
    expect((data.kpiAcross as { total: number | null }[])[0]!.total).toBe(14 * 24 * HEAT_B);
  });

  it('Dave’s graph for a period before his move-in is null, and his days are his', async () => {
    const r = await gql(
      api.tenant,
      MANY,
      { unit: String(fx.apartmentB), t: String(ids.daveTenancy) },
      tokens.dave,
    );
    expect(r.errors).toBeUndefined();
    const data = r.data as unknown as Record<string, never>;
    expect(daySums(data.before)).toEqual([null, null, null, null, null]);
    expect(daySums(data.after)).toEqual([24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B]);
    expect(daySums(data.across)).toEqual([null, null, null, 24 * HEAT_B, 24 * HEAT_B, 24 * HEAT_B]);
    expect((data.kpiAcross as { total: number | null }[])[0]!.total).toBe((17 * 24 - 1) * HEAT_B); // 30 March has 23 hours;
  });
});

describe('the grace period', () => {
  const UNITS = `{ tenantUnits { unit { id } } }`;
  const bobSees = async () => {
    const units = await gql<{ tenantUnits: { unit: { id: string } }[] }>(api.tenant, UNITS, {}, tokens.bob);
    const many = await gql(
      api.tenant,
      MANY,
      { unit: String(fx.apartmentB), t: String(ids.bobTenancy) },
      tokens.bob,
    );
    return {
      units: units.data?.tenantUnits.length ?? null,
      codes: [...new Set((many.errors ?? []).map((e) => e.extensions?.code))],
      data: many.data,
    };
  };

  it('after the grace period Bob gets nothing at all; Dave keeps everything', async () => {
    const r = await admin<{ setMoveOutGraceMonths: number }>(GRACE, { m: 0 });
    expect(r.data?.setMoveOutGraceMonths).toBe(0);
    const bob = await bobSees();
    expect(bob.units).toBe(0);
    expect(bob.codes).toEqual(['FORBIDDEN']);
    expect(bob.data).toBeNull();
    const dave = await gql(
      api.tenant,
      MANY,
      { unit: String(fx.apartmentB), t: String(ids.daveTenancy) },
      tokens.dave,
    );
    expect(dave.errors).toBeUndefined();
    // The account backend's list of tenancies drops it too.
    const list = await gql<{ allTenanciesForCurrentUser: { tenancyId: string }[] }>(
      api.account,
      `{ allTenanciesForCurrentUser { tenancyId } }`,
      {},
      (await signAccessToken('account', api.services.keys.account, fx.users.bob, 300)).token,
    );
    expect(list.data?.allTenanciesForCurrentUser).toEqual([]);
  });

  it('a final statement keeps access until its objection deadline, and not a day longer', async () => {
    const statement = (objectionDeadline: string) => ({
      tenancyId: ids.bobTenancy,
      periodStart: '2024-06-01',
      periodEnd: '2025-05-31',
      currency: 'DKK',
      fixedSharePercent: '40',
      variableSharePercent: '60',
      fixedAmount: '1000',
      variableAmount: '2000',
      advancePayments: '2500',
      balance: '500',
      objectionDeadline,
      details: {},
    });
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const [row] = await database.db.insert(allocationStatements).values(statement(future)).returning();
    expect((await bobSees()).units).toBe(1);
    expect((await bobSees()).codes).toEqual([]);
    // Past its deadline: access has ended, although the organisation's months would still allow it.
    await database.db
      .update(allocationStatements)
      .set({ objectionDeadline: '2025-09-30' })
      .where(eq(allocationStatements.id, row!.id));
    await admin(GRACE, { m: 120 });
    expect((await bobSees()).units).toBe(0);
    await database.db.delete(allocationStatements).where(eq(allocationStatements.id, row!.id));
    expect((await bobSees()).units).toBe(1);
  });

  it('only an organisation admin sets it, within 0–120 months, audited', async () => {
    expect((await admin(GRACE, { m: 121 })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'organisation.move_out_grace'));
    expect(entries.map((e) => [e.before, e.after])).toEqual([
      [{ months: 120 }, { months: 0 }],
      [{ months: 0 }, { months: 120 }],
    ]);
  });
});
