/**
 * A batch that only appends to a meter's readings derives its hours from the rows it holds (registerHourlyKnownSql,
 * the misread chain without a read-back); a batch that writes among stored readings reads them back
 * (registerHourlySql). Both must give the same hours, estimated flags and rollups.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { checkAgainstStored } from '../../src/server/ingest/readings.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';
import { registerMeter } from './helpers/property.ts';

const NOW = new Date('2025-06-02T12:00:00Z');
const T0 = Date.parse('2025-06-01T00:00:00Z');
const H = 3_600_000;

let database: Database;
let fx: Fixture;
let appended: number;
let mixed: number;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  appended = await registerMeter(
    database.db,
    { propertyId: fx.propertyId, apartmentId: fx.apartmentA },
    'electricity-energy',
    'M-APPEND',
  );
  mixed = await registerMeter(
    database.db,
    { propertyId: fx.propertyId, apartmentId: fx.apartmentB },
    'electricity-energy',
    'M-MIXED',
  );
});
afterAll(async () => {
  await database?.close();
});

/** Four batches: whole hours, a reading off the hour and a gap (estimated hours), one off the hour, one after. */
const BATCHES: [number, string][][] = [
  [
    [0, '100'],
    [1, '101'],
    [2, '102'],
    [3, '103'],
  ],
  [
    [4, '104'],
    [5.5, '105.5'],
    [9, '110'],
  ],
  [
    [10, '111'],
    [11 + 1 / 3, '111.5'],
  ],
  [[12, '112']],
];

function rows(meter: string, batch: [number, string][]): ReadingRow[] {
  return batch.map(([h, value], i) => ({
    line: i + 2,
    meterNumber: meter,
    ts: new Date(T0 + h * H).toISOString(),
    value,
  }));
}

async function hours(point: number) {
  return queryRows<{ hour: string; value: string; estimated: boolean }>(
    database.db,
    sql`SELECT to_char(hour_start AT TIME ZONE 'UTC', 'HH24') AS hour, value::text AS value, estimated
        FROM hourly_consumption WHERE measurement_point_id = ${point} ORDER BY hour_start`,
  );
}

async function daily(point: number) {
  return queryRows<{ day: string; sum: string; count: number; estimated: number }>(
    database.db,
    sql`SELECT day::text AS day, sum::text AS sum, count, estimated FROM daily_rollups
        WHERE measurement_point_id = ${point} ORDER BY day`,
  );
}

describe('appending batches', () => {
  it('derive the same hours as batches written among stored readings', async () => {
    // One meter gets its batches in order: each only appends.
    for (const batch of BATCHES) {
      const receipt = await ingestBatch(database.db, rows('M-APPEND', batch), { now: NOW });
      expect(receipt.accepted).toBe(batch.length);
    }
    // The other the same readings newest batch first: every later batch lands before stored readings.
    for (const batch of [...BATCHES].reverse()) {
      const receipt = await ingestBatch(database.db, rows('M-MIXED', batch), { now: NOW });
      expect(receipt.accepted).toBe(batch.length);
    }
    const a = await hours(appended);
    expect(a).toEqual(await hours(mixed));
    expect(await daily(appended)).toEqual(await daily(mixed));
    // 12 kWh from hour 0 to hour 12, in 12 hours. Estimated: the hours of intervals longer than 75 minutes
    // (04:00 → 05:30, 05:30 → 09:00, 10:00 → 11:20).
    expect(a.map((h) => h.hour)).toEqual([
      '00',
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
    ]);
    expect(a.reduce((s, h) => s + Number(h.value), 0)).toBeCloseTo(12, 9);
    expect(a.filter((h) => h.estimated).map((h) => h.hour)).toEqual([
      '04',
      '05',
      '06',
      '07',
      '08',
      '10',
      '11',
    ]);
    expect(a.find((h) => h.hour === '04')!.value).toBe('1');
    // 05:30 → 09:00 (4.5 kWh over 3.5 h): 0.5 h of it in hour 05, beside 0.5 kWh of 04:00 → 05:30.
    expect(Number(a.find((h) => h.hour === '05')!.value)).toBeCloseTo(0.5 + 4.5 / 7, 8);
  });

  it('quarantine a misread in an appending batch, leaving the hours around it unknown', async () => {
    const meter = await registerMeter(
      database.db,
      { propertyId: fx.propertyId, apartmentId: fx.apartmentA },
      'electricity-energy',
      'M-APPEND-2',
    );
    await ingestBatch(database.db, rows('M-APPEND-2', BATCHES[0]!), { now: NOW });
    const receipt = await ingestBatch(
      database.db,
      rows('M-APPEND-2', [
        [4, '104'],
        [5, '10.5'],
        [6, '106'],
      ]),
      { now: NOW },
    );
    expect(receipt.results.map((r) => r.status)).toEqual(['accepted', 'quarantined', 'accepted']);
    const h = await hours(meter);
    // 03 → 04 booked; 04 → 06 held the misread: unknown (no hours) until an operator decides.
    expect(h.map((x) => x.hour)).toEqual(['00', '01', '02', '03']);
  });

  it('derive the same hours after a meter swap: the new meter appends alone once the old one has stopped', async () => {
    // Two points, each with an old meter read hours 0–4 and a new one from hour 4 (the swap), as one would book it.
    const points: { point: number; old: string; fresh: string }[] = [];
    for (const [apartmentId, tag] of [
      [fx.apartmentA, 'A'],
      [fx.apartmentB, 'B'],
    ] as const) {
      const old = `M-OLD-${tag}`;
      const fresh = `M-NEW-${tag}`;
      const point = await registerMeter(
        database.db,
        { propertyId: fx.propertyId, apartmentId },
        'electricity-energy',
        old,
      );
      await database.db.execute(sql`UPDATE meters SET removed_at = ${new Date(T0 + 4 * H).toISOString()}::timestamptz
                                    WHERE number = ${old}`);
      await database.db.insert(meters).values({
        measurementPointId: point,
        number: fresh,
        legacyKind: 'energy',
        installedAt: new Date(T0 + 4 * H),
      });
      await ingestBatch(
        database.db,
        rows(old, [
          [0, '500'],
          [1, '501'],
          [2, '502.5'],
          [3, '503'],
          [4, '504'],
        ]),
        { now: NOW },
      );
      await ingestBatch(database.db, rows(fresh, [[4, '0']]), { now: NOW });
      points.push({ point, old, fresh });
    }
    const later: [number, string][][] = [
      [
        [5, '1'],
        [6, '2.25'],
        [7, '3'],
      ],
      [
        [8, '4'],
        [9.5, '5.5'],
        [11, '7'],
      ],
    ];
    const [a, b] = points as [(typeof points)[number], (typeof points)[number]];
    // The new meter of A takes the batch's own readings (its old meter has none after its newest): a check says so.
    const [newA] = await queryRows<{ id: number }>(
      database.db,
      sql`SELECT id FROM meters WHERE number = ${a.fresh}`,
    );
    const check = await checkAgainstStored(database.db, [
      { line: 2, meterId: newA!.id, ms: T0 + 5 * H, value: '1', ts: new Date(T0 + 5 * H).toISOString() },
    ]);
    expect(check.plain.has(newA!.id)).toBe(true);
    for (const batch of later) await ingestBatch(database.db, rows(a.fresh, batch), { now: NOW });
    // B the other way round: every later batch lands before stored readings, and the hours are read back.
    for (const batch of [...later].reverse())
      await ingestBatch(database.db, rows(b.fresh, batch), { now: NOW });
    const hoursA = await hours(a.point);
    expect(hoursA).toEqual(await hours(b.point));
    expect(await daily(a.point)).toEqual(await daily(b.point));
    // 4 kWh of the old meter, then 7 of the new one; the swap hour (04) belongs to the new meter's first interval.
    expect(hoursA.reduce((sum, h) => sum + Number(h.value), 0)).toBeCloseTo(11, 9);
    expect(hoursA.find((h) => h.hour === '05')!.value).toBe('1.25');
  });

  it('sum both meters of a point when one batch holds readings of each', async () => {
    const point = await registerMeter(
      database.db,
      { propertyId: fx.propertyId, apartmentId: fx.apartmentA },
      'electricity-energy',
      'M-TWIN-1',
    );
    await database.db.insert(meters).values({
      measurementPointId: point,
      number: 'M-TWIN-2',
      legacyKind: 'energy',
      installedAt: new Date(T0),
    });
    await ingestBatch(database.db, [...rows('M-TWIN-1', [[0, '10']]), ...rows('M-TWIN-2', [[0, '20']])], {
      now: NOW,
    });
    // Both meters append an hour in one batch: the point's hour is the sum of the two rises.
    await ingestBatch(database.db, [...rows('M-TWIN-1', [[1, '11']]), ...rows('M-TWIN-2', [[1, '22']])], {
      now: NOW,
    });
    expect(await hours(point)).toEqual([{ hour: '00', value: '3', estimated: false }]);
  });

  it("find a meter's newest stored reading after a long silence (none in the 35 days before the batch)", async () => {
    const point = await registerMeter(
      database.db,
      { propertyId: fx.propertyId, apartmentId: fx.apartmentB },
      'electricity-energy',
      'M-SILENT',
    );
    const longAgo = T0 - 60 * 24 * H;
    await ingestBatch(
      database.db,
      [{ line: 2, meterNumber: 'M-SILENT', ts: new Date(longAgo).toISOString(), value: '100' }],
      { now: NOW },
    );
    const [meter] = await queryRows<{ id: number }>(
      database.db,
      sql`SELECT id FROM meters WHERE number = 'M-SILENT'`,
    );
    const check = await checkAgainstStored(database.db, [
      { line: 2, meterId: meter!.id, ms: T0, value: '101', ts: new Date(T0).toISOString() },
    ]);
    expect(check.last.get(meter!.id)).toEqual({ ms: longAgo, text: '100' });
    expect(check.appends).toHaveLength(1);
    await ingestBatch(database.db, rows('M-SILENT', [[0, '101']]), { now: NOW });
    // The 60 days between are estimated hours that add up to the 1 kWh.
    const h = await hours(point);
    expect(h).toHaveLength(60 * 24);
    expect(h.every((x) => x.estimated)).toBe(true);
  });
});
