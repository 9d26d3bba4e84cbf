/** SPEC/issue §5: the importer refuses what is not a reading, with line and reason, and writes nothing. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { MAX_PER_HOUR } from '../../src/server/ingest/bounds.ts';
import { parseReadingsCsv } from '../../src/server/ingest/csv.ts';
import { IngestError, ingestReadings, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { freshDatabase } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;
let propertyId: number;
let apartmentId: number;
const NOW = new Date('2026-06-01T12:00:00Z');

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  const made = await testProperty(db, [{ uniqueId: 'A1', areaM2: '60' }]);
  propertyId = made.propertyId;
  apartmentId = made.apartmentIds[0]!;
});

afterAll(async () => {
  await database?.close();
});

let meterCount = 0;
/** A fresh point with one meter installed from 1990; returns the meter number. */
async function meter(quantity: string, kind: 'register' | 'instantaneous'): Promise<string> {
  const number = `M-${++meterCount}`;
  const [p] = await db
    .insert(measurementPoints)
    .values({ propertyId, apartmentId, quantity, unit: 'x', name: quantity, readingKind: kind })
    .returning();
  await db.insert(meters).values({
    measurementPointId: p!.id,
    number,
    legacyKind: 'energy',
    installedAt: new Date('1990-01-01T00:00:00Z'),
  });
  return number;
}

function rows(meterNumber: string, readings: [string, string][]): ReadingRow[] {
  return readings.map(([ts, value], i) => ({ line: i + 2, meterNumber, ts, value }));
}

async function storedCount(number: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM register_readings r JOIN meters m ON m.id = r.meter_id
        WHERE m.number = ${number}`,
  );
  return Number(row?.n ?? 0);
}

/** Ingests and expects a refusal; returns the problems. Checks that nothing of the batch was stored. */
async function refused(number: string, batch: ReadingRow[]): Promise<IngestError['problems']> {
  const before = await storedCount(number);
  const error = await ingestReadings(db, batch, { now: NOW }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IngestError);
  expect(await storedCount(number)).toBe(before);
  return (error as IngestError).problems;
}

describe('timestamps', () => {
  it('refuses a reading before 2000 and one more than an hour in the future', async () => {
    const m = await meter('heat-energy', 'register');
    const problems = await refused(
      m,
      rows(m, [
        ['1999-12-31T23:00:00Z', '1'],
        ['2026-06-01T10:00:00Z', '2'],
        ['2026-06-01T13:30:00Z', '3'],
        ['9999-12-31T00:00:00Z', '4'],
      ]),
    );
    expect(problems).toEqual([
      {
        line: 2,
        reason: 'timestamp 1999-12-31T23:00:00Z is before 2000',
        code: 'timestamp_before_2000',
        params: { timestamp: '1999-12-31T23:00:00Z' },
      },
      {
        line: 4,
        reason: 'timestamp 2026-06-01T13:30:00Z is more than one hour in the future',
        code: 'timestamp_in_future',
        params: { timestamp: '2026-06-01T13:30:00Z' },
      },
      {
        line: 5,
        reason: 'timestamp 9999-12-31T00:00:00Z is more than one hour in the future',
        code: 'timestamp_in_future',
        params: { timestamp: '9999-12-31T00:00:00Z' },
      },
    ]);
  });

  it('accepts a reading up to one hour ahead of the clock (clock skew)', async () => {
    const m = await meter('heat-energy', 'register');
    const result = await ingestReadings(
      db,
      rows(m, [
        ['2026-06-01T12:00:00Z', '1'],
        ['2026-06-01T13:00:00Z', '2'],
      ]),
      { now: NOW },
    );
    expect(result.newReadings).toBe(2);
  });
});

describe('values', () => {
  it('refuses too many digits, a negative register, NaN and a null byte, naming each line', async () => {
    const m = await meter('electricity-energy', 'register');
    const problems = await refused(
      m,
      rows(m, [
        ['2025-01-01T00:00:00Z', '1'.repeat(1000)],
        ['2025-01-01T01:00:00Z', '1.1234567'],
        ['2025-01-01T02:00:00Z', '-5'],
        ['2025-01-01T03:00:00Z', 'NaN'],
        ['2025-01-01T04:00:00Z', '7\u00008'],
        ['2025-01-01T05:00:00Z', '9'],
      ]),
    );
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6]);
    expect(problems[0]!.reason).toMatch(/more than 12 digits before the decimal point/);
    expect(problems[1]!.reason).toMatch(/more than 6 digits after the decimal point/);
    expect(problems[2]!.reason).toBe('value -5 is negative; a register never is');
    expect(problems[3]!.reason).toBe('value "NaN" is not a number');
    expect(problems[4]!.reason).toBe('the row holds a null byte');
  });

  it('refuses a null byte in the meter number with a reason, not a database error', async () => {
    const problems = await refused('nobody', rows('EL\u0000X', [['2025-01-01T00:00:00Z', '1']]));
    expect(problems).toEqual([
      { line: 2, reason: 'the row holds a null byte', code: 'null_byte', params: {} },
    ]);
  });

  it('a CSV with a null byte is refused with its file line', async () => {
    const m = await meter('electricity-energy', 'register');
    const csv = `meter_number,timestamp,value\n${m},2025-01-01T00:00:00Z,1\n${m},2025-01-01T01:00:00Z,2\u0000\n`;
    const problems = await refused(m, parseReadingsCsv(csv));
    expect(problems).toEqual([
      { line: 3, reason: 'the row holds a null byte', code: 'null_byte', params: {} },
    ]);
  });

  it('accepts negative samples within range and refuses samples outside it', async () => {
    const outdoor = await meter('outdoor-temperature', 'instantaneous');
    const ok = await ingestReadings(db, rows(outdoor, [['2025-01-01T00:00:00Z', '-12.5']]), { now: NOW });
    expect(ok.newReadings).toBe(1);
    const humidity = await meter('indoor-relative-humidity', 'instantaneous');
    const problems = await refused(
      humidity,
      rows(humidity, [
        ['2025-01-01T00:00:00Z', '45'],
        ['2025-01-01T01:00:00Z', '140'],
      ]),
    );
    expect(problems).toEqual([
      {
        line: 3,
        reason: 'value 140 is outside the plausible range 0 to 100 for indoor-relative-humidity',
        code: 'out_of_range',
        params: { value: '140', min: 0, max: 100, quantity: 'indoor-relative-humidity' },
      },
    ]);
  });
});

/** Ingests a batch whose suspect rows are quarantined, not refused: returns their receipts; nothing is stored. */
async function quarantined(number: string, batch: ReadingRow[]) {
  const before = await storedCount(number);
  const receipt = await ingestReadings(db, batch, { now: NOW });
  const held = receipt.results.filter((r) => r.status === 'quarantined');
  expect(await storedCount(number)).toBe(before + batch.length - held.length);
  const issues = await queryRows<{ id: number; reason: string; kind: string }>(
    db,
    sql`SELECT id, kind, evidence->>'reason' AS reason FROM data_issues
        WHERE id = ANY(${`{${held.map((h) => h.issueId).join(',')}}`}::int[]) ORDER BY id`,
  );
  return held.map((h) => ({ ...h, ...issues.find((i) => i.id === h.issueId)! }));
}

describe('jumps and resets (quarantined, not refused)', () => {
  it('quarantines a rise above the per-hour bound, and accepts one just below it', async () => {
    const m = await meter('electricity-energy', 'register');
    const bound = MAX_PER_HOUR['electricity-energy']!;
    await ingestReadings(
      db,
      rows(m, [
        ['2025-02-01T00:00:00Z', '100'],
        ['2025-02-01T01:00:00Z', String(100 + bound)],
      ]),
      { now: NOW },
    );
    const held = await quarantined(
      m,
      rows(m, [
        ['2025-02-01T02:00:00Z', String(100 + bound + 10)],
        ['2025-02-01T03:00:00Z', String(100 + 2 * bound + 11)],
      ]),
    );
    expect(held).toHaveLength(1);
    expect(held[0]!.line).toBe(3);
    expect(held[0]!.kind).toBe('jump');
    expect(held[0]!.reason).toMatch(
      /rises from .* in 1 h, above the plausible 1000 per hour for electricity-energy/,
    );
  });

  it('allows a proportionally larger rise over a longer gap', async () => {
    const m = await meter('hot-water-volume', 'register');
    const bound = MAX_PER_HOUR['hot-water-volume']!;
    const result = await ingestReadings(
      db,
      rows(m, [
        ['2025-03-01T00:00:00Z', '0'],
        ['2025-03-01T10:00:00Z', String(bound * 9.5)],
      ]),
      { now: NOW },
    );
    expect(result.newReadings).toBe(2);
  });

  it('accepts a reset to near zero of the register, and quarantines any other drop', async () => {
    const m = await meter('heat-energy', 'register');
    const first = await ingestReadings(
      db,
      rows(m, [
        ['2025-04-01T00:00:00Z', '30900'],
        ['2025-04-01T01:00:00Z', '30902'],
        ['2025-04-01T02:00:00Z', '3'],
      ]),
      { now: NOW },
    );
    expect(first.accepted).toBe(3);
    // 2500 after 3 is a rise of 2497 kWh in one hour: too much.
    const rise = await quarantined(
      m,
      rows(m, [['2025-04-01T03:00:00Z', '2500']]).map((r) => ({ ...r, line: 7 })),
    );
    expect(rise[0]!.line).toBe(7);
    // 3 -> 2 is a drop to two thirds of the register, not near zero: a misread.
    const small = await quarantined(m, [{ line: 9, meterNumber: m, ts: '2025-04-01T04:00:00Z', value: '2' }]);
    expect(small[0]!.kind).toBe('drop');
    const misread = await meter('heat-energy', 'register');
    await ingestReadings(
      db,
      rows(misread, [
        ['2025-04-01T00:00:00Z', '30900'],
        ['2025-04-01T01:00:00Z', '30902'],
      ]),
      { now: NOW },
    );
    const big = await quarantined(misread, [
      { line: 4, meterNumber: misread, ts: '2025-04-01T02:00:00Z', value: '20000' },
    ]);
    expect(big[0]!.reason).toMatch(/drops from 30902 to 20000/);
  });

  it('blames a reading inserted before stored ones when it makes the next interval implausible', async () => {
    const m = await meter('cold-water-volume', 'register');
    await ingestReadings(
      db,
      rows(m, [
        ['2025-05-01T05:00:00Z', '5000'],
        ['2025-05-01T06:00:00Z', '5001'],
      ]),
      { now: NOW },
    );
    const held = await quarantined(m, [
      { line: 12, meterNumber: m, ts: '2025-05-01T04:00:00Z', value: '100' },
    ]);
    expect(held[0]!.line).toBe(12);
    expect(held[0]!.reason).toMatch(/rises from 100 to 5000/);
  });
});
