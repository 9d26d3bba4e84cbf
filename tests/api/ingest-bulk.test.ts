/**
 * The bulk path of the first load (bulkLoadIntoEmpty): the same hours and the same refusals as an incremental
 * batch, derived in one pass, and all or nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import {
  bulkLoadIntoEmpty,
  IngestError,
  ingestReadings,
  type ReadingRow,
} from '../../src/server/ingest/ingest.ts';
import { freshDatabase } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;

/** A property with one apartment: a heat register, and two temperature sensors. */
beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  const { propertyId, apartmentIds } = await testProperty(db, [{ uniqueId: 'A1', areaM2: '50' }]);
  for (const [number, quantity, kind] of [
    ['H1', 'heat-energy', 'register'],
    ['T1', 'indoor-temperature', 'instantaneous'],
    ['T2', 'indoor-temperature', 'instantaneous'],
  ] as const) {
    const [p] = await db
      .insert(measurementPoints)
      .values({
        propertyId,
        apartmentId: apartmentIds[0]!,
        quantity,
        unit: 'kilo-watt-hour',
        name: number,
        readingKind: kind,
      })
      .returning();
    await db.insert(meters).values({
      measurementPointId: p!.id,
      number,
      legacyKind: 'energy',
      installedAt: new Date('2024-01-01T00:00:00Z'),
    });
  }
});

const emptyReadings = () =>
  db.execute(
    sql`TRUNCATE register_readings, hourly_consumption, daily_rollups, monthly_rollups, property_daily_rollups, property_hourly_rollups`,
  );

afterEach(emptyReadings);

afterAll(async () => {
  await database?.close();
});

const row = (line: number, meterNumber: string, ts: string, value: string): ReadingRow => ({
  line,
  meterNumber,
  ts,
  value,
});

/** Heat: whole hours, then a 2-hour gap; T1 on whole hours; T2 twice within one hour. */
const good: ReadingRow[] = [
  row(2, 'H1', '2025-01-10T10:00:00Z', '100'),
  row(3, 'H1', '2025-01-10T11:00:00Z', '101.5'),
  row(4, 'H1', '2025-01-10T13:30:00Z', '106.5'),
  row(5, 'T1', '2025-01-10T10:00:00Z', '21.5'),
  row(6, 'T1', '2025-01-10T11:00:00Z', '21.25'),
  row(7, 'T2', '2025-01-10T10:00:00Z', '20'),
  row(8, 'T2', '2025-01-10T10:30:00Z', '21'),
];

async function hourly(): Promise<string[]> {
  const rows = await queryRows<{ h: string }>(
    db,
    sql`SELECT m.number || ' ' || to_char(h.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || ' ' || h.value::text AS h
        FROM hourly_consumption h JOIN meters m ON m.measurement_point_id = h.measurement_point_id
        ORDER BY m.number, h.hour_start`,
  );
  return rows.map((r) => r.h);
}

async function counts() {
  const [c] = await queryRows<{ readings: number; hours: number; days: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM register_readings) AS readings,
               (SELECT count(*)::int FROM hourly_consumption) AS hours,
               (SELECT count(*)::int FROM daily_rollups) AS days`,
  );
  return c!;
}

const bulk = (batches: ReadingRow[][]) =>
  db.transaction((tx) =>
    bulkLoadIntoEmpty(tx as unknown as Db, batches, { now: new Date('2026-01-01T00:00:00Z') }),
  );

describe('bulkLoadIntoEmpty', () => {
  it('derives hours: whole hours, a spread gap, one sample per hour or an average', async () => {
    const result = await bulk([good.slice(0, 4), good.slice(4)]);
    expect(result).toMatchObject({ rows: 7, newReadings: 7, hoursUpdated: 7 });
    const fromBulk = await hourly();
    expect(fromBulk).toEqual([
      'H1 10:00 1.5',
      'H1 11:00 2',
      'H1 12:00 2',
      'H1 13:00 1',
      'T1 10:00 21.5',
      'T1 11:00 21.25',
      'T2 10:00 20.5',
    ]);
  });

  it('matches ingestReadings on the same rows', async () => {
    await bulk([good]);
    const fromBulk = await hourly();
    const afterBulk = await counts();
    await emptyReadings();
    await ingestReadings(db, good, { now: new Date('2026-01-01T00:00:00Z') });
    expect(await hourly()).toEqual(fromBulk);
    expect(await counts()).toEqual(afterBulk);
  });

  it('refuses an implausible rise and a drop that is not a reset, and writes nothing', async () => {
    const bad = [
      ...good,
      row(9, 'H1', '2025-01-10T14:30:00Z', '5000'),
      row(10, 'H1', '2025-01-10T15:30:00Z', '4000'),
    ];
    const error = await bulk([bad]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestError);
    const reasons = (error as IngestError).problems.map((p) => p.reason);
    expect(reasons).toEqual([
      expect.stringMatching(/rises from 106\.5 to 5000 in 1 h, above the plausible 1000 per hour/),
      expect.stringMatching(
        /drops from 5000 to 4000: a register reset is accepted only when the new value is near zero/,
      ),
    ]);
    expect(await counts()).toEqual({ readings: 0, hours: 0, days: 0 });
  });

  it('drops a repeated row and refuses a contradicting one, in any order', async () => {
    const repeats = [
      row(2, 'H1', '2025-01-10T12:00:00Z', '5'),
      row(3, 'H1', '2025-01-10T11:00:00Z', '3'),
      row(4, 'H1', '2025-01-10T12:00:00+00:00', '5.0'),
      row(5, 'H1', '2025-01-10T11:00:00Z', '4'),
    ];
    const error = await bulk([repeats]).catch((e: unknown) => e);
    expect((error as IngestError).problems).toEqual([
      {
        line: 5,
        reason: 'meter H1 at 2025-01-10T11:00:00Z has value 4 here but 3 on line 3',
        code: 'conflicting_value_in_batch',
        params: { meter: 'H1', timestamp: '2025-01-10T11:00:00Z', value: '4', otherValue: '3', otherLine: 3 },
      },
    ]);
    const result = await bulk([repeats.slice(0, 3)]);
    expect(result).toMatchObject({ newReadings: 3, hoursUpdated: 1 });
    expect(await hourly()).toEqual(['H1 11:00 2']);
  });

  it('takes the whole-hour path for a register read every hour: the same hours, resets and refusals', async () => {
    const hourly4 = [
      row(2, 'H1', '2025-01-10T10:00:00Z', '100'),
      row(3, 'H1', '2025-01-10T11:00:00Z', '101.5'),
      row(4, 'H1', '2025-01-10T12:00:00Z', '0.25'),
      row(5, 'H1', '2025-01-10T13:00:00Z', '1'),
    ];
    const result = await bulk([hourly4.slice(0, 2), hourly4.slice(2)]);
    expect(result).toMatchObject({ newReadings: 4, hoursUpdated: 3 });
    expect(await hourly()).toEqual(['H1 10:00 1.5', 'H1 11:00 0.25', 'H1 12:00 0.75']);
    await emptyReadings();
    const error = await bulk([[...hourly4, row(6, 'H1', '2025-01-10T14:00:00Z', '1500')]]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IngestError);
    expect((error as IngestError).problems.map((p) => p.reason)).toEqual([
      expect.stringMatching(/rises from 1 to 1500 in 1 h, above the plausible 1000 per hour for heat-energy/),
    ]);
    expect((error as IngestError).problems.map((p) => [p.code, p.params])).toEqual([
      [
        'implausible_rise',
        {
          meter: 'H1',
          at: '2025-01-10T14:00:00.000Z',
          from: '1',
          to: '1500',
          hours: '1',
          perHour: '1000',
          quantity: 'heat-energy',
        },
      ],
    ]);
    expect(await counts()).toEqual({ readings: 0, hours: 0, days: 0 });
  });

  it("refuses a misread drop that the old rule took for a reset (5456.0 -> 545.6, under one hour's bound)", async () => {
    const misread = [
      row(2, 'H1', '2025-01-10T10:00:00Z', '5455'),
      row(3, 'H1', '2025-01-10T11:00:00Z', '5456.0'),
      row(4, 'H1', '2025-01-10T12:00:00Z', '545.6'),
      row(5, 'H1', '2025-01-10T13:00:00Z', '546'),
    ];
    // Whole hours (one pass, explained after) and a spread interval (the general pass) refuse it alike.
    for (const rows of [misread, [...misread.slice(0, 2), row(4, 'H1', '2025-01-10T12:30:00Z', '545.6')]]) {
      const error = await bulk([rows]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IngestError);
      expect((error as IngestError).problems.map((p) => p.reason)).toEqual([
        expect.stringMatching(
          /drops from 5456 to 545\.6: a register reset is accepted only when the new value is near zero \(at most 2\.5 % of the register/,
        ),
      ]);
      expect(await counts()).toEqual({ readings: 0, hours: 0, days: 0 });
    }
  });

  it('accepts a reset to near zero', async () => {
    await bulk([[...good, row(9, 'H1', '2025-01-10T14:30:00Z', '0.5')]]);
    // 0.5 since the reset, spread over the hour from 13:30.
    expect((await hourly()).filter((h) => h.startsWith('H1'))).toEqual([
      'H1 10:00 1.5',
      'H1 11:00 2',
      'H1 12:00 2',
      'H1 13:00 1.25',
      'H1 14:00 0.25',
    ]);
  });
});
