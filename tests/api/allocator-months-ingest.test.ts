/**
 * The stored allocator months (migration 0019) go stale when ingestion itself changes a monthly rollup: a batch
 * runs with its triggers off where the database allows it (a superuser, as PGlite's user always is), so the
 * rollup statement marks the months itself (src/server/ingest/rollups.ts). A late reading that moves October's
 * supply total must reach the next report's figures. On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllocatorMonths } from '../../src/server/allocators/months.ts';
import type { Database } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch } from '../../src/server/ingest/ingest.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
let propertyId: number;
let flatA: number;

beforeAll(async () => {
  database = await freshDatabase();
  const { db } = database;
  const property = await testProperty(
    db,
    ['AI-A', 'AI-H'].map((uniqueId) => ({ uniqueId, areaM2: '60' })),
    'AI',
  );
  propertyId = property.propertyId;
  flatA = property.apartmentIds[0]!;
  const made = [
    { apartmentId: flatA, quantity: 'hca', number: 'AI-HCA' },
    { apartmentId: property.apartmentIds[1]!, quantity: 'heat-energy', number: 'AI-HEAT' },
    { apartmentId: null, quantity: 'heat-energy', number: 'AI-SUPPLY' },
  ];
  for (const m of made) {
    const [point] = await db
      .insert(measurementPoints)
      .values({
        propertyId,
        apartmentId: m.apartmentId,
        quantity: m.quantity,
        unit: m.quantity === 'hca' ? 'hca-unit' : 'kilo-watt-hour',
        name: m.number,
        readingKind: 'register',
      })
      .returning();
    await db.insert(meters).values({
      measurementPointId: point!.id,
      number: m.number,
      legacyKind: m.quantity === 'hca' ? 'hca' : 'energy',
      installedAt: new Date('2020-01-01T00:00:00Z'),
    });
  }
  // 1 October to 15 November (local midnights): the supply's 1,000 kWh are spread evenly over the 45 days.
  const rows = [
    ['AI-HCA', '2025-09-30T22:00:00Z', '0'],
    ['AI-HCA', '2025-11-14T23:00:00Z', '450'],
    ['AI-HEAT', '2025-09-30T22:00:00Z', '0'],
    ['AI-HEAT', '2025-11-14T23:00:00Z', '450'],
    ['AI-SUPPLY', '2025-09-30T22:00:00Z', '0'],
    ['AI-SUPPLY', '2025-11-14T23:00:00Z', '1000'],
  ].map(([meterNumber, ts, value], i) => ({
    line: i + 1,
    meterNumber: meterNumber!,
    ts: ts!,
    value: value!,
  }));
  const receipt = await ingestBatch(db, rows, {});
  expect(receipt.results.every((r) => r.status === 'accepted')).toBe(true);
}, 600_000);
afterAll(async () => {
  await database?.close();
});

const read = (stored: boolean) =>
  readAllocatorMonths(database.db, {
    propertyId,
    apartmentId: flatA,
    from: '2025-10-01',
    to: '2025-10-31',
    operatorKwhPerUnit: null,
    stored,
  });

describe(`stored allocator months after ingestion (${testEngine})`, () => {
  it('a late reading that moves the month’s supply total reaches the stored month', async () => {
    const before = (await read(true)).months.get('2025-10-01')?.supplyKwh;
    expect(before).toBeCloseTo((1000 * (31 * 24 + 1)) / (45 * 24 + 1), 6);
    const [{ fresh } = { fresh: false }] = await queryRows<{ fresh: boolean }>(
      database.db,
      sql`SELECT computed_version = version AS fresh FROM property_allocator_months
          WHERE property_id = ${propertyId} AND month = '2025-10-01'`,
    );
    expect(fresh).toBe(true);

    // The reading of 1 November arrives late: 900 of the 1,000 kWh were October's.
    const receipt = await ingestBatch(
      database.db,
      [{ line: 1, meterNumber: 'AI-SUPPLY', ts: '2025-10-31T23:00:00Z', value: '900' }],
      {},
    );
    expect(receipt.results[0]!.status).toBe('accepted');
    const after = await read(true);
    expect(after.months.get('2025-10-01')?.supplyKwh).toBeCloseTo(900, 6);
    expect([...after.months]).toEqual([...(await read(false)).months]);
  });
});
