/**
 * The consumption operations on the demo model (a few days, three apartments): readouts against summed consumption
 * on a meter without a swap and on the meter installed by a swap, sums across resolutions, degree days derived
 * from the demo's outdoor temperature, and refusals between the demo tenants.
 */
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { DEMO_USERS } from '../../src/server/demo/logins.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

const now = new Date('2026-03-27T10:20:00Z');
let database: Database;
let api: TestApi;
const tokens = { tina: '', maja: '' };
/** Maja's tenancies (apartments 2 and 3) and the demo apartments by unique id. */
let majaTenancy2 = 0;
let apartment = new Map<string, number>();
let pointOf = new Map<string, number>();

beforeAll(async () => {
  database = await freshDatabase();
  await seedDemo(database.db, { now, days: 5, apartments: 3 });
  await refreshAllDegreeDays(database.db);
  api = await createTestApi(database);
  const users = await queryRows<{ id: number; email: string }>(database.db, sql`SELECT id, email FROM users`);
  const user = (email: string) => users.find((u) => u.email === email)!;
  tokens.tina = (
    await signAccessToken('tenant', api.services.keys.tenant, user(DEMO_USERS[0].email), 300)
  ).token;
  tokens.maja = (
    await signAccessToken('tenant', api.services.keys.tenant, user(DEMO_USERS[2].email), 300)
  ).token;
  const apartments = await queryRows<{ id: number; unique_id: string }>(
    database.db,
    sql`SELECT id, unique_id FROM apartments`,
  );
  apartment = new Map(apartments.map((a) => [a.unique_id, Number(a.id)]));
  const [t] = await queryRows<{ id: number }>(
    database.db,
    sql`SELECT t.id FROM tenancies t JOIN apartments a ON a.id = t.apartment_id WHERE a.unique_id = '1001-002'`,
  );
  majaTenancy2 = Number(t!.id);
  const points = await queryRows<{ id: number; number: string }>(
    database.db,
    sql`SELECT m.measurement_point_id AS id, m.number FROM meters m`,
  );
  pointOf = new Map(points.map((p) => [p.number, Number(p.id)]));
});
afterAll(async () => {
  await database?.close();
});

const READOUT = `query ($t: Int!, $m: String!, $q: String!, $f: String!, $to: String!) {
  readoutMinMax(tenancyId: $t, meterNumber: $m, quantity: $q, fromDate: $f, toDate: $to) {
    meterNumber firstReadoutTimestamp firstReadoutValue lastReadoutTimestamp lastReadoutValue } }`;
const GRAPH = `query ($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps
  graphs { consumption { values relatedValues { type values } } } } }`;

interface Readout {
  meterNumber: string;
  firstReadoutTimestamp: string;
  firstReadoutValue: number;
  lastReadoutTimestamp: string;
  lastReadoutValue: number;
}

async function readout(meterNumber: string, quantity: string) {
  const r = await gql<{ readoutMinMax: Readout | null }>(
    api.tenant,
    READOUT,
    { t: majaTenancy2, m: meterNumber, q: quantity, f: '2026-03-01', to: '2026-03-31' },
    tokens.maja,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.readoutMinMax!;
}

/** The sum of a point's hourly values over [from, to) given as readout timestamps. */
async function hourlySum(pointId: number, from: string, to: string, quantity: string) {
  const r = await gql<{ tenantGraph: { graphs: { consumption: { values: (number | null)[] }[] }[] } }>(
    api.tenant,
    GRAPH,
    {
      graph: {
        graphType: 'HOURLY_VALUES',
        resolution: 'HOUR',
        periodBegin: from.slice(0, 16),
        periodEnd: to.slice(0, 16),
        objects: [{ kind: 'MPOINT', id: String(pointId) }],
        quantities: [quantity],
      },
    },
    tokens.maja,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.tenantGraph.graphs[0]!.consumption[0]!.values.reduce<number>((s, v) => s + (v ?? 0), 0);
}

describe('readoutMinMax on the demo model', () => {
  it('a meter without a swap: last minus first readout equals the consumption summed between them', async () => {
    const m = await readout('EN-1001-002', 'heat-energy');
    expect(m.meterNumber).toBe('EN-1001-002');
    const consumed = await hourlySum(
      pointOf.get('EN-1001-002')!,
      m.firstReadoutTimestamp,
      m.lastReadoutTimestamp,
      'heat-energy',
    );
    expect(consumed).toBeGreaterThan(0);
    expect(m.lastReadoutValue - m.firstReadoutValue).toBeCloseTo(consumed, 6);
  });

  it('after a swap, each meter’s readouts cover only its own span, and still match the consumption', async () => {
    const old = await readout('CW-1001-002', 'cold-water-volume');
    const fresh = await readout('CW-1001-002-B', 'cold-water-volume');
    expect(
      Temporal.Instant.compare(
        Temporal.Instant.from(old.lastReadoutTimestamp),
        Temporal.Instant.from(fresh.firstReadoutTimestamp),
      ),
    ).toBeLessThanOrEqual(0);
    const point = pointOf.get('CW-1001-002-B')!;
    const consumed = await hourlySum(
      point,
      fresh.firstReadoutTimestamp,
      fresh.lastReadoutTimestamp,
      'cold-water-volume',
    );
    expect(fresh.lastReadoutValue - fresh.firstReadoutValue).toBeCloseTo(consumed, 6);
    // Over the whole range the point's consumption is both meters' (no jump at the swap), so the new meter's
    // readouts alone account for less than the point consumed.
    const whole = await hourlySum(
      point,
      old.firstReadoutTimestamp,
      fresh.lastReadoutTimestamp,
      'cold-water-volume',
    );
    expect(whole).toBeGreaterThan(fresh.lastReadoutValue - fresh.firstReadoutValue);
  });

  it('another tenant’s tenancy or meter is refused', async () => {
    const other = await gql(
      api.tenant,
      READOUT,
      { t: majaTenancy2, m: 'EN-1001-001', q: 'heat-energy', f: '2026-03-01', to: '2026-03-31' },
      tokens.maja,
    );
    expect(errorCode(other)).toBe('FORBIDDEN');
    const notMine = await gql(
      api.tenant,
      READOUT,
      { t: majaTenancy2, m: 'EN-1001-002', q: 'heat-energy', f: '2026-03-01', to: '2026-03-31' },
      tokens.tina,
    );
    expect(errorCode(notMine)).toBe('FORBIDDEN');
  });
});

describe('the demo model through the consumption operations', () => {
  it('heat: the days sum to the KPI total, and degree days follow the outdoor temperature', async () => {
    const unitId = String(apartment.get('1001-002'));
    const days = await gql<{
      tenantGraph: {
        timestamps: string[];
        graphs: {
          consumption: {
            values: (number | null)[];
            relatedValues: { type: string; values: (number | null)[] }[];
          }[];
        }[];
      };
    }>(
      api.tenant,
      GRAPH,
      {
        graph: {
          graphType: 'HOURLY_VALUES',
          resolution: 'DAY',
          periodBegin: '2026-03-23T00:00',
          periodEnd: '2026-03-26T00:00',
          objects: [{ kind: 'UNIT', id: unitId }],
          quantities: ['heat-energy'],
          climateCorrection: {},
        },
      },
      tokens.maja,
    );
    expect(days.errors).toBeUndefined();
    const c = days.data!.tenantGraph.graphs[0]!.consumption[0]!;
    const kpi = await gql<{ unitQuantityKpis: { total: number }[] }>(
      api.tenant,
      `query ($i: UnitQuantityKpisInput!) { unitQuantityKpis(input: $i) { total } }`,
      { i: { unitId, quantities: ['heat-energy'], periodBegin: '2026-03-23', periodEnd: '2026-03-25' } },
      tokens.maja,
    );
    expect(kpi.data!.unitQuantityKpis[0]!.total).toBeCloseTo(
      (c.values as number[]).reduce((a, b) => a + b, 0),
      6,
    );
    // Degree days from the stored hourly outdoor temperature, computed here independently.
    const means = await queryRows<{ day: string; mean: string }>(
      database.db,
      sql`SELECT to_char((h.hour_start AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day, avg(h.value)::text AS mean
          FROM hourly_consumption h JOIN measurement_points p ON p.id = h.measurement_point_id
          WHERE p.quantity = 'outdoor-temperature' AND h.hour_start >= '2026-03-22T23:00Z' AND h.hour_start < '2026-03-25T23:00Z'
          GROUP BY 1 ORDER BY 1`,
    );
    const dd = c.relatedValues.find((r) => r.type === 'DEGREE_DAYS')!.values;
    expect(dd).toHaveLength(3);
    expect(means).toHaveLength(3);
    for (const [i, m] of means.entries()) expect(dd[i]).toBeCloseTo(Math.max(0, 17 - Number(m.mean)), 5);
  });

  it('a unit of another demo tenant is refused', async () => {
    const r = await gql(
      api.tenant,
      `query ($i: UnitQuantityKpisInput!) { unitQuantityKpis(input: $i) { total } }`,
      {
        i: {
          unitId: String(apartment.get('1001-001')),
          quantities: ['heat-energy'],
          periodBegin: '2026-03-23',
          periodEnd: '2026-03-25',
        },
      },
      tokens.maja,
    );
    expect(errorCode(r)).toBe('FORBIDDEN');
  });
});
