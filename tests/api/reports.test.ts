/**
 * The monthly report: generation (figures, idempotence, late readings), lookup by code (found, unknown,
 * malformed, expired) and throttling, on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import {
  accounts,
  apartments,
  measurementPoints,
  monthlyReports,
  prices,
  properties,
  propertyCo2Factors,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { generateMonthlyReports } from '../../src/server/reports/generate.ts';
import { LOOKUP_POINTS, lookUpReport, MISS_COST } from '../../src/server/reports/lookup.ts';
import type { MonthlyReport } from '../../src/server/reports/model.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

const settings = { ttlDays: 30 };
const NOW = new Date('2025-11-05T10:00:00Z');

/** Daily rows for every day of a month: value per day (sum) and `count` hours. */
function daysOf(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

async function daily(database: Database, point: number, month: string, perDay: number, count = 24) {
  for (const day of daysOf(month)) {
    await database.db.execute(sql`INSERT INTO daily_rollups (measurement_point_id, day, sum, min, max, count)
      VALUES (${point}, ${day}, ${perDay}, 0, ${perDay}, ${count})
      ON CONFLICT (measurement_point_id, day) DO UPDATE SET sum = excluded.sum`);
  }
  await monthly(database);
}

/** The monthly rollups of the daily ones, as ingestion keeps them (src/server/ingest/rollups.ts). */
async function monthly(database: Database) {
  await database.db.execute(sql`INSERT INTO monthly_rollups (measurement_point_id, month, sum, min, max, count)
    SELECT measurement_point_id, date_trunc('month', day::timestamp)::date, sum(sum), min(min), max(max), sum(count)
    FROM daily_rollups GROUP BY 1, 2
    ON CONFLICT (measurement_point_id, month) DO UPDATE SET sum = excluded.sum, min = excluded.min,
      max = excluded.max, count = excluded.count`);
}

async function propertyDaily(
  database: Database,
  property: number,
  quantity: string,
  month: string,
  perDay: number,
) {
  for (const day of daysOf(month)) {
    await database.db.execute(sql`INSERT INTO property_daily_rollups
      (property_id, quantity, day, sum, area_m2, per_m2, count, apartments)
      VALUES (${property}, ${quantity}, ${day}, ${perDay}, 200, ${perDay / 200}, 24, 4)`);
  }
}

describe(`monthly reports (${testEngine})`, () => {
  let database: Database;
  let tenancyId: number;
  let heatPoint: number;

  beforeAll(async () => {
    database = await freshDatabase();
    const { db } = database;
    const [account] = await db.insert(accounts).values({ name: 'Boligselskabet Test' }).returning();
    const [property] = await db
      .insert(properties)
      .values({
        accountId: account!.id,
        number: '9001',
        address: 'Rapportvej 1',
        zipcode: '8000',
        city: 'Aarhus C',
        contactPhone: '+45 11 22 33 44',
        contactEmail: 'udlejer@test.test',
      })
      .returning();
    const [apt, empty] = await db
      .insert(apartments)
      .values([
        {
          propertyId: property!.id,
          uniqueId: 'R-1',
          apartment: '1. tv',
          address: 'Rapportvej 1, 1. tv',
          zipcode: '8000',
          city: 'Aarhus C',
          areaM2: '50',
          rooms: 2,
        },
        {
          propertyId: property!.id,
          uniqueId: 'R-2',
          apartment: '1. th',
          address: 'Rapportvej 1, 1. th',
          zipcode: '8000',
          city: 'Aarhus C',
          areaM2: '70',
          rooms: 3,
        },
      ])
      .returning();
    const [tenancy] = await db
      .insert(tenancies)
      .values([
        { apartmentId: apt!.id, tenancyId: 'T-R-1', start: '2024-01-01', billingStart: '2025-01-01' },
        { apartmentId: empty!.id, tenancyId: 'T-R-2', start: '2024-01-01' },
      ])
      .returning();
    tenancyId = tenancy!.id;
    const [user] = await db.insert(users).values({ email: 'ola@test.test', language: 'nb' }).returning();
    await db.insert(tenancyMembers).values({ tenancyId, userId: user!.id });
    const point = (
      quantity: string,
      unit: string,
      apartmentId: number | null,
      readingKind: 'register' | 'instantaneous',
    ) => ({
      propertyId: property!.id,
      apartmentId,
      quantity,
      unit,
      name: quantity,
      readingKind,
    });
    const [heat, hca, outdoor] = await db
      .insert(measurementPoints)
      .values([
        point('heat-energy', 'kilo-watt-hour', apt!.id, 'register'),
        point('hca', 'hca-unit', apt!.id, 'register'),
        point('outdoor-temperature', 'degree-celsius', null, 'instantaneous'),
      ])
      .returning();
    heatPoint = heat!.id;
    await daily(database, heat!.id, '2025-10', 10);
    await daily(database, heat!.id, '2025-09', 5);
    await daily(database, heat!.id, '2024-10', 12);
    await daily(database, hca!.id, '2025-10', 20);
    // Mean 7 °C this October (10 degree days a day), 9 °C last October (8 a day); sum = mean × 24 hours.
    await daily(database, outdoor!.id, '2025-10', 7 * 24);
    await daily(database, outdoor!.id, '2024-10', 9 * 24);
    await propertyDaily(database, property!.id, 'heat-energy', '2025-10', 100);
    await propertyDaily(database, property!.id, 'hca', '2025-10', 40);
    await db.insert(prices).values({
      propertyId: property!.id,
      quantity: 'heat-energy',
      price: '0.8',
      currency: 'DKK',
      validFrom: '2025-01-01',
    });
    await db
      .insert(propertyCo2Factors)
      .values({ propertyId: property!.id, quantity: 'heat-energy', gramPerQuantityUnit: '62' });
  });
  afterAll(async () => {
    await database?.close();
  });

  const stored = async () => {
    const [row] = await database.db
      .select()
      .from(monthlyReports)
      .where(and(eq(monthlyReports.tenancyId, tenancyId), eq(monthlyReports.month, '2025-10-01')));
    return row!;
  };

  it('makes one report per tenancy with data, with the figures the rules ask for', async () => {
    await refreshAllDegreeDays(database.db);
    const result = await generateMonthlyReports(database.db, { month: '2025-10-01', now: NOW, settings });
    expect(result).toMatchObject({ created: 1, updated: 0, unchanged: 0, skipped: 1 });
    const row = await stored();
    expect(row.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.language).toBe('nb');
    expect(row.expiresAt.toISOString()).toBe(new Date(NOW.getTime() + 30 * 86_400_000).toISOString());
    const report = row.content as MonthlyReport;
    const heat = report.quantities.find((q) => q.quantity === 'heat-energy')!;
    expect(heat).toMatchObject({
      month: 310,
      previousMonth: 150,
      sameMonthLastYear: 372,
      perM2: 6.2,
      propertyPerM2: 15.5,
      cost: 248,
    });
    // Rounding happens once, on display: the snapshot keeps 310 kWh × 62 g.
    expect(heat.co2Kg).toBeCloseTo(19.22, 9);
    // hca: the flat has both a heat meter and allocators, so October's kWh per unit is its heat over its units
    // (310 kWh / 620 units): 620 units × 0.5 = 310 kWh (src/lib/allocators.ts).
    const hca = report.quantities.find((q) => q.quantity === 'hca')!;
    expect(hca.month).toBe(620);
    expect(hca.kwhEstimate).toEqual({
      month: 310,
      previousMonth: null,
      sameMonthLastYear: null,
      method: 'metered-flats',
      kwhPerUnit: 0.5,
    });
    // Degree days: 31 × 10 and 31 × 8. Last year's 12 kWh a day at this year's weather, the space-heating share
    // (1 − 0.25, the property's default) only, day by day as the app: 12 × (0.25 + 0.75 × 10/8) × 31 = 441.75.
    expect(report.climate).toMatchObject({
      baseC: 17,
      hotWaterShare: 0.25,
      degreeDays: 310,
      degreeDaysLastYear: 248,
      heatQuantity: 'heat-energy',
      heatKwh: 310,
      heatKwhLastYear: 372,
    });
    expect(report.climate.correctedLastYearKwh).toBeCloseTo(441.75, 9);
    expect(report.climate.correctedChangePercent).toBeCloseTo(((310 - 441.75) / 441.75) * 100, 9);
    // Cost so far from the billing start (January): September and October heat at 0.80 DKK.
    expect(report.cost).toEqual({ currency: 'DKK', month: 248, soFar: 368, from: '2025-01-01' });
    expect(report.supply).toMatchObject({ fuelMix: [], co2GramPerKwh: 62, primaryEnergyFactor: null });
    expect(report.bodies.dispute[0]).toMatchObject({ kind: 'rent-tribunal' });
    expect(report.bodies.consumer).toMatchObject({ name: 'Forbrugerrådet Tænk', url: 'https://taenk.dk' });
    expect(report.landlord).toEqual({
      name: 'Boligselskabet Test',
      phone: '+45 11 22 33 44',
      email: 'udlejer@test.test',
    });
  });

  it('writes nothing on a second run, and refreshes figures after late readings while keeping the code', async () => {
    const before = await stored();
    const again = await generateMonthlyReports(database.db, { month: '2025-10-01', now: NOW, settings });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    await database.db.execute(
      sql`UPDATE daily_rollups SET sum = 20 WHERE measurement_point_id = ${heatPoint} AND day = '2025-10-31'`,
    );
    await monthly(database);
    const late = await generateMonthlyReports(database.db, {
      month: '2025-10-01',
      now: new Date('2025-11-20T00:00:00Z'),
      settings,
    });
    expect(late).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const after = await stored();
    expect(after.code).toBe(before.code);
    expect(after.expiresAt.getTime()).toBe(before.expiresAt.getTime());
    expect((after.content as MonthlyReport).quantities[0]!.month).toBe(320);
    const count = await database.db.select({ id: monthlyReports.id }).from(monthlyReports);
    expect(count).toHaveLength(1);
  });

  it('finds a report by its code only, and gives unknown, malformed and expired codes the same answer', async () => {
    const { code, expiresAt } = await stored();
    const found = await lookUpReport(database.db, code, 'client-a', NOW);
    expect(found.status).toBe('found');
    if (found.status === 'found') expect(found.report.tenancy.address).toBe('Rapportvej 1, 1. tv');
    const flipped = (code[0] === 'A' ? 'B' : 'A') + code.slice(1);
    expect(await lookUpReport(database.db, flipped, 'client-a', NOW)).toEqual({ status: 'unavailable' });
    expect(await lookUpReport(database.db, "x' OR 1=1 --", 'client-a', NOW)).toEqual({
      status: 'unavailable',
    });
    expect(await lookUpReport(database.db, code, 'client-a', new Date(expiresAt.getTime() + 1))).toEqual({
      status: 'unavailable',
    });
  });

  it('throttles one address guessing codes, and not another', async () => {
    const { code } = await stored();
    const guess = 'A'.repeat(43);
    const misses = Math.floor(LOOKUP_POINTS / MISS_COST);
    for (let i = 0; i < misses; i++) {
      expect((await lookUpReport(database.db, guess, 'guesser', NOW)).status).toBe('unavailable');
    }
    const blocked = await lookUpReport(database.db, code, 'guesser', NOW);
    expect(blocked.status).toBe('throttled');
    if (blocked.status === 'throttled') expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect((await lookUpReport(database.db, code, 'someone-else', NOW)).status).toBe('found');
  });

  it('shows the building average only when every day of the month had 3 apartments with data, as the app', async () => {
    const heatPerM2 = async () => {
      await generateMonthlyReports(database.db, { month: '2025-10-01', now: NOW, settings });
      const report = (await stored()).content as MonthlyReport;
      return report.quantities.find((q) => q.quantity === 'heat-energy')!.propertyPerM2;
    };
    await database.db.execute(sql`UPDATE property_daily_rollups SET apartments = 3
      WHERE day BETWEEN '2025-10-01' AND '2025-10-31'`);
    expect(await heatPerM2()).toBe(15.5);
    // One day with two: a tenant could work out the neighbour's use that day, so the month has no average.
    await database.db.execute(sql`UPDATE property_daily_rollups SET apartments = 2 WHERE day = '2025-10-17'`);
    expect(await heatPerM2()).toBeNull();
  });
});
