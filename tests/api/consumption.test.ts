/**
 * The consumption operations against an exactly known dataset (tests/api/consumption.fixture.ts): sums across
 * resolutions and DST days, property figures, related series, cost across a price change, degree days and the
 * climate correction, gaps and partial buckets, the hca kWh estimate, KPIs, tables, prices, fixed charges,
 * projections, readouts, access refusals, and the number of SQL statements per request.
 */
import type { Logger } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInCopenhagen } from '../../src/lib/periods.ts';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { AREA, type ConsumptionFixture, HCA, HEAT_C, seedConsumptionFixture } from './consumption.fixture.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { dataHoursOf, HEAT_B, heatA, hoursOf } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: ConsumptionFixture;
const tokens: Record<'alice' | 'bob' | 'dave', string> = { alice: '', bob: '', dave: '' };
type Who = keyof typeof tokens;

/** Counts every SQL statement the Drizzle session runs while `counting` is on. */
let statements = 0;
const counter: Logger = {
  logQuery() {
    statements++;
  },
};

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedConsumptionFixture(database.db);
  api = await createTestApi(database);
  for (const name of ['alice', 'bob'] as const) {
    const { token } = await signAccessToken('tenant', api.services.keys.tenant, fx.users[name], 300);
    tokens[name] = token;
  }
  tokens.dave = (await signAccessToken('tenant', api.services.keys.tenant, fx.dave, 300)).token;
  (database.db as unknown as { session: { logger: Logger } }).session.logger = counter;
});
afterAll(async () => {
  await database?.close();
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** A's heat over local dates [from, to) (all fixture hours, not clipped). */
const heatAOver = (from: string, to: string) => sum(dataHoursOf(from, to).map(heatA));
const hoursIn = (from: string, to: string) => dataHoursOf(from, to).length;
/** Days of [from, to) as YYYY-MM-DD. */
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = Temporal.PlainDate.from(from); d.toString() < to; d = d.add({ days: 1 }))
    out.push(d.toString());
  return out;
}
const nextDay = (d: string) => Temporal.PlainDate.from(d).add({ days: 1 }).toString();

const GRAPH = `query ($graph: TenantGraphInput!) {
  tenantGraph(graph: $graph) {
    timestamps partial
    graphs { type object { id kind }
      consumption { quantityDescriptor { quantity normalized expressedAs } values relatedValues { type values }
        climateCorrection { applied reason baseTemperature hotWaterShare degreeDays lastYearDegreeDays normalDegreeDays }
        kwhEstimateMethod } }
  }
}`;

interface Series {
  quantityDescriptor: { quantity: string; normalized: boolean; expressedAs: string | null };
  values: (number | null)[];
  relatedValues: { type: string; values: (number | null)[] }[];
  climateCorrection: {
    applied: string;
    reason: string | null;
    degreeDays: number | null;
    lastYearDegreeDays: number | null;
    normalDegreeDays: number | null;
    hotWaterShare: number;
  } | null;
  kwhEstimateMethod: string | null;
}
interface GraphData {
  tenantGraph: {
    timestamps: string[];
    partial: boolean[];
    graphs: { type: string; object: { id: string; kind: string }; consumption: Series[] }[];
  };
}

async function graph(input: Record<string, unknown>, who: Who = 'alice') {
  return gql<GraphData>(
    api.tenant,
    GRAPH,
    {
      graph: {
        graphType: 'HOURLY_VALUES',
        objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
        quantities: ['heat-energy'],
        ...input,
      },
    },
    tokens[who],
  );
}
async function series(input: Record<string, unknown>, who: Who = 'alice') {
  const r = await graph(input, who);
  expect(r.errors).toBeUndefined();
  const g = r.data!.tenantGraph;
  return { ...g, s: g.graphs[0]!.consumption[0]! };
}
const related = (s: Series, type: string) => s.relatedValues.find((r) => r.type === type)?.values;
const day = (d: string) => ({
  resolution: 'DAY',
  periodBegin: `${d}T00:00`,
  periodEnd: `${nextDay(d)}T00:00`,
});

describe('tenantGraph sums across resolutions', () => {
  it('hours sum to the day, days to the month; DST days have 23 and 25 hourly buckets', async () => {
    const spring = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-30T00:00',
      periodEnd: '2025-03-31T00:00',
    });
    const autumn = await series({
      resolution: 'HOUR',
      periodBegin: '2025-10-26T00:00',
      periodEnd: '2025-10-27T00:00',
    });
    expect(spring.timestamps).toHaveLength(23);
    expect(autumn.timestamps).toHaveLength(25);
    const springDay = await series(day('2025-03-30'));
    expect(springDay.s.values[0]).toBe(sum(spring.s.values as number[]));
    expect(springDay.s.values[0]).toBe(heatAOver('2025-03-30', '2025-03-31'));
    const days = await series({
      resolution: 'DAY',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    const month = await series({
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    expect(days.timestamps).toHaveLength(31);
    expect(month.s.values[0]).toBe(sum(days.s.values as number[]));
    expect(month.s.values[0]).toBe(heatAOver('2025-03-01', '2025-04-01'));
  });

  it('a bucket with no readings is null, never 0; closed buckets are not partial, an open one is', async () => {
    const r = await series({
      resolution: 'DAY',
      periodBegin: '2025-04-04T00:00',
      periodEnd: '2025-04-08T00:00',
    });
    expect(r.s.values).toEqual([
      heatAOver('2025-04-04', '2025-04-05'),
      heatAOver('2025-04-05', '2025-04-06'),
      null,
      null,
    ]);
    expect(r.partial).toEqual([false, false, false, false]);
    const today = todayInCopenhagen().toString();
    const open = await series(day(today));
    expect(open.partial).toEqual([true]);
    expect(open.s.values).toEqual([null]);
  });
});

describe('tenantGraph objects and related series', () => {
  /** The property's heat per m² on a day when A, B and C all have data. */
  const propertyPerM2 = (d: string) =>
    (heatAOver(d, nextDay(d)) + (HEAT_B + HEAT_C) * hoursIn(d, nextDay(d))) / (AREA.a + AREA.b + AREA.c);

  it('PROPERTY is the per-m² average, or scaled to one of my units; also as a related series of my unit', async () => {
    const perM2 = await series({
      ...day('2025-03-10'),
      objects: [{ kind: 'PROPERTY', id: String(fx.propertyId) }],
    });
    expect(perM2.s.quantityDescriptor.normalized).toBe(true);
    expect(perM2.s.values[0]).toBeCloseTo(propertyPerM2('2025-03-10'), 6);
    expect(perM2.graphs[0]!.object).toEqual({ id: String(fx.propertyId), kind: 'PROPERTY' });
    const scaled = await series({
      ...day('2025-03-10'),
      objects: [{ kind: 'PROPERTY', id: String(fx.propertyId), scaleToUnitId: String(fx.apartmentA) }],
    });
    expect(scaled.s.quantityDescriptor.normalized).toBe(false);
    expect(scaled.s.values[0]).toBeCloseTo(propertyPerM2('2025-03-10') * AREA.a, 6);
    const mine = await series({ ...day('2025-03-10'), related: ['PROPERTY'] });
    expect(related(mine.s, 'PROPERTY')![0]).toBeCloseTo(propertyPerM2('2025-03-10') * AREA.a, 6);
    const normalized = await series({ ...day('2025-03-10'), related: ['PROPERTY'], normalized: true });
    expect(normalized.s.values[0]).toBeCloseTo(heatAOver('2025-03-10', '2025-03-11') / AREA.a, 9);
    expect(related(normalized.s, 'PROPERTY')![0]).toBeCloseTo(propertyPerM2('2025-03-10'), 6);
  });

  it('PROPERTY at HOUR is the hour per m² of the apartments with data', async () => {
    const r = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-10T12:00',
      periodEnd: '2025-03-10T13:00',
      objects: [{ kind: 'PROPERTY', id: String(fx.propertyId) }],
    });
    const [hour] = hoursOf('2025-03-10', '2025-03-11').slice(12, 13);
    expect(r.s.values[0]).toBeCloseTo((heatA(hour!) + HEAT_B + HEAT_C) / 200, 9);
  });

  it('LAST_PERIOD and LAST_YEAR align bucket by bucket, and stay inside my tenancy', async () => {
    const r = await series({
      resolution: 'DAY',
      periodBegin: '2025-03-10T00:00',
      periodEnd: '2025-03-12T00:00',
      related: ['LAST_PERIOD', 'LAST_YEAR'],
    });
    expect(related(r.s, 'LAST_PERIOD')).toEqual([
      heatAOver('2025-03-08', '2025-03-09'),
      heatAOver('2025-03-09', '2025-03-10'),
    ]);
    expect(related(r.s, 'LAST_YEAR')).toEqual([null, null]);
    // 2 March's previous period is 28 February: the previous tenant's data, so a gap for Alice.
    const edge = await series({ ...day('2025-03-02'), related: ['LAST_PERIOD'] });
    expect(related(edge.s, 'LAST_PERIOD')).toEqual([heatAOver('2025-03-01', '2025-03-02')]);
    const before = await series({ ...day('2025-03-01'), related: ['LAST_PERIOD'] });
    expect(related(before.s, 'LAST_PERIOD')).toEqual([null]);
  });

  it('SOURCE is the property’s own points (outdoor temperature), clipped to my tenancy', async () => {
    const r = await series({
      resolution: 'DAY',
      periodBegin: '2025-02-27T00:00',
      periodEnd: '2025-03-03T00:00',
      objects: [{ kind: 'SOURCE', id: String(fx.propertyId) }],
      quantities: ['outdoor-temperature', 'heat-energy'],
    });
    expect(r.s.values).toEqual([null, null, 3.125, 3.125]);
    expect(r.graphs[0]!.consumption[1]!.values).toEqual([null, null, null, null]);
  });

  it('COST multiplies by the price valid on each day, across a price change', async () => {
    const r = await series({
      graphType: 'COST',
      resolution: 'DAY',
      periodBegin: '2025-03-14T00:00',
      periodEnd: '2025-03-16T00:00',
    });
    expect(r.s.values).toEqual([
      heatAOver('2025-03-14', '2025-03-15') * 0.5,
      heatAOver('2025-03-15', '2025-03-16') * 1,
    ]);
    const month = await series({
      graphType: 'COST',
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    const expected = heatAOver('2025-03-01', '2025-03-15') * 0.5 + heatAOver('2025-03-15', '2025-04-01');
    expect(month.s.values[0]).toBeCloseTo(expected, 9);
  });

  it('CO2 uses the property factor (100 g/kWh)', async () => {
    const r = await series({ ...day('2025-03-10'), graphType: 'CO2' });
    expect(r.s.quantityDescriptor.expressedAs).toBe('co2');
    expect(r.s.values[0]).toBeCloseTo(heatAOver('2025-03-10', '2025-03-11') * 100, 9);
  });

  it('hca: a kWh estimate from the property heat per allocator unit', async () => {
    const r = await series({ ...day('2025-03-10'), quantities: ['hca'], hcaKwhEstimate: true });
    const hours = hoursIn('2025-03-10', '2025-03-11');
    const units = (HCA.aLiving + HCA.aBedroom) * hours;
    expect(r.s.values[0]).toBeCloseTo(units, 9);
    // Every flat here has a heat meter and allocators: March's heat over March's units, whatever day is asked.
    const march = hoursIn('2025-03-01', '2025-04-01');
    const propertyHeat = heatAOver('2025-03-01', '2025-04-01') + (HEAT_B + HEAT_C) * march;
    const propertyUnits = (HCA.aLiving + HCA.aBedroom + HCA.b + HCA.c) * march;
    expect(related(r.s, 'KWH_ESTIMATE')![0]).toBeCloseTo((units * propertyHeat) / propertyUnits, 6);
    expect(r.s.kwhEstimateMethod).toBe('metered-flats');
  });
});

describe('degree days and climate correction', () => {
  it('stores heating degree days (base 17 °C) per day from the outdoor temperature', async () => {
    const rows = await queryRows<{ day: string; dd: string; hours: number }>(
      database.db,
      sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, degree_days::text AS dd, hours FROM property_degree_days
          WHERE property_id = ${fx.propertyId} AND day IN ('2025-03-10', '2025-03-30', '2025-03-31', '2025-02-21') ORDER BY day`,
    );
    expect(rows.map((r) => [r.day, Number(r.dd), Number(r.hours)])).toEqual([
      ['2025-02-21', 7, 24],
      ['2025-03-10', 13.875, 24],
      ['2025-03-30', 13.875, 23],
      ['2025-03-31', 13.75, 24],
    ]);
  });

  it('a month whose degree days equal the normal is unchanged by the normal-year correction', async () => {
    const r = await series({
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
      climateCorrection: { hotWaterShare: 0.3 },
    });
    expect(r.s.climateCorrection).toMatchObject({ applied: 'DEGREE_DAYS', reason: null, hotWaterShare: 0.3 });
    expect(r.s.climateCorrection!.degreeDays).toBeCloseTo(430, 9);
    // The published normal (docs/domain.md): 421 degree days in March.
    expect(r.s.climateCorrection!.normalDegreeDays).toBeCloseTo(421, 9);
    // Corrected day by day: the month is the sum of its corrected days.
    const days = await series({
      resolution: 'DAY',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
      climateCorrection: { hotWaterShare: 0.3 },
    });
    const dayTotal = sum(related(days.s, 'CLIMATE_NORMAL_YEAR')! as number[]);
    expect(related(r.s, 'CLIMATE_NORMAL_YEAR')![0]).toBeCloseTo(dayTotal, 6);
    expect(related(r.s, 'CLIMATE_NORMAL_YEAR')![0]).toBeLessThan(r.s.values[0]!);
  });

  it('a warmer day is corrected up on the space-heating share only', async () => {
    const r = await series(
      {
        ...day('2025-02-21'),
        objects: [{ kind: 'UNIT', id: String(fx.apartmentB) }],
        climateCorrection: { hotWaterShare: 0.25 },
      },
      'bob',
    );
    const normal = 421 / 28;
    const v = HEAT_B * 24;
    expect(related(r.s, 'DEGREE_DAYS')).toEqual([7]);
    expect(related(r.s, 'NORMAL_DEGREE_DAYS')![0]).toBeCloseTo(normal, 9);
    expect(related(r.s, 'CLIMATE_NORMAL_YEAR')![0]).toBeCloseTo(v * (0.25 + 0.75 * (normal / 7)), 9);
  });

  it('an hour gets its share of its day’s degree days (1/23 on the DST day); hours add up to the day; a day without degree days is not corrected', async () => {
    const r = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-10T12:00',
      periodEnd: '2025-03-10T14:00',
      climateCorrection: {},
    });
    expect(related(r.s, 'DEGREE_DAYS')).toEqual([13.875 / 24, 13.875 / 24]);
    const dst = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-30T00:00',
      periodEnd: '2025-03-31T00:00',
      climateCorrection: {},
    });
    expect(related(dst.s, 'DEGREE_DAYS')).toHaveLength(23);
    expect(sum(related(dst.s, 'DEGREE_DAYS') as number[])).toBeCloseTo(13.875, 9);
    const dstDay = await series({ ...day('2025-03-30'), climateCorrection: {} });
    expect(sum(related(dst.s, 'CLIMATE_NORMAL_YEAR') as number[])).toBeCloseTo(
      related(dstDay.s, 'CLIMATE_NORMAL_YEAR')![0]!,
      9,
    );
    // 6 April has no outdoor temperature: its bucket has no degree days and no corrected value.
    const gap = await series({
      resolution: 'DAY',
      periodBegin: '2025-04-05T00:00',
      periodEnd: '2025-04-07T00:00',
      climateCorrection: {},
    });
    // 6 April has no readings at all: nothing measured goes uncorrected, so the correction stands.
    expect(related(gap.s, 'DEGREE_DAYS')).toEqual([7, null]);
    expect(gap.s.values[1]).toBeNull();
    expect(related(gap.s, 'CLIMATE_NORMAL_YEAR')![1]).toBeNull();
    expect(gap.s.climateCorrection!.applied).toBe('DEGREE_DAYS');
  });

  it('reports why no correction applied', async () => {
    const notHeat = await series({
      ...day('2025-03-10'),
      quantities: ['indoor-temperature'],
      climateCorrection: {},
    });
    expect(notHeat.s.climateCorrection).toMatchObject({ applied: 'NONE', reason: 'not_heating_quantity' });
    const noWeather = await series({ ...day('2025-05-10'), climateCorrection: {} });
    expect(noWeather.s.climateCorrection!.applied).toBe('NONE');
    expect(noWeather.s.climateCorrection!.reason).toBe('degree_days_missing');
    const bad = await graph({ ...day('2025-03-10'), climateCorrection: { hotWaterShare: 1.5 } });
    expect(errorCode(bad)).toBe('BAD_USER_INPUT');
  });
});

const KPIS = `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) {
  quantityDescriptor { quantity normalized expressedAs } total previousPeriod previousYear propertyComparison partial
  rooms { label value } meters { object { id kind measurementPoint { room } } value }
  previousYearClimateCorrected totalNormalYear climateCorrection { applied degreeDays normalDegreeDays lastYearDegreeDays }
  kwhEstimate kwhEstimateMethod } }`;

interface Kpi {
  quantityDescriptor: { quantity: string };
  total: number | null;
  previousPeriod: number | null;
  previousYear: number | null;
  propertyComparison: number | null;
  partial: boolean;
  rooms: { label: string; value: number | null }[];
  meters: {
    object: { id: string; kind: string; measurementPoint: { room: string | null } };
    value: number | null;
  }[];
  previousYearClimateCorrected: number | null;
  totalNormalYear: number | null;
  climateCorrection: { applied: string; degreeDays: number | null; normalDegreeDays: number | null } | null;
  kwhEstimate: number | null;
  kwhEstimateMethod: string | null;
}

async function kpis(input: Record<string, unknown>, who: Who = 'bob') {
  return gql<{ unitQuantityKpis: Kpi[] }>(
    api.tenant,
    KPIS,
    { input: { unitId: String(fx.apartmentB), quantities: ['heat-energy'], ...input } },
    tokens[who],
  );
}

describe('unitQuantityKpis', () => {
  const propertyMarchPerM2 = () =>
    sum(
      daysOf('2025-03-01', '2025-04-01').map(
        (d) => (heatAOver(d, nextDay(d)) + (HEAT_B + HEAT_C) * hoursIn(d, nextDay(d))) / 200,
      ),
    );

  it('total, previous period, previous year and property comparison for March', async () => {
    const r = await kpis({ periodBegin: '2025-03-01', periodEnd: '2025-03-31', climateCorrection: {} });
    expect(r.errors).toBeUndefined();
    const [k] = r.data!.unitQuantityKpis;
    expect(k!.total).toBe(HEAT_B * 743);
    // 29 January to 28 February: data from 20 February only.
    expect(k!.previousPeriod).toBe(HEAT_B * 24 * 9);
    expect(k!.previousYear).toBeNull();
    expect(k!.propertyComparison).toBeCloseTo(propertyMarchPerM2() * AREA.b, 6);
    expect(k!.partial).toBe(false);
    expect(k!.meters).toHaveLength(1);
    expect(k!.meters[0]!.value).toBe(HEAT_B * 743);
    expect(k!.rooms).toEqual([]);
    expect(k!.climateCorrection).toMatchObject({ applied: 'DEGREE_DAYS' });
    // The same day-by-day correction as the graph's: equal to its March bar.
    const month = await series(
      {
        resolution: 'MONTH',
        periodBegin: '2025-03-01T00:00',
        periodEnd: '2025-04-01T00:00',
        objects: [{ kind: 'UNIT', id: String(fx.apartmentB) }],
        climateCorrection: {},
      },
      'bob',
    );
    expect(k!.totalNormalYear).toBeCloseTo(related(month.s, 'CLIMATE_NORMAL_YEAR')![0]!, 6);
    expect(k!.previousYearClimateCorrected).toBeNull();
  });

  it('COST across the price change equals consumption times the day’s price', async () => {
    const r = await kpis({ periodBegin: '2025-03-10', periodEnd: '2025-03-20', graphType: 'COST' });
    const expected =
      HEAT_B * (hoursIn('2025-03-10', '2025-03-15') * 0.5 + hoursIn('2025-03-15', '2025-03-21') * 1);
    expect(r.data!.unitQuantityKpis[0]!.total).toBeCloseTo(expected, 9);
  });

  it('hca rooms and meters, with a kWh estimate', async () => {
    const r = await kpis(
      {
        unitId: String(fx.apartmentA),
        quantities: ['hca'],
        periodBegin: '2025-03-10',
        periodEnd: '2025-03-10',
        hcaKwhEstimate: true,
      },
      'alice',
    );
    expect(r.errors).toBeUndefined();
    const [k] = r.data!.unitQuantityKpis;
    expect(k!.total).toBe((HCA.aLiving + HCA.aBedroom) * 24);
    expect(k!.rooms).toEqual([
      { label: 'Bedroom', value: HCA.aBedroom * 24 },
      { label: 'Living room', value: HCA.aLiving * 24 },
    ]);
    expect(k!.meters.map((m) => m.value)).toEqual([HCA.aBedroom * 24, HCA.aLiving * 24]);
    // March's kWh per unit (every flat has both meters), not the asked day's.
    const march = hoursIn('2025-03-01', '2025-04-01');
    const heat = heatAOver('2025-03-01', '2025-04-01') + (HEAT_B + HEAT_C) * march;
    expect(k!.kwhEstimate).toBeCloseTo(
      (k!.total! * heat) / ((HCA.aLiving + HCA.aBedroom + HCA.b + HCA.c) * march),
      6,
    );
    expect(k!.kwhEstimateMethod).toBe('metered-flats');
  });

  it('a period still running is partial', async () => {
    const today = todayInCopenhagen().toString();
    const r = await kpis({ periodBegin: today, periodEnd: today });
    expect(r.data!.unitQuantityKpis[0]!.partial).toBe(true);
    expect(r.data!.unitQuantityKpis[0]!.total).toBeNull();
  });
});

const TABLE = `query ($table: TenantTableInput!) { tenantTable(table: $table) {
  compareWith partial quantityDescriptors { quantity }
  rows { label object { id kind } values comparisonValues } } }`;

describe('tenantTable', () => {
  it('rows per room with the last period, and with the property split by the row’s share', async () => {
    const base = {
      unitId: String(fx.apartmentA),
      quantities: ['hca', 'heat-energy'],
      periodBegin: '2025-03-10',
      periodEnd: '2025-03-11',
      rows: 'ROOM',
    };
    const r = await gql<{
      tenantTable: {
        compareWith: string;
        rows: {
          label: string | null;
          object: { kind: string };
          values: (number | null)[];
          comparisonValues: (number | null)[];
        }[];
      };
    }>(api.tenant, TABLE, { table: base }, tokens.alice);
    expect(r.errors).toBeUndefined();
    const t = r.data!.tenantTable;
    expect(t.compareWith).toBe('LAST_PERIOD');
    expect(t.rows.map((row) => row.label)).toEqual(['Bedroom', 'Living room', null]);
    expect(t.rows[0]!.values).toEqual([HCA.aBedroom * 48, null]);
    expect(t.rows[0]!.comparisonValues).toEqual([HCA.aBedroom * 48, null]);
    expect(t.rows[2]!.values).toEqual([null, heatAOver('2025-03-10', '2025-03-12')]);
    expect(t.rows[2]!.comparisonValues).toEqual([null, heatAOver('2025-03-08', '2025-03-10')]);
    const p = await gql<{ tenantTable: { rows: { comparisonValues: (number | null)[] }[] } }>(
      api.tenant,
      TABLE,
      { table: { ...base, compareWith: 'PROPERTY' } },
      tokens.alice,
    );
    const propertyHcaPerM2 = ((HCA.aLiving + HCA.aBedroom + HCA.b + HCA.c) * 48) / 200;
    const share = HCA.aBedroom / (HCA.aBedroom + HCA.aLiving);
    expect(p.data!.tenantTable.rows[0]!.comparisonValues[0]).toBeCloseTo(
      propertyHcaPerM2 * AREA.a * share,
      6,
    );
  });

  it('rows per meter are MPOINT objects', async () => {
    const r = await gql<{
      tenantTable: { rows: { object: { id: string; kind: string }; values: (number | null)[] }[] };
    }>(
      api.tenant,
      TABLE,
      {
        table: {
          unitId: String(fx.apartmentA),
          quantities: ['hca'],
          periodBegin: '2025-03-10',
          periodEnd: '2025-03-10',
        },
      },
      tokens.alice,
    );
    expect(
      r.data!.tenantTable.rows.map((row) => [row.object.kind, Number(row.object.id), row.values[0]]),
    ).toEqual([
      ['MPOINT', fx.points.hcaABedroom, HCA.aBedroom * 24],
      ['MPOINT', fx.points.hcaALiving, HCA.aLiving * 24],
    ]);
  });
});

describe('prices, fixed charges, projection', () => {
  it('quantityPrices lists the prices valid in the period', async () => {
    const q = `query ($input: QuantityPricesInput!) { quantityPrices(input: $input) { quantity price currency validFrom validTo } }`;
    const march = await gql<{ quantityPrices: unknown[] }>(
      api.tenant,
      q,
      { input: { unitId: String(fx.apartmentA), periodBegin: '2025-03-01', periodEnd: '2025-03-31' } },
      tokens.alice,
    );
    expect(march.data!.quantityPrices).toEqual([
      {
        quantity: 'heat-energy',
        price: 0.5,
        currency: 'DKK',
        validFrom: '2025-01-01',
        validTo: '2025-03-15',
      },
      { quantity: 'heat-energy', price: 1, currency: 'DKK', validFrom: '2025-03-15', validTo: null },
    ]);
    const april = await gql<{ quantityPrices: unknown[] }>(
      api.tenant,
      q,
      { input: { unitId: String(fx.apartmentA), periodBegin: '2025-03-15', periodEnd: '2025-04-30' } },
      tokens.alice,
    );
    expect(april.data!.quantityPrices).toHaveLength(1);
  });

  it('fixedCharges spreads yearly amounts per day, inside the tenancy', async () => {
    const q = `query ($input: FixedChargesInput!) { fixedCharges(input: $input) { timestamps totals charges { kind amountPerYear values } } }`;
    const r = await gql<{
      fixedCharges: {
        timestamps: string[];
        totals: (number | null)[];
        charges: { values: (number | null)[] }[];
      };
    }>(
      api.tenant,
      q,
      {
        input: {
          unitId: String(fx.apartmentA),
          periodBegin: '2025-02-01',
          periodEnd: '2025-07-31',
          resolution: 'MONTH',
        },
      },
      tokens.alice,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.fixedCharges.timestamps).toHaveLength(6);
    // 365/year is 1 a day until 1 July, then 730/year is 2 a day; February is before Alice's tenancy.
    expect(r.data!.fixedCharges.totals).toEqual([null, 31, 30, 31, 30, 62]);
  });

  it('consumptionProjection: this month at the pace so far', async () => {
    const q = `query ($input: ProjectionInput!) { consumptionProjection(input: $input) {
      periodBegin periodEnd daysElapsed daysTotal soFar costSoFar projected projectedCost fixedCharges currency method } }`;
    const r = await gql<{ consumptionProjection: Record<string, unknown>[] }>(
      api.tenant,
      q,
      {
        input: {
          unitId: String(fx.apartmentB),
          quantities: ['heat-energy'],
          span: 'MONTH',
          asOf: '2025-03-11',
        },
      },
      tokens.bob,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.consumptionProjection[0]).toEqual({
      periodBegin: '2025-03-01',
      periodEnd: '2025-03-31',
      daysElapsed: 10,
      daysTotal: 31,
      soFar: 720,
      costSoFar: 360,
      projected: 72 * 31,
      projectedCost: 36 * 31,
      fixedCharges: 31,
      currency: 'DKK',
      method: 'linear-daily-average',
    });
  });
});

describe('readoutMinMax', () => {
  const q = `query ($t: Int!, $m: String!, $q: String!, $f: String!, $to: String!) {
    readoutMinMax(tenancyId: $t, meterNumber: $m, quantity: $q, fromDate: $f, toDate: $to) {
      meterNumber quantity firstReadoutTimestamp firstReadoutValue lastReadoutTimestamp lastReadoutValue } }`;
  it('last minus first readout equals the summed consumption between them (no meter swap)', async () => {
    const r = await gql<{
      readoutMinMax: {
        firstReadoutTimestamp: string;
        firstReadoutValue: number;
        lastReadoutTimestamp: string;
        lastReadoutValue: number;
      };
    }>(
      api.tenant,
      q,
      { t: fx.tenancyA, m: 'M-HEAT-A', q: 'heat-energy', f: '2025-03-01', to: '2025-03-31' },
      tokens.alice,
    );
    expect(r.errors).toBeUndefined();
    const m = r.data!.readoutMinMax;
    expect(m.firstReadoutTimestamp).toBe('2025-03-01T00:00:00+01:00');
    expect(m.firstReadoutValue).toBe(10000);
    expect(m.lastReadoutTimestamp).toBe('2025-03-31T23:00:00+02:00');
    const hourly = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-03-31T23:00',
    });
    expect(m.lastReadoutValue - m.firstReadoutValue).toBeCloseTo(sum(hourly.s.values as number[]), 9);
  });
  it('no readout in the range gives null', async () => {
    const r = await gql(
      api.tenant,
      q,
      { t: fx.tenancyA, m: 'M-HEAT-A', q: 'heat-energy', f: '2025-05-01', to: '2025-05-31' },
      tokens.alice,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ readoutMinMax: null });
  });
});

describe('another tenant’s ids are refused everywhere, like unknown ids', () => {
  const unknown = '999999';
  const cases: [
    string,
    () => Promise<{ errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown }>,
  ][] = [
    [
      'tenantGraph MPOINT',
      () =>
        graph(
          {
            ...day('2025-03-10'),
            objects: [{ kind: 'MPOINT', id: String(fx.points.hcaALiving) }],
            quantities: ['hca'],
          },
          'bob',
        ),
    ],
    [
      'tenantGraph PROPERTY of another property',
      () => graph({ ...day('2025-03-10'), objects: [{ kind: 'PROPERTY', id: String(fx.property2) }] }),
    ],
    [
      'tenantGraph SOURCE of another property',
      () => graph({ ...day('2025-03-10'), objects: [{ kind: 'SOURCE', id: String(fx.property2) }] }),
    ],
    [
      'tenantGraph PROPERTY scaled to another tenant’s unit',
      () =>
        graph(
          {
            ...day('2025-03-10'),
            objects: [{ kind: 'PROPERTY', id: String(fx.propertyId), scaleToUnitId: String(fx.apartmentA) }],
          },
          'bob',
        ),
    ],
    [
      'tenantGraph PROPERTY unknown',
      () => graph({ ...day('2025-03-10'), objects: [{ kind: 'PROPERTY', id: unknown }] }),
    ],
    [
      'unitQuantityKpis',
      () =>
        kpis({ unitId: String(fx.apartmentA), periodBegin: '2025-03-01', periodEnd: '2025-03-31' }, 'bob'),
    ],
    [
      'unitQuantityKpis unknown',
      () => kpis({ unitId: unknown, periodBegin: '2025-03-01', periodEnd: '2025-03-31' }, 'bob'),
    ],
    [
      'unitQuantityKpis other property',
      () =>
        kpis({ unitId: String(fx.apartmentB), periodBegin: '2025-03-01', periodEnd: '2025-03-31' }, 'dave'),
    ],
    [
      'tenantTable',
      () =>
        gql(
          api.tenant,
          TABLE,
          {
            table: {
              unitId: String(fx.apartmentA),
              quantities: ['hca'],
              periodBegin: '2025-03-01',
              periodEnd: '2025-03-31',
            },
          },
          tokens.bob,
        ),
    ],
    [
      'quantityPrices',
      () =>
        gql(
          api.tenant,
          'query ($i: QuantityPricesInput!) { quantityPrices(input: $i) { price } }',
          { i: { unitId: String(fx.apartmentB), periodBegin: '2025-03-01', periodEnd: '2025-03-31' } },
          tokens.dave,
        ),
    ],
    [
      'fixedCharges',
      () =>
        gql(
          api.tenant,
          'query ($i: FixedChargesInput!) { fixedCharges(input: $i) { totals } }',
          {
            i: {
              unitId: String(fx.apartmentA),
              periodBegin: '2025-03-01',
              periodEnd: '2025-03-31',
              resolution: 'MONTH',
            },
          },
          tokens.bob,
        ),
    ],
    [
      'consumptionProjection',
      () =>
        gql(
          api.tenant,
          'query ($i: ProjectionInput!) { consumptionProjection(input: $i) { soFar } }',
          { i: { unitId: String(fx.apartmentA), quantities: ['heat-energy'], span: 'MONTH' } },
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax: another tenancy',
      () =>
        gql(
          api.tenant,
          'query { readoutMinMax(tenancyId: ' +
            fx.tenancyA +
            ', meterNumber: "M-HEAT-A", quantity: "heat-energy", fromDate: "2025-03-01", toDate: "2025-03-31") { lastReadoutValue } }',
          {},
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax: another tenant’s meter on my tenancy',
      () =>
        gql(
          api.tenant,
          'query { readoutMinMax(tenancyId: ' +
            fx.tenancyB +
            ', meterNumber: "M-HEAT-A", quantity: "heat-energy", fromDate: "2025-03-01", toDate: "2025-03-31") { lastReadoutValue } }',
          {},
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax: unknown tenancy',
      () =>
        gql(
          api.tenant,
          'query { readoutMinMax(tenancyId: 999999, meterNumber: "M-HEAT-B", quantity: "heat-energy", fromDate: "2025-03-01", toDate: "2025-03-31") { lastReadoutValue } }',
          {},
          tokens.bob,
        ),
    ],
  ];
  it.each(cases)('%s', async (_name, call) => {
    const r = await call();
    expect(errorCode(r)).toBe('FORBIDDEN');
    expect(r.errors![0]!.message).toBe('Adgang ikke tilladt');
    // Nullable fields (readoutMinMax) come back as null next to the error; nothing else is returned.
    expect(Object.values((r.data ?? {}) as Record<string, unknown>).every((v) => v === null)).toBe(true);
  });
});

describe('SQL statements per request', () => {
  async function count(call: () => Promise<unknown>): Promise<number> {
    statements = 0;
    await call();
    return statements;
  }
  it('a fixed, small number whatever the period length', async () => {
    const graphOf = (resolution: string, from: string, to: string) => () =>
      graph({
        resolution,
        periodBegin: `${from}T00:00`,
        periodEnd: `${to}T00:00`,
        related: ['PROPERTY', 'LAST_PERIOD', 'LAST_YEAR'],
        climateCorrection: {},
      });
    const shortGraph = await count(graphOf('DAY', '2025-03-10', '2025-03-11'));
    const longGraph = await count(graphOf('DAY', '2024-03-10', '2025-03-11'));
    const yearByMonth = await count(graphOf('MONTH', '2025-01-01', '2026-01-01'));
    expect(longGraph).toBe(shortGraph);
    expect(yearByMonth).toBe(shortGraph);
    // tenantGraph alone: the caller's units and points, which also checks that the caller is still an active
    // user (issue 8; callerCheckPlugin leaves that to this statement), then the series.
    expect(shortGraph).toBe(2);
    const hcaYear = await count(() =>
      graph({
        resolution: 'MONTH',
        periodBegin: '2025-01-01T00:00',
        periodEnd: '2026-01-01T00:00',
        quantities: ['hca', 'heat-energy'],
        hcaKwhEstimate: true,
        related: ['PROPERTY'],
      }),
    );
    // The hca kWh estimate adds one statement (the property's allocator months), whatever the period.
    expect(hcaYear).toBe(shortGraph + 1);
    const shortKpi = await count(() =>
      kpis({ periodBegin: '2025-03-10', periodEnd: '2025-03-10', climateCorrection: {} }),
    );
    const longKpi = await count(() =>
      kpis({ periodBegin: '2023-03-10', periodEnd: '2025-12-31', climateCorrection: {} }),
    );
    expect(longKpi).toBe(shortKpi);
    expect(shortKpi).toBeLessThanOrEqual(5);
    const tableOf = (periodEnd: string) => () =>
      gql(
        api.tenant,
        TABLE,
        {
          table: {
            unitId: String(fx.apartmentA),
            quantities: ['hca', 'heat-energy'],
            periodBegin: '2025-03-01',
            periodEnd,
            rows: 'ROOM',
          },
        },
        tokens.alice,
      );
    expect(await count(tableOf('2025-03-01'))).toBe(await count(tableOf('2025-12-31')));
    expect(await count(tableOf('2025-03-01'))).toBeLessThanOrEqual(4);
  });
});

describe('bad input gets BAD_USER_INPUT and no data', () => {
  const marchTable = (table: Record<string, unknown>) =>
    gql(
      api.tenant,
      TABLE,
      {
        table: {
          unitId: String(fx.apartmentB),
          periodBegin: '2025-03-01',
          periodEnd: '2025-03-31',
          ...table,
        },
      },
      tokens.bob,
    );
  const cases: [
    string,
    () => Promise<{ errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown }>,
  ][] = [
    ['KPIs with the period reversed', () => kpis({ periodBegin: '2025-03-10', periodEnd: '2025-03-01' })],
    ['KPIs with an impossible date', () => kpis({ periodBegin: '2025-02-30', periodEnd: '2025-03-01' })],
    ['KPIs over more than three years', () => kpis({ periodBegin: '2020-01-01', periodEnd: '2025-03-01' })],
    [
      'KPIs: COST of an averaged quantity',
      () =>
        kpis({
          quantities: ['indoor-temperature'],
          graphType: 'COST',
          periodBegin: '2025-03-01',
          periodEnd: '2025-03-02',
        }),
    ],
    ['tenantTable with an unknown quantity', () => marchTable({ quantities: ['unobtainium'] })],
    [
      'fixedCharges per DAY',
      () =>
        gql(
          api.tenant,
          'query ($i: FixedChargesInput!) { fixedCharges(input: $i) { totals } }',
          {
            i: {
              unitId: String(fx.apartmentB),
              periodBegin: '2025-03-01',
              periodEnd: '2025-03-31',
              resolution: 'DAY',
            },
          },
          tokens.bob,
        ),
    ],
    [
      'a projection for a WEEK',
      () =>
        gql(
          api.tenant,
          'query ($i: ProjectionInput!) { consumptionProjection(input: $i) { soFar } }',
          { i: { unitId: String(fx.apartmentB), quantities: ['heat-energy'], span: 'WEEK' } },
          tokens.bob,
        ),
    ],
    [
      'tenantTable: CO2 of an averaged quantity',
      () => marchTable({ quantities: ['heat-energy', 'indoor-relative-humidity'], graphType: 'CO2' }),
    ],
    [
      'a projection of an averaged quantity',
      () =>
        gql(
          api.tenant,
          'query ($i: ProjectionInput!) { consumptionProjection(input: $i) { soFar } }',
          { i: { unitId: String(fx.apartmentB), quantities: ['indoor-temperature'], span: 'MONTH' } },
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax with fromDate after toDate',
      () =>
        gql(
          api.tenant,
          `query { readoutMinMax(tenancyId: ${fx.tenancyB}, meterNumber: "M-HEAT-B", quantity: "heat-energy", fromDate: "2025-03-31", toDate: "2025-03-01") { lastReadoutValue } }`,
          {},
          tokens.bob,
        ),
    ],
    [
      'quantityPrices with a non-numeric unit id',
      () =>
        gql(
          api.tenant,
          'query ($i: QuantityPricesInput!) { quantityPrices(input: $i) { price } }',
          { i: { unitId: '1 OR 1=1', periodBegin: '2025-03-01', periodEnd: '2025-03-31' } },
          tokens.bob,
        ),
    ],
  ];
  it.each(cases)('%s', async (_name, call) => {
    const r = await call();
    expect(errorCode(r)).toBe('BAD_USER_INPUT');
    expect(Object.values((r.data ?? {}) as Record<string, unknown>).every((v) => v === null)).toBe(true);
  });
});
