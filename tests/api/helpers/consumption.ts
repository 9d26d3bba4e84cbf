/**
 * What the consumption API test files share (consumption-graph, consumption-kpis, consumption-refusals): the exactly
 * known dataset of tests/api/consumption.fixture.ts in a fresh database per file, tokens for its tenants, the
 * documents and calls of tenantGraph, unitQuantityKpis and tenantTable, and a count of SQL statements.
 */
import type { Logger } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, expect } from 'vitest';
import { signAccessToken } from '../../../src/server/auth/tokens.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { type ConsumptionFixture, seedConsumptionFixture } from '../consumption.fixture.ts';
import { createTestApi, gql, type TestApi } from './api.ts';
import { freshDatabase } from './db.ts';
import { dataHoursOf, heatA } from './fixtures.ts';

// Set by setUpConsumptionFixture's beforeAll; importers read them through ES live bindings.
export let database: Database;
export let api: TestApi;
export let fx: ConsumptionFixture;
export const tokens: Record<'alice' | 'bob' | 'dave', string> = { alice: '', bob: '', dave: '' };
export type Who = keyof typeof tokens;

/** Counts every SQL statement the Drizzle session runs. */
let statements = 0;
const counter: Logger = {
  logQuery() {
    statements++;
  },
};

/** The fixture in a fresh database for the calling test file, with its tenants' tokens; closed after the file. */
export function setUpConsumptionFixture(): void {
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
}

/** The SQL statements one call runs. */
export async function statementsOf(call: () => Promise<unknown>): Promise<number> {
  statements = 0;
  await call();
  return statements;
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** A's heat over local dates [from, to) (all fixture hours, not clipped). */
export const heatAOver = (from: string, to: string) => sum(dataHoursOf(from, to).map(heatA));
export const hoursIn = (from: string, to: string) => dataHoursOf(from, to).length;
/** Days of [from, to) as YYYY-MM-DD. */
export function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = Temporal.PlainDate.from(from); d.toString() < to; d = d.add({ days: 1 }))
    out.push(d.toString());
  return out;
}
export const nextDay = (d: string) => Temporal.PlainDate.from(d).add({ days: 1 }).toString();

const GRAPH = `query ($graph: TenantGraphInput!) {
  tenantGraph(graph: $graph) {
    timestamps partial
    graphs { type object { id kind }
      consumption { quantityDescriptor { quantity normalized expressedAs } values relatedValues { type values }
        climateCorrection { applied reason baseTemperature hotWaterShare degreeDays lastYearDegreeDays normalDegreeDays }
        kwhEstimateMethod } }
  }
}`;

export interface Series {
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

export async function graph(input: Record<string, unknown>, who: Who = 'alice') {
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
export async function series(input: Record<string, unknown>, who: Who = 'alice') {
  const r = await graph(input, who);
  expect(r.errors).toBeUndefined();
  const g = r.data!.tenantGraph;
  return { ...g, s: g.graphs[0]!.consumption[0]! };
}
export const related = (s: Series, type: string) => s.relatedValues.find((r) => r.type === type)?.values;
export const day = (d: string) => ({
  resolution: 'DAY',
  periodBegin: `${d}T00:00`,
  periodEnd: `${nextDay(d)}T00:00`,
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

export async function kpis(input: Record<string, unknown>, who: Who = 'bob') {
  return gql<{ unitQuantityKpis: Kpi[] }>(
    api.tenant,
    KPIS,
    { input: { unitId: String(fx.apartmentB), quantities: ['heat-energy'], ...input } },
    tokens[who],
  );
}

export const TABLE = `query ($table: TenantTableInput!) { tenantTable(table: $table) {
  compareWith partial quantityDescriptors { quantity }
  rows { label object { id kind } values comparisonValues } } }`;
