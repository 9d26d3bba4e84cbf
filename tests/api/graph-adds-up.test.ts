/**
 * Graphs that add up (issue 22), a property-based test over random periods: at every resolution the UI offers
 * for a period, the bars (first and last clipped to the period) sum to the KPI total, and the climate-corrected
 * bars sum to the KPI's corrected total. On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolution, spanType } from '../../src/lib/periods.ts';
import { resolutionChoices } from '../../src/lib/resolutionChoices.ts';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { type ConsumptionFixture, seedConsumptionFixture } from './consumption.fixture.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: ConsumptionFixture;
let token = '';

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedConsumptionFixture(database.db);
  api = await createTestApi(database);
  token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.bob, 300)).token;
});
afterAll(async () => {
  await database?.close();
});

const GRAPH = `query ($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps partial
  graphs { consumption { values relatedValues { type values } climateCorrection { applied reason } } } } }`;
const KPIS = `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) {
  total totalNormalYear previousYear previousYearClimateCorrected climateCorrection { applied reason } } }`;

const SERVER: Record<Resolution, string> = {
  hourly: 'HOUR',
  daily: 'DAY',
  weekly: 'WEEK',
  monthly: 'MONTH',
  yearly: 'YEAR',
};
const RULED: Record<string, Resolution> = { hour: 'hourly', day: 'daily', week: 'weekly', month: 'monthly' };

const sum = (xs: readonly (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);
const FIRST = Temporal.PlainDate.from('2025-02-10');

describe(`graphs add up to the KPI (${testEngine})`, () => {
  it('bars and corrected bars sum to the KPI totals for random periods at every offered resolution', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 290 }),
        fc.integer({ min: 0, max: 400 }),
        async (start, length) => {
          const startDate = FIRST.add({ days: start });
          const endDate = startDate.add({ days: Math.min(length, 1099) });
          const period = { startDate: startDate.toString(), endDate: endDate.toString() };
          const kpi = await gql<{ unitQuantityKpis: Record<string, unknown>[] }>(
            api.tenant,
            KPIS,
            {
              input: {
                unitId: String(fx.apartmentB),
                quantities: ['heat-energy'],
                periodBegin: period.startDate,
                periodEnd: period.endDate,
                climateCorrection: {},
              },
            },
            token,
          );
          expect(kpi.errors).toBeUndefined();
          const k = kpi.data!.unitQuantityKpis[0]! as {
            total: number | null;
            totalNormalYear: number | null;
            climateCorrection: { applied: string; reason: string | null };
          };
          const ruled = RULED[spanType(period, true)] ?? 'daily';
          for (const resolution of resolutionChoices(period, true, ruled)) {
            const r = await gql<{
              tenantGraph: {
                timestamps: string[];
                partial: boolean[];
                graphs: {
                  consumption: {
                    values: (number | null)[];
                    relatedValues: { type: string; values: (number | null)[] }[];
                    climateCorrection: { applied: string; reason: string | null };
                  }[];
                }[];
              };
            }>(
              api.tenant,
              GRAPH,
              {
                graph: {
                  graphType: 'HOURLY_VALUES',
                  resolution: SERVER[resolution],
                  periodBegin: `${period.startDate}T00:00`,
                  periodEnd: `${endDate.add({ days: 1 })}T00:00`,
                  objects: [{ kind: 'UNIT', id: String(fx.apartmentB) }],
                  quantities: ['heat-energy'],
                  climateCorrection: {},
                },
              },
              token,
            );
            expect(r.errors, `${resolution} ${JSON.stringify(period)}`).toBeUndefined();
            const s = r.data!.tenantGraph.graphs[0]!.consumption[0]!;
            const where = `${resolution} ${period.startDate}..${period.endDate}`;
            expect(sum(s.values), where).toBeCloseTo(k.total ?? 0, 6);
            expect(`${s.climateCorrection.applied} ${s.climateCorrection.reason}`, where).toBe(
              `${k.climateCorrection.applied} ${k.climateCorrection.reason}`,
            );
            const corrected = s.relatedValues.find((v) => v.type === 'CLIMATE_NORMAL_YEAR')?.values;
            if (k.climateCorrection.applied === 'DEGREE_DAYS')
              expect(sum(corrected ?? []), where).toBeCloseTo(k.totalNormalYear ?? 0, 6);
            else
              expect(
                (corrected ?? []).every((v) => v === null),
                where,
              ).toBe(true);
          }
        },
      ),
      { numRuns: 12, seed: 22 },
    );
  }, 240_000);
});
