/**
 * Issue 19 §3: misreads are quarantined in data_issues, not booked; the hours around stay unknown until an
 * operator accepts (correct, reset, swap) or rejects; scheduled allocator resets, rollovers and swaps with
 * readings; and the per-row receipt of ingestBatch.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { acceptIssue, listIssues, recordSwap, rejectIssue } from '../../src/server/ingest/issues.ts';
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

let count = 0;
/** A fresh register point with one meter (profile optional); returns meter number and point id. */
async function meter(
  quantity: string,
  profile: { rolloverDigits?: number; resetOn?: string } = {},
): Promise<{ number: string; pointId: number }> {
  const number = `Q-${++count}`;
  const [p] = await db
    .insert(measurementPoints)
    .values({ propertyId, apartmentId, quantity, unit: 'x', name: quantity, readingKind: 'register' })
    .returning();
  await db.insert(meters).values({
    measurementPointId: p!.id,
    number,
    legacyKind: 'energy',
    installedAt: new Date('2020-01-01T00:00:00Z'),
    rolloverDigits: profile.rolloverDigits ?? null,
    resetOn: profile.resetOn ?? null,
  });
  return { number, pointId: p!.id };
}

function rows(meterNumber: string, readings: [string, string][], firstLine = 2): ReadingRow[] {
  return readings.map(([ts, value], i) => ({ line: i + firstLine, meterNumber, ts, value }));
}

async function hourly(pointId: number): Promise<Record<string, string>> {
  const result = await queryRows<{ hour: string; value: string }>(
    db,
    sql`SELECT to_char(hour_start AT TIME ZONE 'UTC', 'DD"T"HH24') AS hour, value::text AS value
        FROM hourly_consumption WHERE measurement_point_id = ${pointId} ORDER BY hour_start`,
  );
  return Object.fromEntries(result.map((r) => [r.hour, r.value]));
}

async function daySum(pointId: number, day: string): Promise<string | null> {
  const [row] = await queryRows<{ sum: string }>(
    db,
    sql`SELECT sum::text AS sum FROM daily_rollups WHERE measurement_point_id = ${pointId} AND day = ${day}`,
  );
  return row?.sum ?? null;
}

describe('a heat register misread 5456.0 -> 545.6 (a digit shift)', () => {
  it('is quarantined with its evidence, the hours around it unknown, the rest booked', async () => {
    const m = await meter('heat-energy');
    const receipt = await ingestBatch(
      db,
      rows(m.number, [
        ['2025-01-10T00:00:00Z', '5455'],
        ['2025-01-10T01:00:00Z', '5456.0'],
        ['2025-01-10T02:00:00Z', '545.6'],
        ['2025-01-10T03:00:00Z', '5458'],
        ['2025-01-10T04:00:00Z', '5459'],
      ]),
      { now: NOW, source: 'test' },
    );
    expect(receipt).toMatchObject({ accepted: 4, quarantined: 1, refused: 0, duplicate: 0 });
    const held = receipt.results.find((r) => r.status === 'quarantined')!;
    expect(held.line).toBe(4);
    const [issue] = await listIssues(db);
    expect(issue).toMatchObject({
      id: held.issueId,
      kind: 'digit-shift',
      status: 'open',
      meterNumber: m.number,
      readingValue: '545.6',
      source: 'test',
    });
    expect(issue!.evidence.before).toEqual({ ts: '2025-01-10T01:00:00.000Z', value: '5456' });
    // 545.6 kWh were never booked; the two hours between 01:00 and 03:00 are unknown (no row).
    expect(await hourly(m.pointId)).toEqual({ '10T00': '1', '10T03': '1' });
    expect(await daySum(m.pointId, '2025-01-10')).toBe('2');

    // Rejected: the reading stays out, the hours are derived from its neighbours.
    await rejectIssue(db, held.issueId!, 'tester');
    expect(await hourly(m.pointId)).toEqual({ '10T00': '1', '10T01': '1', '10T02': '1', '10T03': '1' });
    expect(await daySum(m.pointId, '2025-01-10')).toBe('4');
    // The same misread sent again is a duplicate of the rejected one, not a new issue.
    const again = await ingestBatch(db, rows(m.number, [['2025-01-10T02:00:00Z', '545.6']]), { now: NOW });
    expect(again.results).toEqual([{ line: 2, status: 'duplicate' }]);
    expect(await listIssues(db)).toEqual([]);
  });

  it('a late misread inside booked hours clears them until it is decided; accepted as a reset it books', async () => {
    const m = await meter('cold-water-volume');
    await ingestBatch(
      db,
      rows(m.number, [
        ['2025-02-01T00:00:00Z', '304.06'],
        ['2025-02-01T02:00:00Z', '304.56'],
      ]),
      { now: NOW },
    );
    expect(await hourly(m.pointId)).toEqual({ '01T00': '0.25', '01T01': '0.25' });
    // Water 304.56 -> 14.56 was booked as a reset before; it is a drop to 5 % of the register.
    const late = await ingestBatch(db, rows(m.number, [['2025-02-01T01:00:00Z', '14.56']]), { now: NOW });
    expect(late.quarantined).toBe(1);
    expect(await hourly(m.pointId)).toEqual({});
    expect(await daySum(m.pointId, '2025-02-01')).toBeNull();
    // The same suspect row again is answered with the same issue.
    const replay = await ingestBatch(db, rows(m.number, [['2025-02-01T01:00:00Z', '14.56']]), { now: NOW });
    expect(replay.results[0]).toMatchObject({ status: 'quarantined', issueId: late.results[0]!.issueId });
    await expect(acceptIssue(db, late.results[0]!.issueId!, { as: 'correct', by: 't' })).rejects.toThrow(
      /drop/,
    );
    await acceptIssue(db, late.results[0]!.issueId!, { as: 'reset', by: 't' });
    // 00:00 -> 01:00: reset to 14.56 (counts 14.56); 01:00 -> 02:00: 289.99 is a rise above 40 m³/h, but
    // stored readings on both sides are not judged again.
    const hours = await hourly(m.pointId);
    expect(hours['01T00']).toBe('14.56');
  });
});

describe('profiles', () => {
  it('a heat-cost allocator resets on its billing date: no issue, the value after counts', async () => {
    const m = await meter('hca', { resetOn: '06-01' });
    const receipt = await ingestBatch(
      db,
      rows(m.number, [
        ['2025-05-31T20:00:00Z', '850'],
        ['2025-06-01T02:00:00Z', '3'],
      ]),
      { now: NOW },
    );
    expect(receipt).toMatchObject({ accepted: 2, quarantined: 0 });
    // The same drop on another date is a misread.
    const other = await meter('hca', { resetOn: '09-01' });
    const wrong = await ingestBatch(
      db,
      rows(other.number, [
        ['2025-05-31T20:00:00Z', '850'],
        ['2025-06-01T02:00:00Z', '300'],
      ]),
      { now: NOW },
    );
    expect(wrong.quarantined).toBe(1);
  });

  it('a register rolls over at its digits: 99998 -> 3 is 5 units of use', async () => {
    const m = await meter('heat-energy', { rolloverDigits: 5 });
    const receipt = await ingestBatch(
      db,
      rows(m.number, [
        ['2025-03-01T00:00:00Z', '99998'],
        ['2025-03-01T01:00:00Z', '3'],
      ]),
      { now: NOW },
    );
    expect(receipt).toMatchObject({ accepted: 2, quarantined: 0 });
    expect(await hourly(m.pointId)).toEqual({ '01T00': '5' });
  });
});

describe('a meter swap with readings', () => {
  it('ends the old meter with its end reading and starts the new one with its start reading', async () => {
    const m = await meter('cold-water-volume');
    await ingestBatch(
      db,
      rows(m.number, [
        ['2025-04-01T00:00:00Z', '812'],
        ['2025-04-01T01:00:00Z', '812.5'],
      ]),
      { now: NOW },
    );
    await recordSwap(db, {
      meter: m.number,
      at: '2025-04-01T02:00:00Z',
      endValue: '813.5',
      newMeter: `${m.number}-NEW`,
      startValue: '0.25',
    });
    await ingestBatch(db, rows(`${m.number}-NEW`, [['2025-04-01T03:00:00Z', '1']]), { now: NOW });
    expect(await hourly(m.pointId)).toEqual({ '01T00': '0.5', '01T01': '1', '01T02': '0.75' });
    // The old meter takes no reading after its swap.
    const late = await ingestBatch(db, rows(m.number, [['2025-04-01T04:00:00Z', '814']]), { now: NOW });
    expect(late.results[0]).toMatchObject({ status: 'refused' });
    await expect(
      recordSwap(db, { meter: m.number, at: '2025-04-01T05:00:00Z', newMeter: 'X', startValue: '0' }),
    ).rejects.toThrow(/not installed/);
  });
});

describe('the receipt', () => {
  it('has every state, takes good rows beside refused ones, and refuses all with atomic', async () => {
    const m = await meter('electricity-energy');
    await ingestBatch(db, rows(m.number, [['2025-05-01T00:00:00Z', '10']]), { now: NOW });
    const batch: ReadingRow[] = [
      ...rows(m.number, [
        ['2025-05-01T00:00:00Z', '10'],
        ['2025-05-01T01:00:00Z', '11'],
        ['2025-05-01T02:00:00Z', '99999'],
      ]),
      { line: 5, meterNumber: 'NO-SUCH', ts: '2025-05-01T00:00:00Z', value: '1' },
      { line: 6, meterNumber: m.number, ts: 'yesterday', value: '1' },
    ];
    await expect(ingestBatch(db, batch, { now: NOW, atomic: true })).rejects.toThrow(/unknown meter number/);
    const receipt = await ingestBatch(db, batch, { now: NOW });
    expect(receipt.results.map((r) => [r.line, r.status])).toEqual([
      [2, 'duplicate'],
      [3, 'accepted'],
      [4, 'quarantined'],
      [5, 'refused'],
      [6, 'refused'],
    ]);
    expect(receipt.results[3]!.reason).toMatch(/unknown meter number "NO-SUCH"/);
    // A meter outside the batch's properties is as unknown as one that does not exist.
    const scoped = await ingestBatch(db, rows(m.number, [['2025-05-01T03:00:00Z', '12']]), {
      now: NOW,
      propertyIds: [propertyId + 1000],
    });
    expect(scoped.results[0]).toMatchObject({
      status: 'refused',
      reason: `unknown meter number "${m.number}"`,
    });
  });

  it('commits a batch in parts (chunkRows) with the receipt and the hours of one transaction', async () => {
    const one = await meter('electricity-energy');
    const parts = await meter('electricity-energy');
    const series: [string, string][] = [
      ['2025-06-01T00:00:00Z', '10'],
      ['2025-06-01T01:00:00Z', '11'],
      ['2025-06-01T02:00:00Z', '99999'],
      ['2025-06-01T03:00:00Z', '12'],
      ['2025-06-01T01:00:00Z', '11'],
      ['2025-06-01T06:00:00Z', '15'],
      ['2025-06-01T07:00:00Z', 'x'],
      ['2025-06-01T08:00:00Z', '16'],
    ];
    const whole = await ingestBatch(db, rows(one.number, series), { now: NOW });
    const chunked = await ingestBatch(db, rows(parts.number, series), { now: NOW, chunkRows: 2 });
    const states = (r: typeof whole) => r.results.map((x) => [x.line, x.status]);
    expect(states(chunked)).toEqual(states(whole));
    expect(states(whole)).toEqual([
      [2, 'accepted'],
      [3, 'accepted'],
      [4, 'quarantined'],
      [5, 'accepted'],
      [6, 'duplicate'],
      [7, 'accepted'],
      [8, 'refused'],
      [9, 'accepted'],
    ]);
    expect(chunked).toMatchObject({ accepted: 5, duplicate: 1, refused: 1, quarantined: 1, newReadings: 5 });
    // The same hours (estimated ones across the gap included), and the same daily rollup.
    expect(await hourly(parts.pointId)).toEqual(await hourly(one.pointId));
    const daily = (pointId: number) =>
      queryRows<{ sum: string; count: number; estimated: number }>(
        db,
        sql`SELECT sum::text AS sum, count, estimated FROM daily_rollups WHERE measurement_point_id = ${pointId}`,
      );
    expect(await daily(parts.pointId)).toEqual(await daily(one.pointId));
    expect((await daily(one.pointId)).length).toBeGreaterThan(0);
  });
});
