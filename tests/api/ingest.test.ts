/**
 * Ingestion: hourly consumption from register readings and instantaneous samples, re-imports and bad input. The
 * rollups: ingest-rollups.test.ts. Fixture: tests/api/helpers/ingest.ts.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/sql.ts';
import { parseReadingsCsv } from '../../src/server/ingest/csv.ts';
import { IngestError, ingestReadings } from '../../src/server/ingest/ingest.ts';
import { ingestTestProperty, rows } from './helpers/ingest.ts';

const fx = ingestTestProperty();
const { point, count } = fx;

async function hourly(pointId: number): Promise<[string, string][]> {
  const result = await queryRows<{ hour: string; value: string }>(
    fx.db,
    sql`SELECT to_char(hour_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS hour, value::text AS value
        FROM hourly_consumption WHERE measurement_point_id = ${pointId} ORDER BY hour_start`,
  );
  return result.map((r) => [r.hour, r.value]);
}

describe('hourly consumption from register readings', () => {
  it('is the difference between consecutive hourly readings', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-1' }]);
    const result = await ingestReadings(
      fx.db,
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
      fx.db,
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
      fx.db,
      rows('H-LATE', [
        ['2025-01-10T00:00:00Z', '0'],
        ['2025-01-10T03:00:00Z', '3'],
      ]),
    );
    await ingestReadings(fx.db, rows('H-LATE', [['2025-01-10T01:00:00Z', '2']]));
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
    await ingestReadings(fx.db, [
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
      fx.db,
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
      fx.db,
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
    await ingestReadings(fx.db, batch);
    const before = await hourly(p);
    const readingsBefore = await count('register_readings');
    // Same values written differently are the same reading.
    const again = await ingestReadings(fx.db, [
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
        {
          line: 3,
          reason: expect.stringContaining('malformed CSV'),
          code: 'malformed_csv',
          params: { message: expect.any(String) },
        },
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
    const error = await ingestReadings(fx.db, rowsBad).catch((e: unknown) => e);
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
    await ingestReadings(fx.db, rows('H-CONFLICT', [['2025-06-02T00:00:00Z', '5']]));
    const readingsBefore = await count('register_readings');
    const error = await ingestReadings(fx.db, [
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
