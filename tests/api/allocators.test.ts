/**
 * Heat-cost allocators in real buildings (issue 22): the kWh estimate in an allocator-only building from the
 * supply heat meter or the operator's factor, in a mixed building from the allocator flats' own share, month by
 * month whatever the period asked, the same in the app (KPI, graph) and the monthly report, and the pricing rule
 * (units never priced beside a heat meter). On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  measurementPoints,
  monthlyReports,
  prices,
  propertyReportSettings,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { generateMonthlyReports } from '../../src/server/reports/generate.ts';
import type { MonthlyReport } from '../../src/server/reports/model.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';
import { rollUpHours } from './helpers/rollups.ts';

let database: Database;
let api: TestApi;
const tokens: Record<string, string> = {};
const flats: Record<string, { apartmentId: number; tenancyId: number }> = {};

/** Hourly values per point: a constant per hour in October and November 2025, doubled in November. */
const OCTOBER_HOURS = 31 * 24 + 1; // the autumn DST change adds an hour
const RATES = {
  supply: 20, // the mixed building's supply meter, kWh an hour
  heatOnly: 4, // its flat with a heat meter only
  allocA: 3, // its allocator flats' units an hour
  allocB: 1,
  operatorUnits: 2, // the allocator-only building without a supply meter: two allocators of 1 an hour
};
const OPERATOR_FACTOR = 0.7;

async function hourly(db: Database['db'], point: number, perHour: number) {
  await db.execute(sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT ${point}, h, CASE WHEN h >= '2025-11-01T00:00:00+01:00'::timestamptz THEN ${perHour * 2}::numeric ELSE ${perHour}::numeric END
      FROM generate_series('2025-10-01T00:00:00+02:00'::timestamptz, '2025-11-30T23:00:00+01:00'::timestamptz,
                           interval '1 hour') h`);
}

beforeAll(async () => {
  database = await freshDatabase();
  const { db } = database;
  api = await createTestApi(database);
  // Mixed: flat A and B have allocators only, flat H a heat meter only; the building has a supply meter.
  const mixed = await testProperty(
    db,
    [
      { uniqueId: 'MIX-A', areaM2: '60' },
      { uniqueId: 'MIX-B', areaM2: '60' },
      { uniqueId: 'MIX-H', areaM2: '60' },
    ],
    'MIX',
  );
  // Allocator-only, no supply meter: the operator's factor.
  const plain = await testProperty(db, [{ uniqueId: 'OP-A', areaM2: '50' }], 'OP');
  await db
    .insert(propertyReportSettings)
    .values({ propertyId: plain.propertyId, hcaKwhPerUnit: String(OPERATOR_FACTOR) });
  const point = (propertyId: number, apartmentId: number | null, quantity: string, unit: string) => ({
    propertyId,
    apartmentId,
    quantity,
    unit,
    name: quantity,
    readingKind: 'register' as const,
  });
  // A flat with both a heat meter and allocators: its units are not priced.
  const both = await testProperty(db, [{ uniqueId: 'BOTH-1', areaM2: '70' }], 'BOTH');
  const points = await db
    .insert(measurementPoints)
    .values([
      point(mixed.propertyId, mixed.apartmentIds[0]!, 'hca', 'hca-unit'),
      point(mixed.propertyId, mixed.apartmentIds[1]!, 'hca', 'hca-unit'),
      point(mixed.propertyId, mixed.apartmentIds[2]!, 'heat-energy', 'kilo-watt-hour'),
      point(mixed.propertyId, null, 'heat-energy', 'kilo-watt-hour'),
      point(plain.propertyId, plain.apartmentIds[0]!, 'hca', 'hca-unit'),
      point(plain.propertyId, plain.apartmentIds[0]!, 'hca', 'hca-unit'),
      point(both.propertyId, both.apartmentIds[0]!, 'hca', 'hca-unit'),
      point(both.propertyId, both.apartmentIds[0]!, 'heat-energy', 'kilo-watt-hour'),
    ])
    .returning();
  const perHour = [RATES.allocA, RATES.allocB, RATES.heatOnly, RATES.supply, 1, 1, 2, 5];
  for (const [i, p] of points.entries()) await hourly(db, p.id, perHour[i]!);
  await rollUpHours(
    db,
    points.map((p) => p.id),
  );
  await db.insert(prices).values(
    [mixed.propertyId, both.propertyId].flatMap((propertyId) => [
      { propertyId, quantity: 'hca', price: '1.5', currency: 'DKK', validFrom: '2025-01-01' },
      { propertyId, quantity: 'heat-energy', price: '0.8', currency: 'DKK', validFrom: '2025-01-01' },
    ]),
  );
  const named = [
    ['a', mixed.apartmentIds[0]!],
    ['op', plain.apartmentIds[0]!],
    ['both', both.apartmentIds[0]!],
  ] as const;
  for (const [name, apartmentId] of named) {
    const [tenancy] = await db
      .insert(tenancies)
      .values({ apartmentId, tenancyId: `T-${name}`, start: '2025-01-01' })
      .returning();
    const [user] = await db
      .insert(users)
      .values({ email: `${name}@test.test`, language: 'en' })
      .returning();
    await db.insert(tenancyMembers).values({ tenancyId: tenancy!.id, userId: user!.id });
    flats[name] = { apartmentId, tenancyId: tenancy!.id };
    tokens[name] = (await signAccessToken('tenant', api.services.keys.tenant, user!, 600)).token;
  }
  // A migrated database and two months of hours take minutes on a busy machine: no tight limit.
}, 600_000);
afterAll(async () => {
  await database?.close();
});

const KPIS = `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) {
  quantityDescriptor { quantity } total kwhEstimate kwhEstimateMethod kwhPerUnit } }`;
const GRAPH = `query ($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps
  graphs { consumption { values relatedValues { type values } kwhEstimateMethod } } } }`;

type Kpi = {
  quantityDescriptor: { quantity: string };
  total: number | null;
  kwhEstimate: number | null;
  kwhEstimateMethod: string | null;
  kwhPerUnit: number | null;
};

async function kpi(
  flat: string,
  from: string,
  to: string,
  extra: Record<string, unknown> = {},
): Promise<Kpi> {
  const r = await gql<{ unitQuantityKpis: Kpi[] }>(
    api.tenant,
    KPIS,
    {
      input: {
        unitId: String(flats[flat]!.apartmentId),
        quantities: ['hca'],
        periodBegin: from,
        periodEnd: to,
        hcaKwhEstimate: true,
        ...extra,
      },
    },
    tokens[flat],
  );
  expect(r.errors).toBeUndefined();
  return r.data!.unitQuantityKpis[0]!;
}

// The mixed building: supply less the heat-only flat, over all allocator units, per hour (so per month).
const MIXED_FACTOR = (RATES.supply - RATES.heatOnly) / (RATES.allocA + RATES.allocB);

describe(`allocators in real buildings (${testEngine})`, () => {
  it('estimates a mixed building from the supply meter, less the heat-metered flats', async () => {
    const october = await kpi('a', '2025-10-01', '2025-10-31');
    expect(october.total).toBeCloseTo(RATES.allocA * OCTOBER_HOURS, 9);
    expect(october.kwhEstimateMethod).toBe('supply-meter');
    expect(october.kwhPerUnit).toBeCloseTo(MIXED_FACTOR, 9);
    expect(october.kwhEstimate).toBeCloseTo(RATES.allocA * OCTOBER_HOURS * MIXED_FACTOR, 6);
  });

  it('estimates a month the same whatever the period asked: a longer period is the sum of its months', async () => {
    const october = await kpi('a', '2025-10-01', '2025-10-31');
    const november = await kpi('a', '2025-11-01', '2025-11-30');
    const both = await kpi('a', '2025-10-01', '2025-11-30');
    expect(both.kwhEstimate).toBeCloseTo(october.kwhEstimate! + november.kwhEstimate!, 6);
    // One day of October at October's factor, not the day's own ratio.
    const day = await kpi('a', '2025-10-15', '2025-10-15');
    expect(day.kwhEstimate! / day.total!).toBeCloseTo(october.kwhEstimate! / october.total!, 9);
    // The graph's monthly buckets hold the same figures.
    const graph = await gql<{
      tenantGraph: {
        graphs: {
          consumption: {
            relatedValues: { type: string; values: (number | null)[] }[];
            kwhEstimateMethod: string;
          }[];
        }[];
      };
    }>(
      api.tenant,
      GRAPH,
      {
        graph: {
          graphType: 'HOURLY_VALUES',
          resolution: 'MONTH',
          periodBegin: '2025-10-01T00:00',
          periodEnd: '2025-12-01T00:00',
          objects: [{ kind: 'UNIT', id: String(flats.a!.apartmentId) }],
          quantities: ['hca'],
          hcaKwhEstimate: true,
        },
      },
      tokens.a,
    );
    expect(graph.errors).toBeUndefined();
    const c = graph.data!.tenantGraph.graphs[0]!.consumption[0]!;
    const estimate = c.relatedValues.find((r) => r.type === 'KWH_ESTIMATE')!.values;
    expect(estimate[0]).toBeCloseTo(october.kwhEstimate!, 6);
    expect(estimate[1]).toBeCloseTo(november.kwhEstimate!, 6);
    expect(c.kwhEstimateMethod).toBe('supply-meter');
  });

  it("uses the operator's factor in an allocator-only building without a supply meter", async () => {
    const october = await kpi('op', '2025-10-01', '2025-10-31');
    expect(october.kwhEstimateMethod).toBe('operator-factor');
    expect(october.kwhEstimate).toBeCloseTo(RATES.operatorUnits * OCTOBER_HOURS * OPERATOR_FACTOR, 6);
  });

  it('prices allocator units only where no heat meter measures the same heat', async () => {
    const cost = await kpi('a', '2025-10-01', '2025-10-31', { graphType: 'COST', hcaKwhEstimate: false });
    expect(cost.total).toBeCloseTo(RATES.allocA * OCTOBER_HOURS * 1.5, 6);
    // Beside a heat meter the same units cost nothing more: the heat meter is the bill.
    const beside = await kpi('both', '2025-10-01', '2025-10-31', {
      graphType: 'COST',
      hcaKwhEstimate: false,
    });
    expect(beside.total).toBeNull();
    const heat = await kpi('both', '2025-10-01', '2025-10-31', {
      graphType: 'COST',
      hcaKwhEstimate: false,
      quantities: ['heat-energy'],
    });
    expect(heat.total).toBeCloseTo(5 * OCTOBER_HOURS * 0.8, 6);
  });

  it('gives the monthly report the same estimate as the app, with its method', async () => {
    await generateMonthlyReports(database.db, {
      month: '2025-10-01',
      now: new Date('2025-11-05T10:00:00Z'),
      settings: { ttlDays: 30 },
      tenancyId: flats.a!.tenancyId,
    });
    const [row] = await database.db
      .select({ content: monthlyReports.content })
      .from(monthlyReports)
      .where(eq(monthlyReports.tenancyId, flats.a!.tenancyId));
    const hca = (row!.content as MonthlyReport).quantities.find((q) => q.quantity === 'hca')!;
    const october = await kpi('a', '2025-10-01', '2025-10-31');
    expect(hca.kwhEstimate).toMatchObject({ method: 'supply-meter' });
    expect(hca.kwhEstimate!.month).toBeCloseTo(october.kwhEstimate!, 6);
    // Priced: the flat has no heat meter, so its units are its heat bill.
    expect(hca.cost).toBeCloseTo(RATES.allocA * OCTOBER_HOURS * 1.5, 6);
  });
});
