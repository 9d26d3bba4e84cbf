/**
 * The property's allocator figures stored once per property and month (property_allocator_months, migration 0019)
 * for the worker's monthly reports: the same figures as the direct read, reused by the next report instead of read
 * again, and recomputed after any change of a heat or allocator point's monthly rollup (late data) or of the
 * property's points. On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllocatorMonths } from '../../src/server/allocators/months.ts';
import type { Database } from '../../src/server/db/client.ts';
import { measurementPoints } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';
import { rollUpHours } from './helpers/rollups.ts';

let database: Database;
let propertyId: number;
let flatA: number;
let flatB: number;
let supplyPoint: number;
let otherPropertyId: number;

const OCTOBER_HOURS = 31 * 24 + 1;

beforeAll(async () => {
  database = await freshDatabase();
  const { db } = database;
  // Flats A and B with allocators (3 and 1 units an hour), flat H with a heat meter (4 kWh), a supply meter (20 kWh).
  const mixed = await testProperty(
    db,
    ['AM-A', 'AM-B', 'AM-H'].map((uniqueId) => ({ uniqueId, areaM2: '60' })),
    'AM',
  );
  const other = await testProperty(db, [{ uniqueId: 'AM-O', areaM2: '60' }], 'AMO');
  propertyId = mixed.propertyId;
  otherPropertyId = other.propertyId;
  [flatA, flatB] = mixed.apartmentIds as [number, number];
  const point = (apartmentId: number | null, quantity: string, pid = propertyId) => ({
    propertyId: pid,
    apartmentId,
    quantity,
    unit: quantity === 'hca' ? 'hca-unit' : 'kilo-watt-hour',
    name: quantity,
    readingKind: 'register' as const,
  });
  const points = await db
    .insert(measurementPoints)
    .values([
      point(flatA, 'hca'),
      point(flatB, 'hca'),
      point(mixed.apartmentIds[2]!, 'heat-energy'),
      point(null, 'heat-energy'),
      point(other.apartmentIds[0]!, 'hca', other.propertyId),
    ])
    .returning();
  supplyPoint = points[3]!.id;
  const perHour = [3, 1, 4, 20, 2];
  for (const [i, p] of points.entries())
    await db.execute(sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
      SELECT ${p.id}, h, ${perHour[i]!}::numeric FROM generate_series('2025-10-01T00:00:00+02:00'::timestamptz,
        '2025-10-31T23:00:00+01:00'::timestamptz, interval '1 hour') h`);
  await rollUpHours(
    db,
    points.map((p) => p.id),
  );
}, 600_000);
afterAll(async () => {
  await database?.close();
});

const read = (stored: boolean, apartmentId = flatA) =>
  readAllocatorMonths(database.db, {
    propertyId,
    apartmentId,
    from: '2025-09-01',
    to: '2025-10-31',
    operatorKwhPerUnit: null,
    stored,
  });

/** The stored months of a property (the test property by default); `fresh` null: never computed. */
const storedRows = (pid = propertyId) =>
  queryRows<{
    property_id: number;
    month: string;
    fresh: boolean | null;
    supply: string | null;
    version: string;
  }>(
    database.db,
    sql`SELECT property_id, to_char(month, 'YYYY-MM-DD') AS month, computed_version = version AS fresh,
               supply::text, version::text FROM property_allocator_months WHERE property_id = ${pid} ORDER BY month`,
  );

describe(`stored allocator months (${testEngine})`, () => {
  it('gives the direct read’s figures, and stores each month of the property once', async () => {
    const direct = await read(false);
    const stored = await read(true);
    expect(direct.factorOf('2025-10-01')).toEqual({ method: 'supply-meter', kwhPerUnit: (20 - 4) / (3 + 1) });
    for (const month of ['2025-09-01', '2025-10-01'])
      expect(stored.factorOf(month)).toEqual(direct.factorOf(month));
    expect([...stored.months]).toEqual([...direct.months]);
    expect(stored.apartmentUnits.get('2025-10-01')).toBe(3 * OCTOBER_HOURS);
    expect((await read(true, flatB)).apartmentUnits.get('2025-10-01')).toBe(OCTOBER_HOURS);
    // September has no data: stored too (as empty), so it is not read again either.
    expect((await storedRows()).map(({ version: _, ...r }) => r)).toEqual([
      { property_id: propertyId, month: '2025-09-01', fresh: true, supply: null },
      { property_id: propertyId, month: '2025-10-01', fresh: true, supply: String(20 * OCTOBER_HOURS) },
    ]);
    // The other property's month was only marked when its rollups were written (never read: never computed).
    expect((await storedRows(otherPropertyId)).map((r) => r.fresh)).toEqual([null]);
  });

  it('reuses the stored month instead of reading the property’s points again', async () => {
    // A figure only the stored row holds: a second report's read returns it.
    await database.db.execute(sql`UPDATE property_allocator_months SET supply = 5000
      WHERE property_id = ${propertyId} AND month = '2025-10-01'`);
    expect((await read(true, flatB)).months.get('2025-10-01')?.supplyKwh).toBe(5000);
  });

  it('recomputes a month after late data changes a monthly rollup, and only that property’s', async () => {
    const otherBefore = await storedRows(otherPropertyId);
    // As ingestion writes a month's rollup again (src/server/ingest/rollups.ts): an upsert.
    await database.db.execute(sql`INSERT INTO monthly_rollups (measurement_point_id, month, sum, min, max, count)
      VALUES (${supplyPoint}, '2025-10-01', ${21 * OCTOBER_HOURS}, 21, 21, ${OCTOBER_HOURS})
      ON CONFLICT (measurement_point_id, month) DO UPDATE SET sum = excluded.sum`);
    const rows = await storedRows();
    expect(rows.find((r) => r.month === '2025-10-01')?.fresh).toBe(false);
    expect(rows.find((r) => r.month === '2025-09-01')?.fresh).toBe(true);
    expect(await storedRows(otherPropertyId)).toEqual(otherBefore);
    const after = await read(true);
    expect(after.months.get('2025-10-01')?.supplyKwh).toBe(21 * OCTOBER_HOURS);
    expect(after.factorOf('2025-10-01')?.kwhPerUnit).toBeCloseTo((21 - 4) / 4, 9);
    // A rollup deleted (a rebuilt day range) is a change too.
    await database.db.execute(
      sql`DELETE FROM monthly_rollups WHERE measurement_point_id = ${supplyPoint} AND month = '2025-10-01'`,
    );
    // No supply figure and no flat with both a heat meter and allocators: no factor, as the direct read says.
    const stored = await read(true);
    expect(stored.months.get('2025-10-01')?.supplyKwh).toBeNull();
    expect(stored.factorOf('2025-10-01')).toBeNull();
    expect([...stored.months]).toEqual([...(await read(false)).months]);
  });

  it('recomputes every month of the property after its points change', async () => {
    // Flat A gets a heat meter too: it now counts among the metered flats.
    await database.db.insert(measurementPoints).values({
      propertyId,
      apartmentId: flatA,
      quantity: 'heat-energy',
      unit: 'kilo-watt-hour',
      name: 'heat',
      readingKind: 'register',
    });
    expect((await storedRows()).every((r) => !r.fresh)).toBe(true);
    const stored = await read(true);
    const direct = await read(false);
    expect([...stored.months]).toEqual([...direct.months]);
    expect(stored.months.get('2025-10-01')?.meteredFlatsUnits).toBe(3 * OCTOBER_HOURS);
    expect((await storedRows()).every((r) => r.fresh)).toBe(true);
  });
});
