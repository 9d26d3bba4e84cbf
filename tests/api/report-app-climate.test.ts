/**
 * One climate correction (issue 22): for each of 12 months, the monthly report's "last year at this year's
 * weather" and its heat equal the app's previousYearClimateCorrected and total for the same month, on two years
 * of hourly heat and outdoor temperature with a seasonal swing (summer days under 0.5 degree days stay as
 * measured). On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  measurementPoints,
  monthlyReports,
  propertyReportSettings,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { generateMonthlyReports } from '../../src/server/reports/generate.ts';
import type { MonthlyReport } from '../../src/server/reports/model.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';
import { rollUpHours } from './helpers/rollups.ts';

let database: Database;
let api: TestApi;
let token = '';
let apartmentId = 0;
let tenancyId = 0;
const MONTHS = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);

beforeAll(async () => {
  database = await freshDatabase();
  api = await createTestApi(database);
  const { db } = database;
  const { propertyId, apartmentIds } = await testProperty(db, [{ uniqueId: 'CLIM-1', areaM2: '70' }], 'CLIM');
  apartmentId = apartmentIds[0]!;
  // A hot-water share other than the default, so both sides must read the property's setting.
  await db.insert(propertyReportSettings).values({ propertyId, hotWaterShare: '0.3' });
  const [heat, outdoor] = await db
    .insert(measurementPoints)
    .values([
      {
        propertyId,
        apartmentId,
        quantity: 'heat-energy',
        unit: 'kilo-watt-hour',
        name: 'Heat',
        readingKind: 'register',
      },
      {
        propertyId,
        apartmentId: null,
        quantity: 'outdoor-temperature',
        unit: 'degree-celsius',
        name: 'Outdoor',
        readingKind: 'instantaneous',
      },
    ])
    .returning();
  // Two years of hours: outdoor temperature from about 0 °C in January to 18 °C in July with a daily swing and a
  // different year each year; heat that follows the cold, with some hot water every hour.
  await db.execute(sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT ${outdoor!.id}, h, round((9 - 9 * cos(2 * pi() * (extract(doy FROM h) - 15) / 365)
                                      + 3 * sin(2 * pi() * extract(hour FROM h) / 24)
                                      + CASE WHEN h < '2025-01-01' THEN 1.5 ELSE 0 END)::numeric, 3)
      FROM generate_series('2024-01-01T00:00:00+01:00'::timestamptz, '2025-12-31T23:00:00+01:00'::timestamptz, interval '1 hour') h`);
  await db.execute(sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT ${heat!.id}, h, round((0.15 + greatest(0, 17 - (9 - 9 * cos(2 * pi() * (extract(doy FROM h) - 15) / 365))) * 0.05
                                   * (1 + 0.2 * sin(extract(epoch FROM h) / 7200)))::numeric, 6)
      FROM generate_series('2024-01-01T00:00:00+01:00'::timestamptz, '2025-12-31T23:00:00+01:00'::timestamptz, interval '1 hour') h`);
  await rollUpHours(db, [heat!.id, outdoor!.id]);
  await refreshAllDegreeDays(db);
  const [tenancy] = await db
    .insert(tenancies)
    .values({ apartmentId, tenancyId: 'T-CLIM-1', start: '2023-01-01' })
    .returning();
  tenancyId = tenancy!.id;
  const [user] = await db.insert(users).values({ email: 'clim@test.test', language: 'en' }).returning();
  await db.insert(tenancyMembers).values({ tenancyId, userId: user!.id });
  token = (await signAccessToken('tenant', api.services.keys.tenant, user!, 600)).token;
}, 600_000);
afterAll(async () => {
  await database?.close();
});

/** The flat's heat on one day, from the daily rollups. */
async function heatOf(day: string): Promise<number> {
  const [row] = await queryRows<{ v: string }>(
    database.db,
    sql`SELECT sum(d.sum)::text AS v FROM daily_rollups d JOIN measurement_points mp ON mp.id = d.measurement_point_id
        WHERE mp.apartment_id = ${apartmentId} AND mp.quantity = 'heat-energy' AND d.day = ${day}::date`,
  );
  return Number(row!.v);
}

const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

describe(`report and app climate correction over 12 months (${testEngine})`, () => {
  it("gives the same heat and last year's heat at this year's weather in the report and the app, every month", async () => {
    const compared: string[] = [];
    for (const month of MONTHS) {
      await generateMonthlyReports(database.db, {
        month: `${month}-01`,
        now: new Date('2026-01-05T10:00:00Z'),
        settings: { ttlDays: 30 },
        tenancyId,
      });
      const [row] = await database.db
        .select({ content: monthlyReports.content })
        .from(monthlyReports)
        .where(
          sql`${monthlyReports.tenancyId} = ${tenancyId} AND ${monthlyReports.month} = ${`${month}-01`}`,
        );
      const report = row!.content as MonthlyReport;
      const r = await gql<{
        unitQuantityKpis: {
          total: number;
          previousYear: number;
          previousYearClimateCorrected: number | null;
          climateCorrection: { hotWaterShare: number; degreeDays: number; lastYearDegreeDays: number };
        }[];
      }>(
        api.tenant,
        `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) { total previousYear
          previousYearClimateCorrected climateCorrection { hotWaterShare degreeDays lastYearDegreeDays } } }`,
        {
          input: {
            unitId: String(apartmentId),
            quantities: ['heat-energy'],
            periodBegin: `${month}-01`,
            periodEnd: lastDay(month),
            climateCorrection: {},
          },
        },
        token,
      );
      expect(r.errors).toBeUndefined();
      const app = r.data!.unitQuantityKpis[0]!;
      expect(report.climate.heatQuantity, month).toBe('heat-energy');
      expect(report.climate.hotWaterShare, month).toBe(0.3);
      expect(app.climateCorrection.hotWaterShare, month).toBe(0.3);
      expect(report.climate.heatKwh!, month).toBeCloseTo(app.total, 6);
      // The report's "same month last year" is the calendar month, so February 2024 counts its 29th day; the
      // app's previousYear is the same dates. The correction restates the matching days in both.
      const leapDay = month === '2025-02' ? await heatOf('2024-02-29') : 0;
      expect(report.climate.heatKwhLastYear!, month).toBeCloseTo(app.previousYear + leapDay, 6);
      expect(report.climate.degreeDays!, month).toBeCloseTo(app.climateCorrection.degreeDays, 6);
      expect(report.climate.degreeDaysLastYear!, month).toBeCloseTo(
        app.climateCorrection.lastYearDegreeDays,
        6,
      );
      expect(app.previousYearClimateCorrected, month).not.toBeNull();
      expect(report.climate.correctedLastYearKwh!, month).toBeCloseTo(app.previousYearClimateCorrected!, 6);
      compared.push(month);
    }
    expect(compared).toEqual(MONTHS);
    // The correction does something: winter months differ from the measured last year (last year was 1.5 °C warmer).
    const [january] = await database.db
      .select({ content: monthlyReports.content })
      .from(monthlyReports)
      .where(sql`${monthlyReports.tenancyId} = ${tenancyId} AND ${monthlyReports.month} = '2025-01-01'`);
    const climate = (january!.content as MonthlyReport).climate;
    expect(Math.abs(climate.correctedLastYearKwh! - climate.heatKwhLastYear!)).toBeGreaterThan(1);
  });
});
