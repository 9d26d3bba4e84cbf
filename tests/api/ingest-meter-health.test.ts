/**
 * Issue 19 §3 "other findings": the worker's hourly meter check files silent meters and stuck registers in the
 * data-issue queue, once per meter and kind, and closes them itself when the meter recovers.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { ingestBatch, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { acceptIssue, listIssues } from '../../src/server/ingest/issues.ts';
import { checkMeterHealth } from '../../src/server/ingest/meterHealth.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { freshDatabase } from './helpers/db.ts';
import { registerMeter, testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;
let propertyId: number;
let apartmentId: number;
const NOW = new Date('2025-06-10T12:00:00Z');
const LIMITS = { silentHours: 48, stuckDays: 7 };
const HOUR = 3_600_000;

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

async function meter(number: string, quantity: string): Promise<void> {
  await registerMeter(db, { propertyId, apartmentId }, quantity, number);
}

/** Readings every six hours from 1 June until `untilMs`, rising by `rise` each time. */
async function readings(number: string, untilMs: number, rise: number, start = 100): Promise<void> {
  const rows: ReadingRow[] = [];
  for (let t = Date.parse('2025-06-01T00:00:00Z'), i = 0; t <= untilMs; t += 6 * HOUR, i++)
    rows.push({
      line: i + 2,
      meterNumber: number,
      ts: new Date(t).toISOString(),
      value: String(start + i * rise),
    });
  const receipt = await ingestBatch(db, rows, { now: new Date(untilMs) });
  expect(receipt).toMatchObject({ refused: 0, quarantined: 0 });
}

const open = async () =>
  (await listIssues(db)).map((i) => [i.meterNumber, i.kind]).sort((a, b) => a.join().localeCompare(b.join()));

describe('the meter check', () => {
  it('files silent meters and stuck water and electricity registers, once', async () => {
    await meter('EL-OK', 'electricity-energy');
    await readings('EL-OK', NOW.getTime(), 1);
    await meter('CW-STUCK', 'cold-water-volume');
    await readings('CW-STUCK', NOW.getTime(), 0);
    // Heat rests in summer: an unchanged heat register is no finding.
    await meter('HEAT-IDLE', 'heat-energy');
    await readings('HEAT-IDLE', NOW.getTime(), 0);
    await meter('EL-QUIET', 'electricity-energy');
    await readings('EL-QUIET', Date.parse('2025-06-08T06:00:00Z'), 1);
    await meter('EL-NEVER', 'electricity-energy');

    expect(await checkMeterHealth(db, NOW, LIMITS)).toEqual({ silent: 2, stuck: 1, closed: 0 });
    expect(await open()).toEqual([
      ['CW-STUCK', 'stuck'],
      ['EL-NEVER', 'silent'],
      ['EL-QUIET', 'silent'],
    ]);
    const quiet = (await listIssues(db)).find((i) => i.meterNumber === 'EL-QUIET')!;
    expect(quiet).toMatchObject({ source: 'worker', readingTs: NOW.toISOString(), readingValue: null });
    expect(quiet.evidence).toMatchObject({
      quantity: 'electricity-energy',
      silentHours: 48,
      last: { ts: '2025-06-08T06:00:00.000Z', value: '129' },
    });
    const stuck = (await listIssues(db)).find((i) => i.kind === 'stuck')!;
    expect(stuck.evidence).toMatchObject({ stuckDays: 7, since: { ts: '2025-06-03T12:00:00.000Z' } });

    // An hour later nothing new: one open finding per meter and kind.
    expect(await checkMeterHealth(db, new Date(NOW.getTime() + HOUR), LIMITS)).toEqual({
      silent: 0,
      stuck: 0,
      closed: 0,
    });
  });

  it('closes a finding when its meter reads again or its register moves again', async () => {
    const later = new Date(NOW.getTime() + 6 * HOUR);
    await ingestBatch(
      db,
      [
        { line: 2, meterNumber: 'EL-QUIET', ts: later.toISOString(), value: '140' },
        { line: 3, meterNumber: 'CW-STUCK', ts: later.toISOString(), value: '100.5' },
      ],
      { now: later },
    );
    expect(await checkMeterHealth(db, later, LIMITS)).toEqual({ silent: 0, stuck: 0, closed: 2 });
    expect(await open()).toEqual([['EL-NEVER', 'silent']]);
    const closed = await listIssues(db, { status: 'accepted' });
    expect(closed.map((i) => [i.meterNumber, i.resolution, i.resolvedBy, i.note]).sort()).toEqual([
      ['CW-STUCK', 'noted', 'worker', 'the register moves again'],
      ['EL-QUIET', 'noted', 'worker', 'readings resumed'],
    ]);
  });

  it('does not file again what an operator has decided, until the meter fails anew', async () => {
    const never = (await listIssues(db)).find((i) => i.meterNumber === 'EL-NEVER')!;
    await acceptIssue(db, never.id, { as: 'noted', by: 'operator', note: 'meter not connected yet' });
    const later = new Date(NOW.getTime() + 7 * HOUR);
    expect(await checkMeterHealth(db, later, LIMITS)).toEqual({ silent: 0, stuck: 0, closed: 0 });
    expect(await open()).toEqual([]);
  });

  it('runs hourly in the worker', async () => {
    await meter('EL-NEW-SILENT', 'electricity-energy');
    const clock = manualClock(new Date(NOW.getTime() + 30 * HOUR));
    const runner = createJobRunner({ db, logger: pino({ level: 'silent' }), clock, meterHealth: LIMITS });
    await runner.tick();
    expect(await open()).toContainEqual(['EL-NEW-SILENT', 'silent']);
  });
});
