import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { apartments, measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { parseReadingsCsv } from '../../src/server/ingest/csv.ts';
import { IngestError, ingestReadings, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { freshDatabase } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;
let propertyId: number;
let smallApartment: number;
let largeApartment: number;

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  const made = await testProperty(db, [
    { uniqueId: 'A1', areaM2: '50' },
    { uniqueId: 'A2', areaM2: '100' },
  ]);
  propertyId = made.propertyId;
  [smallApartment, largeApartment] = made.apartmentIds as [number, number];
});

afterAll(async () => {
  await database?.close();
});

/** Creates a measurement point with meters (installed from 2024 unless given); returns the point id. */
async function point(
  quantity: string,
  kind: 'register' | 'instantaneous',
  meterSpecs: { number: string; installed?: string; removed?: string }[],
  apartmentId: number | null = smallApartment,
): Promise<number> {
  const [p] = await db
    .insert(measurementPoints)
    .values({ propertyId, apartmentId, quantity, unit: 'kilo-watt-hour', name: quantity, readingKind: kind })
    .returning();
  await db.insert(meters).values(
    meterSpecs.map((m) => ({
      measurementPointId: p!.id,
      number: m.number,
      legacyKind: 'energy',
      installedAt: new Date(m.installed ?? '2024-01-01T00:00:00Z'),
      removedAt: m.removed ? new Date(m.removed) : null,
    })),
  );
  return p!.id;
}

function rows(meterNumber: string, readings: [string, string][]): ReadingRow[] {
  return readings.map(([ts, value], i) => ({ line: i + 2, meterNumber, ts, value }));
}

async function hourly(pointId: number): Promise<[string, string][]> {
  const result = await queryRows<{ hour: string; value: string }>(
    db,
    sql`SELECT to_char(hour_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS hour, value::text AS value
        FROM hourly_consumption WHERE measurement_point_id = ${pointId} ORDER BY hour_start`,
  );
  return result.map((r) => [r.hour, r.value]);
}

async function count(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
  return Number(row!.n);
}

describe('hourly consumption from register readings', () => {
  it('is the difference between consecutive hourly readings', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-1' }]);
    const result = await ingestReadings(
      db,
      rows('H-1', [
        ['2025-01-10T00:00:00Z', '10'],
        ['2025-01-10T01:00:00Z', '12.5'],
        ['2025-01-10T03:00:00+01:00', '13'],
      ]),
    );
    expect(result).toMatchObject({ rows: 3, newReadings: 3, hoursUpdated: 2 });
    expect(await hourly(p)).toEqual([
      ['2025-01-10T00:00', '2.5'],
      ['2025-01-10T01:00', '0.5'],
    ]);
  });

  it('spreads a gap evenly over the hours in between, in proportion to time', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-GAP' }]);
    await ingestReadings(
      db,
      rows('H-GAP', [
        ['2025-01-10T00:00:00Z', '0'],
        ['2025-01-10T04:00:00Z', '10'],
        ['2025-01-10T05:30:00Z', '13'],
        ['2025-01-10T06:30:00Z', '15'],
      ]),
    );
    expect(await hourly(p)).toEqual([
      ['2025-01-10T00:00', '2.5'],
      ['2025-01-10T01:00', '2.5'],
      ['2025-01-10T02:00', '2.5'],
      ['2025-01-10T03:00', '2.5'],
      ['2025-01-10T04:00', '2'],
      ['2025-01-10T05:00', '2'],
      ['2025-01-10T06:00', '1'],
    ]);
  });

  it('fills a gap correctly when the missing reading arrives in a later batch', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-LATE' }]);
    await ingestReadings(
      db,
      rows('H-LATE', [
        ['2025-01-10T00:00:00Z', '0'],
        ['2025-01-10T03:00:00Z', '3'],
      ]),
    );
    await ingestReadings(db, rows('H-LATE', [['2025-01-10T01:00:00Z', '2']]));
    expect(await hourly(p)).toEqual([
      ['2025-01-10T00:00', '2'],
      ['2025-01-10T01:00', '0.5'],
      ['2025-01-10T02:00', '0.5'],
    ]);
  });

  it('does not take a delta across a meter swap', async () => {
    const p = await point('cold-water-volume', 'register', [
      { number: 'CW-OLD', removed: '2025-02-01T12:00:00Z' },
      { number: 'CW-NEW', installed: '2025-02-01T12:00:00Z' },
    ]);
    await ingestReadings(db, [
      ...rows('CW-OLD', [
        ['2025-02-01T10:00:00Z', '812.5'],
        ['2025-02-01T11:00:00Z', '813'],
        ['2025-02-01T12:00:00Z', '814'],
      ]),
      ...rows('CW-NEW', [
        ['2025-02-01T12:00:00Z', '0'],
        ['2025-02-01T13:00:00Z', '0.75'],
      ]),
    ]);
    expect(await hourly(p)).toEqual([
      ['2025-02-01T10:00', '0.5'],
      ['2025-02-01T11:00', '1'],
      ['2025-02-01T12:00', '0.75'],
    ]);
  });

  it('counts the value after a register reset as consumption, never a negative value', async () => {
    const p = await point('electricity-energy', 'register', [{ number: 'EL-RESET' }]);
    await ingestReadings(
      db,
      rows('EL-RESET', [
        ['2025-03-01T00:00:00Z', '50'],
        ['2025-03-01T01:00:00Z', '52'],
        ['2025-03-01T02:00:00Z', '1'],
        ['2025-03-01T03:00:00Z', '3'],
      ]),
    );
    expect(await hourly(p)).toEqual([
      ['2025-03-01T00:00', '2'],
      ['2025-03-01T01:00', '1'],
      ['2025-03-01T02:00', '2'],
    ]);
  });

  it('averages instantaneous samples per hour', async () => {
    const p = await point('indoor-temperature', 'instantaneous', [{ number: 'T-1' }]);
    await ingestReadings(
      db,
      rows('T-1', [
        ['2025-01-10T00:00:00Z', '20'],
        ['2025-01-10T00:30:00Z', '21'],
        ['2025-01-10T01:15:00Z', '22.5'],
      ]),
    );
    expect(await hourly(p)).toEqual([
      ['2025-01-10T00:00', '20.5'],
      ['2025-01-10T01:00', '22.5'],
    ]);
  });
});

describe('re-import and bad input', () => {
  it('re-importing the same rows changes nothing', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-REIMPORT' }]);
    const batch = rows('H-REIMPORT', [
      ['2025-04-01T00:00:00Z', '1'],
      ['2025-04-01T01:00:00Z', '2'],
      ['2025-04-01T02:00:00Z', '4'],
    ]);
    await ingestReadings(db, batch);
    const before = await hourly(p);
    const readingsBefore = await count('register_readings');
    // Same values written differently are the same reading.
    const again = await ingestReadings(db, [
      ...batch,
      { line: 9, meterNumber: 'H-REIMPORT', ts: '2025-04-01T03:00:00+01:00', value: '4.000' },
    ]);
    expect(again).toMatchObject({
      rows: 4,
      newReadings: 0,
      hoursUpdated: 0,
      daysUpdated: 0,
      accepted: 0,
      duplicate: 4,
    });
    expect(await hourly(p)).toEqual(before);
    expect(await count('register_readings')).toBe(readingsBefore);
  });

  it('rejects a malformed CSV with line numbers and writes nothing', async () => {
    await point('heat-energy', 'register', [{ number: 'H-CSV' }]);
    const csv = [
      'meter_number,timestamp,value',
      'H-CSV,2025-05-01T00:00:00Z,1',
      'H-CSV,2025-05-01T01:00:00Z,1,5',
      'NOPE,2025-05-01T02:00:00Z,3',
      'H-CSV,2025-05-01 3 pm,4',
    ].join('\n');
    // A wrong field count is a CSV error: reported before any row is looked at.
    expect(() => parseReadingsCsv(csv)).toThrow(IngestError);
    try {
      parseReadingsCsv(csv);
    } catch (err) {
      expect((err as IngestError).problems).toEqual([
        { line: 3, reason: expect.stringContaining('malformed CSV') },
      ]);
    }

    const readingsBefore = await count('register_readings');
    const hoursBefore = await count('hourly_consumption');
    const rowsBad = parseReadingsCsv(
      [
        'meter_number,timestamp,value',
        'H-CSV,2025-05-01T00:00:00Z,1',
        'H-CSV,2025-05-01T01:00:00Z,1;5',
        'NOPE,2025-05-01T02:00:00Z,3',
        'H-CSV,2025-05-01 3 pm,4',
        'H-CSV,2025-02-30T00:00:00Z,4',
        'H-CSV,2025-05-01T05:00:00,4',
        'H-CSV,2025-05-01T06:00:00Z,6',
      ].join('\n'),
    );
    const error = await ingestReadings(db, rowsBad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestError);
    const problems = (error as IngestError).problems;
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7]);
    expect(problems[0]!.reason).toMatch(/not a number/);
    expect(problems[1]!.reason).toMatch(/unknown meter number "NOPE"/);
    expect(problems[2]!.reason).toMatch(/invalid timestamp/);
    expect(problems[3]!.reason).toMatch(/invalid timestamp/);
    expect(problems[4]!.reason).toMatch(/invalid timestamp/);
    expect((error as Error).message).toMatch(/line 4: unknown meter/);
    expect(await count('register_readings')).toBe(readingsBefore);
    expect(await count('hourly_consumption')).toBe(hoursBefore);
  });

  it('rejects a wrong header', () => {
    expect(() => parseReadingsCsv('meter,ts,value\nH-CSV,2025-05-01T00:00:00Z,1\n')).toThrow(
      /line 1: expected the header/,
    );
  });

  it('rejects conflicting values, outside-window timestamps and conflicts with stored readings', async () => {
    await point('heat-energy', 'register', [
      { number: 'H-CONFLICT', installed: '2025-06-01T00:00:00Z', removed: '2025-07-01T00:00:00Z' },
    ]);
    await ingestReadings(db, rows('H-CONFLICT', [['2025-06-02T00:00:00Z', '5']]));
    const readingsBefore = await count('register_readings');
    const error = await ingestReadings(db, [
      { line: 2, meterNumber: 'H-CONFLICT', ts: '2025-06-03T00:00:00Z', value: '6' },
      { line: 3, meterNumber: 'H-CONFLICT', ts: '2025-06-03T00:00:00Z', value: '7' },
      { line: 4, meterNumber: 'H-CONFLICT', ts: '2025-05-31T23:00:00Z', value: '1' },
      { line: 5, meterNumber: 'H-CONFLICT', ts: '2025-06-02T02:00:00+02:00', value: '5.5' },
      { line: 6, meterNumber: 'H-CONFLICT', ts: '2025-06-04T00:00:00Z', value: '8' },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestError);
    const problems = (error as IngestError).problems;
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5]);
    expect(problems[0]!.reason).toMatch(/on line 2/);
    expect(problems[1]!.reason).toMatch(/outside meter H-CONFLICT's installation/);
    expect(problems[2]!.reason).toMatch(/already has another value \(5\)/);
    expect(await count('register_readings')).toBe(readingsBefore);
  });
});

async function dailyRollup(pointId: number, day: string) {
  const [row] = await queryRows<{ sum: string; min: string; max: string; count: number }>(
    db,
    sql`SELECT sum::text, min::text, max::text, count FROM daily_rollups WHERE measurement_point_id = ${pointId} AND day = ${day}`,
  );
  return row;
}

async function sumOfLocalDay(pointId: number, day: string): Promise<string> {
  const [row] = await queryRows<{ s: string }>(
    db,
    sql`SELECT sum(value)::text AS s FROM hourly_consumption WHERE measurement_point_id = ${pointId}
        AND (hour_start AT TIME ZONE 'Europe/Copenhagen')::date = ${day}::date`,
  );
  return row!.s;
}

/** Hourly register readings from `from` (inclusive) for `hours` hours, consuming 1 + (i mod 3) / 4 per hour. */
function hourlyRows(meterNumber: string, from: string, hours: number): ReadingRow[] {
  const start = Date.parse(from);
  let value = 1000;
  const out: ReadingRow[] = [];
  for (let i = 0; i <= hours; i++) {
    out.push({
      line: i + 2,
      meterNumber,
      ts: new Date(start + i * 3_600_000).toISOString(),
      value: value.toFixed(2),
    });
    value += 1 + (i % 3) / 4;
  }
  return out;
}

describe('rollups', () => {
  it('has 23 hours on the spring DST day and 25 on the autumn one, summing the hours exactly', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-DST' }]);
    // Local midnight 2025-03-29 is 2025-03-28T23:00Z; cover through 2025-10-27 local.
    await ingestReadings(db, hourlyRows('H-DST', '2025-03-28T23:00:00Z', 24 * 214));
    const spring = await dailyRollup(p, '2025-03-30');
    const autumn = await dailyRollup(p, '2025-10-26');
    const ordinary = await dailyRollup(p, '2025-06-15');
    expect(spring?.count).toBe(23);
    expect(autumn?.count).toBe(25);
    expect(ordinary?.count).toBe(24);
    for (const day of ['2025-03-30', '2025-10-26', '2025-06-15']) {
      expect((await dailyRollup(p, day))!.sum).toBe(await sumOfLocalDay(p, day));
    }
    expect(spring).toMatchObject({ min: '1', max: '1.5' });
  });

  it('monthly rollups equal the sum of their days', async () => {
    const [row] = await queryRows<{ mismatches: number; months: number }>(
      db,
      sql`WITH d AS (
            SELECT measurement_point_id, date_trunc('month', day::timestamp)::date AS month,
                   sum(sum) AS s, min(min) AS mn, max(max) AS mx, sum(count)::int AS c
            FROM daily_rollups GROUP BY 1, 2)
          SELECT count(*) FILTER (WHERE m.sum <> d.s OR m.min <> d.mn OR m.max <> d.mx OR m.count <> d.c)::int AS mismatches,
                 count(*)::int AS months
          FROM monthly_rollups m JOIN d USING (measurement_point_id, month)`,
    );
    expect(row!.months).toBeGreaterThan(7);
    expect(row!.mismatches).toBe(0);
    expect(await count('monthly_rollups')).toBe(row!.months);
  });

  it('property rollups sum the apartments and divide by the area of those with data', async () => {
    const small = await point('hot-water-volume', 'register', [{ number: 'HW-S' }], smallApartment);
    const large = await point('hot-water-volume', 'register', [{ number: 'HW-L' }], largeApartment);
    await ingestReadings(db, [
      ...rows('HW-S', [
        ['2025-08-10T00:00:00Z', '1'],
        ['2025-08-10T06:00:00Z', '1.3'],
        ['2025-08-11T06:00:00Z', '1.9'],
      ]),
      ...rows('HW-L', [
        ['2025-08-10T00:00:00Z', '7'],
        ['2025-08-10T06:00:00Z', '7.9'],
      ]),
    ]);
    const property = await queryRows<{
      day: string;
      sum: string;
      area_m2: string;
      per_m2: string;
      apartments: number;
    }>(
      db,
      sql`SELECT day::text, sum::text, area_m2::text, per_m2::text, apartments FROM property_daily_rollups
          WHERE property_id = ${propertyId} AND quantity = 'hot-water-volume' ORDER BY day`,
    );
    const s10 = (await dailyRollup(small, '2025-08-10'))!.sum;
    const l10 = (await dailyRollup(large, '2025-08-10'))!.sum;
    expect(Number(s10) + Number(l10)).toBeCloseTo(0.3 + 0.9 + 0.6 * (16 / 24), 9);
    expect(property[0]).toMatchObject({ day: '2025-08-10', area_m2: '150', apartments: 2 });
    expect(Number(property[0]!.sum)).toBeCloseTo(Number(s10) + Number(l10), 9);
    expect(Number(property[0]!.per_m2)).toBeCloseTo((Number(s10) + Number(l10)) / 150, 9);
    // On the 11th only the small apartment has data: its area alone counts.
    expect(property[1]).toMatchObject({ day: '2025-08-11', area_m2: '50', apartments: 1 });
    expect(Number(property[1]!.per_m2)).toBeCloseTo(Number(property[1]!.sum) / 50, 9);

    // The hourly rollups: every hour of the two apartments' values, summed per hour with the area of those with data.
    const hourly = await queryRows<{ hours: number; mismatches: number; both: number; one: number }>(
      db,
      sql`WITH direct AS (
            SELECT h.hour_start, sum(h.value) AS s, sum(a.area_m2) AS area, count(*)::int AS n
            FROM hourly_consumption h JOIN measurement_points p ON p.id = h.measurement_point_id
            JOIN apartments a ON a.id = p.apartment_id
            WHERE p.property_id = ${propertyId} AND p.quantity = 'hot-water-volume' GROUP BY 1)
          SELECT count(*)::int AS hours,
                 count(*) FILTER (WHERE r.sum IS DISTINCT FROM d.s OR r.area_m2 IS DISTINCT FROM d.area
                                   OR r.apartments IS DISTINCT FROM d.n OR r.count IS DISTINCT FROM d.n)::int AS mismatches,
                 count(*) FILTER (WHERE d.n = 2 AND r.area_m2 = 150)::int AS both,
                 count(*) FILTER (WHERE d.n = 1 AND r.area_m2 = 50)::int AS one
          FROM direct d LEFT JOIN property_hourly_rollups r
            ON r.property_id = ${propertyId} AND r.quantity = 'hot-water-volume' AND r.hour_start = d.hour_start`,
    );
    expect(hourly[0]).toMatchObject({ hours: 30, mismatches: 0, both: 6, one: 24 });
  });
});

describe('apartments', () => {
  it('refuse a zero or negative area and zero rooms, since per-m² figures divide by the area', async () => {
    const row = { propertyId, apartment: '1. th', address: 'Testvej 1', zipcode: '8000', city: 'Aarhus' };
    for (const [uniqueId, areaM2, rooms] of [
      ['Z1', '0', 2],
      ['Z2', '-40', 2],
      ['Z3', '40', 0],
    ] as const) {
      await expect(db.insert(apartments).values({ ...row, uniqueId, areaM2, rooms })).rejects.toThrow();
    }
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM apartments WHERE unique_id LIKE 'Z%'`,
    );
    expect(n).toBe(0);
  });
});
