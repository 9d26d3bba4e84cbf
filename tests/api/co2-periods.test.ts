/**
 * CO₂ factors with validity dates (issue 21): a factor change in the middle of a month gives every hour the factor
 * of its own day, in every reader: the graph (hours, days, the month), the KPIs with the property comparison, the
 * table, the dashboard's CO₂ figures, the tenant's list of factors, and the monthly report, which agrees with the
 * app. The fixture's factor (100 g/kWh, from before validity dates) is valid from the beginning; here it ends on
 * 15 March 2025 and 200 g/kWh follows.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { monthlyReports, propertyCo2Factors } from '../../src/server/db/schema.ts';
import { generateMonthlyReports } from '../../src/server/reports/generate.ts';
import type { MonthlyReport } from '../../src/server/reports/model.ts';
import { type ConsumptionFixture, seedConsumptionFixture } from './consumption.fixture.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { dataHoursOf, heatA, hoursOf } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: ConsumptionFixture;
let alice = '';

const CHANGE = '2025-03-15';
const BEFORE = 100;
const AFTER = 200;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** The local date of an hour. */
const dayOf = (h: ReturnType<typeof hoursOf>[number]) =>
  h.toZonedDateTimeISO('Europe/Copenhagen').toPlainDate().toString();
const factorOn = (day: string) => (day < CHANGE ? BEFORE : AFTER);
/** A's CO₂ in grams over local dates [from, to): each hour's heat times its day's factor. */
const co2AOver = (from: string, to: string) =>
  sum(dataHoursOf(from, to).map((h) => heatA(h) * factorOn(dayOf(h))));

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedConsumptionFixture(database.db);
  api = await createTestApi(database);
  alice = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  const db = database.db;
  await db
    .update(propertyCo2Factors)
    .set({ validTo: CHANGE })
    .where(and(eq(propertyCo2Factors.propertyId, fx.propertyId), isNull(propertyCo2Factors.validFrom)));
  await db.insert(propertyCo2Factors).values({
    propertyId: fx.propertyId,
    quantity: 'heat-energy',
    gramPerQuantityUnit: String(AFTER),
    validFrom: CHANGE,
  });
});
afterAll(async () => {
  await database?.close();
});

const GRAPH = `query ($graph: TenantGraphInput!) { tenantGraph(graph: $graph) {
  timestamps graphs { consumption { values relatedValues { type values } } } } }`;
const KPIS = `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) {
  total propertyComparison meters { value } } }`;
const TABLE = `query ($table: TenantTableInput!) { tenantTable(table: $table) { rows { values } } }`;

type Graph = { tenantGraph: { graphs: { consumption: { values: (number | null)[] }[] }[] } };
type Kpis = { unitQuantityKpis: { total: number | null; propertyComparison: number | null }[] };

async function graphValues(graphType: string, resolution: string, from: string, to: string) {
  const r = await gql<Graph>(
    api.tenant,
    GRAPH,
    {
      graph: {
        graphType,
        resolution,
        periodBegin: `${from}T00:00`,
        periodEnd: `${to}T00:00`,
        objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
        quantities: ['heat-energy'],
      },
    },
    alice,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.tenantGraph.graphs[0]!.consumption[0]!.values;
}

async function kpi(graphType: string, periodBegin: string, periodEnd: string) {
  const r = await gql<Kpis>(
    api.tenant,
    KPIS,
    {
      input: {
        unitId: String(fx.apartmentA),
        quantities: ['heat-energy'],
        periodBegin,
        periodEnd,
        graphType,
      },
    },
    alice,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.unitQuantityKpis[0]!;
}

describe(`CO₂ factor periods in the tenant figures (${testEngine})`, () => {
  it('each hour has its own day’s factor: the hours around the change, the days, the month', async () => {
    const hours = await graphValues('CO2', 'HOUR', '2025-03-14', '2025-03-16');
    const expected = hoursOf('2025-03-14', '2025-03-16').map((h) => heatA(h) * factorOn(dayOf(h)));
    expect(hours).toHaveLength(48);
    hours.forEach((v, i) => {
      expect(v).toBeCloseTo(expected[i]!, 9);
    });
    // The last hour before midnight has the old factor, the first after it the new one.
    const heat = await graphValues('HOURLY_VALUES', 'HOUR', '2025-03-14', '2025-03-16');
    expect(hours[23]! / heat[23]!).toBeCloseTo(BEFORE, 9);
    expect(hours[24]! / heat[24]!).toBeCloseTo(AFTER, 9);
    const days = await graphValues('CO2', 'DAY', '2025-03-01', '2025-04-01');
    expect(days[13]).toBeCloseTo(co2AOver('2025-03-14', '2025-03-15'), 9);
    expect(days[14]).toBeCloseTo(co2AOver('2025-03-15', '2025-03-16'), 9);
    const [month] = await graphValues('CO2', 'MONTH', '2025-03-01', '2025-04-01');
    expect(month).toBeCloseTo(co2AOver('2025-03-01', '2025-04-01'), 6);
    expect(sum(days as number[])).toBeCloseTo(month!, 6);
  });

  it('the KPIs, the property comparison and the table use the factor of each day', async () => {
    const march = await kpi('CO2', '2025-03-01', '2025-03-31');
    expect(march.total).toBeCloseTo(co2AOver('2025-03-01', '2025-04-01'), 6);
    // The property's figure: its first half at 100 g, its second at 200 g.
    const firstHalf = await kpi('HOURLY_VALUES', '2025-03-01', '2025-03-14');
    const secondHalf = await kpi('HOURLY_VALUES', '2025-03-15', '2025-03-31');
    expect(march.propertyComparison).toBeCloseTo(
      firstHalf.propertyComparison! * BEFORE + secondHalf.propertyComparison! * AFTER,
      6,
    );
    const table = await gql<{ tenantTable: { rows: { values: (number | null)[] }[] } }>(
      api.tenant,
      TABLE,
      {
        table: {
          unitId: String(fx.apartmentA),
          quantities: ['heat-energy'],
          periodBegin: '2025-03-01',
          periodEnd: '2025-03-31',
          graphType: 'CO2',
        },
      },
      alice,
    );
    expect(table.errors).toBeUndefined();
    expect(table.data!.tenantTable.rows.map((r) => r.values[0])).toEqual([march.total]);
  });

  it('the dashboard’s CO₂ figure is the KPIs’ one', async () => {
    const march = await kpi('CO2', '2025-03-01', '2025-03-31');
    const r = await gql<{ tenancyDashboard: { co2: { total: number | null }[] } }>(
      api.tenant,
      `query ($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) { co2 { total } } }`,
      {
        input: {
          tenancyId: String(fx.tenancyA),
          quantities: ['heat-energy'],
          resolution: 'DAY',
          graphBegin: '2025-03-01T00:00',
          graphEnd: '2025-04-01T00:00',
          periodBegin: '2025-03-01',
          periodEnd: '2025-03-31',
          ratingBegin: '2024-04-01',
          ratingEnd: '2025-03-31',
        },
      },
      alice,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.tenancyDashboard.co2[0]!.total).toBe(march.total);
  });

  it('a day without a valid factor has no CO₂; the other days keep theirs', async () => {
    await database.db
      .update(propertyCo2Factors)
      .set({ validFrom: '2025-03-20' })
      .where(eq(propertyCo2Factors.validFrom, CHANGE));
    try {
      const days = await graphValues('CO2', 'DAY', '2025-03-14', '2025-03-21');
      expect(days.slice(1, 6)).toEqual([null, null, null, null, null]);
      expect(days[0]).toBeCloseTo(co2AOver('2025-03-14', '2025-03-15'), 9);
      expect(days[6]).toBeCloseTo(co2AOver('2025-03-20', '2025-03-21'), 9);
    } finally {
      await database.db
        .update(propertyCo2Factors)
        .set({ validFrom: CHANGE })
        .where(eq(propertyCo2Factors.validFrom, '2025-03-20'));
    }
  });

  it('the tenant’s list of factors names today’s factor', async () => {
    const r = await gql<{
      tenantUnits: {
        path: { property: { co2Factors: { quantity: string; gramPerQuantityUnit: number }[] } }[];
      }[];
    }>(
      api.tenant,
      '{ tenantUnits { path { property { co2Factors { quantity gramPerQuantityUnit } } } } }',
      {},
      alice,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.tenantUnits[0]!.path[0]!.property.co2Factors).toEqual([
      { quantity: 'heat-energy', gramPerQuantityUnit: AFTER },
    ]);
  });

  it('the monthly report agrees with the app, factor by day', async () => {
    const march = await kpi('CO2', '2025-03-01', '2025-03-31');
    await generateMonthlyReports(database.db, {
      month: '2025-03-01',
      now: new Date('2025-04-05T10:00:00Z'),
      settings: { ttlDays: 30 },
      tenancyId: fx.tenancyA,
    });
    const [row] = await database.db
      .select()
      .from(monthlyReports)
      .where(eq(monthlyReports.tenancyId, fx.tenancyA));
    const report = row!.content as MonthlyReport;
    const heat = report.quantities.find((q) => q.quantity === 'heat-energy')!;
    expect(heat.co2Kg! * 1000).toBeCloseTo(march.total!, 6);
    // Not one factor for the whole month.
    expect(heat.co2Kg! * 1000).not.toBeCloseTo(heat.month! * AFTER, 0);
    expect(heat.co2Kg! * 1000).not.toBeCloseTo(heat.month! * BEFORE, 0);
    // The supply section names the factor valid at the month's end.
    expect(report.supply.co2GramPerKwh).toBe(AFTER);
  });
});
