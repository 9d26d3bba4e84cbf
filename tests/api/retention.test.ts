/**
 * READING_RETENTION_YEARS: the daily sweep removes raw register readings older than N years, keeping each meter's
 * newest one before the cutoff and every hourly value and rollup; ingestion then refuses readings older than the
 * cutoff and still takes newer ones. Without the setting the sweep removes nothing. Months wholly before the
 * cutoff go as whole partitions (a kept reading in one of them moves to the default partition first, and the
 * partitions job leaves it there); the cutoff's own month loses rows by DELETE.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { IngestError, ingestReadings } from '../../src/server/ingest/ingest.ts';
import { logTransport } from '../../src/server/jobs/mail.ts';
import { enqueue, runNextJob } from '../../src/server/jobs/queue.ts';
import { ALL_TASKS } from '../../src/server/jobs/registry.ts';
import { partitionsTask } from '../../src/server/jobs/tasks/partitions.ts';
import { sweepTask } from '../../src/server/jobs/tasks/sweep.ts';
import { freshDatabase } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
  const { propertyId, apartmentIds } = await testProperty(database.db, [{ uniqueId: 'R1', areaM2: '60' }]);
  for (const number of ['R-HEAT-1', 'R-HEAT-2', 'R-HEAT-3']) {
    const [point] = await database.db
      .insert(measurementPoints)
      .values({
        propertyId,
        apartmentId: apartmentIds[0]!,
        quantity: 'heat-energy',
        unit: 'kilo-watt-hour',
        name: number,
        readingKind: 'register',
      })
      .returning();
    await database.db.insert(meters).values({
      measurementPointId: point!.id,
      number,
      legacyKind: 'energy',
      installedAt: new Date('2025-01-01T00:00:00Z'),
    });
  }
  // Six-hourly readings from 2025-01-20 to 2025-04-01 (the cutoff will be 2025-03-15: January and February go
  // whole, March in part); R-HEAT-3 falls silent after 2025-01-25, so its newest reading before the cutoff lies in
  // January.
  const rows = [];
  let line = 1;
  for (
    let ms = Date.parse('2025-01-20T00:00:00Z');
    ms <= Date.parse('2025-04-01T00:00:00Z');
    ms += 6 * 3_600_000
  )
    for (const number of ['R-HEAT-1', 'R-HEAT-2', 'R-HEAT-3'])
      if (number !== 'R-HEAT-3' || ms <= Date.parse('2025-01-25T00:00:00Z'))
        rows.push({
          line: line++,
          meterNumber: number,
          ts: new Date(ms).toISOString(),
          value: String((ms - Date.parse('2025-01-20T00:00:00Z')) / 3_600_000),
        });
  await ingestReadings(database.db, rows, { now: new Date('2025-04-02T00:00:00Z') });
});
afterAll(async () => {
  await database?.close();
});

interface Counts extends Record<string, unknown> {
  readings: number;
  before: number;
  hourly: number;
  daily: number;
  monthly: number;
  meters: number;
  /** meters.last_reading_at of every meter, in order. */
  lastReadings: string;
}

/** Row counts; `before` counts readings before the cutoff 2025-03-15T00:00Z. */
async function counts(): Promise<Counts> {
  const [row] = await queryRows<Counts>(
    database.db,
    sql`SELECT (SELECT count(*)::int FROM register_readings) AS readings,
               (SELECT count(*)::int FROM register_readings WHERE ts < '2025-03-15T00:00Z') AS before,
               (SELECT count(DISTINCT meter_id)::int FROM register_readings WHERE ts < '2025-03-15T00:00Z') AS meters,
               (SELECT count(*)::int FROM hourly_consumption) AS hourly,
               (SELECT count(*)::int FROM daily_rollups) AS daily,
               (SELECT count(*)::int FROM monthly_rollups) AS monthly,
               (SELECT string_agg(last_reading_at::text, ',' ORDER BY id) FROM meters) AS "lastReadings"`,
  );
  return row!;
}

async function sweep(now: Date, readingRetentionYears?: number) {
  await database.db.execute(sql`DELETE FROM jobs WHERE task = 'sweep'`);
  await enqueue(
    database.db,
    sweepTask,
    {
      day: now.toISOString().slice(0, 10),
      retentionDays: 90,
      ...(readingRetentionYears ? { readingRetentionYears } : {}),
    },
    now,
  );
  const result = await runNextJob(database.db, {
    tasks: new Map(ALL_TASKS.map((t) => [t.name, t])),
    now,
    logger: pino({ level: 'silent' }),
    mail: logTransport,
  });
  expect(result).toMatchObject({ ran: true, task: 'sweep', status: 'done' });
}

const reading = (ts: string, value: string) => ({ line: 2, meterNumber: 'R-HEAT-1', ts, value });

/** The partitions of a partitioned table whose names end with one of `months` (yYYYYmMM). */
async function partitions(table: string, months: string[]): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    database.db,
    sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = ${table}::regclass ORDER BY 1`,
  );
  return rows.map((r) => r.name).filter((n) => months.some((m) => n.endsWith(m)));
}
const OLD_MONTHS = ['y2025m01', 'y2025m02', 'y2025m03'];

it('removes old raw readings only when set, keeps hourly values and rollups, and refuses readings past it', async () => {
  const start = await counts();
  expect(start.before).toBeGreaterThan(start.meters);

  expect(start.meters).toBe(3);
  expect(await partitions('register_readings', OLD_MONTHS)).toEqual(
    OLD_MONTHS.map((m) => `register_readings_${m}`),
  );
  // Unset: nothing removed.
  await sweep(new Date('2027-03-15T00:00:00Z'));
  expect(await counts()).toEqual(start);

  // Two years: the cutoff is 2025-03-15T00:00Z.
  await sweep(new Date('2027-03-15T00:00:00Z'), 2);
  const after = await counts();
  expect(after.before).toBe(start.meters); // each meter's newest reading before the cutoff
  expect(after.readings).toBe(start.readings - start.before + start.meters);
  expect({ hourly: after.hourly, daily: after.daily, monthly: after.monthly }).toEqual({
    hourly: start.hourly,
    daily: start.daily,
    monthly: start.monthly,
  });
  expect(after.lastReadings).toBe(start.lastReadings);
  // January and February went as whole partitions, March (the cutoff's month) stays; hourly values keep theirs.
  expect(await partitions('register_readings', OLD_MONTHS)).toEqual(['register_readings_y2025m03']);
  expect(await partitions('hourly_consumption', OLD_MONTHS)).toEqual(
    OLD_MONTHS.map((m) => `hourly_consumption_${m}`),
  );
  // The kept readings: R-HEAT-1's and 2's in March's partition, silent R-HEAT-3's (January) in the default one.
  const kept = await queryRows<{ number: string; ts: string; part: string }>(
    database.db,
    sql`SELECT m.number, to_char(r.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS ts, r.tableoid::regclass::text AS part
        FROM register_readings r JOIN meters m ON m.id = r.meter_id
        WHERE r.ts < '2025-03-15T00:00Z' ORDER BY m.number`,
  );
  expect(kept).toEqual([
    { number: 'R-HEAT-1', ts: '2025-03-14T18:00', part: 'register_readings_y2025m03' },
    { number: 'R-HEAT-2', ts: '2025-03-14T18:00', part: 'register_readings_y2025m03' },
    { number: 'R-HEAT-3', ts: '2025-01-25T00:00', part: 'register_readings_default' },
  ]);
  // The partitions job does not give January its partition back for that row.
  await enqueue(
    database.db,
    partitionsTask,
    { day: '2027-03-15', monthsAhead: 3 },
    new Date('2027-03-15T00:00:00Z'),
  );
  expect(
    await runNextJob(database.db, {
      tasks: new Map(ALL_TASKS.map((t) => [t.name, t])),
      now: new Date('2027-03-15T00:00:00Z'),
      logger: pino({ level: 'silent' }),
      mail: logTransport,
    }),
  ).toMatchObject({ ran: true, task: 'partitions', status: 'done' });
  expect(await partitions('register_readings', OLD_MONTHS)).toEqual(['register_readings_y2025m03']);
  // A second run changes nothing.
  await sweep(new Date('2027-03-15T00:00:00Z'), 2);
  expect(await counts()).toEqual(after);

  const refused = await ingestReadings(database.db, [reading('2025-03-01T00:30:00Z', '1')], {
    now: new Date('2027-03-15T00:00:00Z'),
  }).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(IngestError);
  expect((refused as IngestError).problems[0]?.reason).toMatch(
    /before 2025-03-15T00:00:00\.000Z.*READING_RETENTION_YEARS/,
  );
  expect((await counts()).readings).toBe(after.readings);

  // A reading after the cutoff goes in as before (the register keeps rising after the fixture's last reading).
  const [last] = await queryRows<{ ts: string; value: string }>(
    database.db,
    sql`SELECT to_char(r.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ts, r.value::text AS value
        FROM register_readings r JOIN meters m ON m.id = r.meter_id
        WHERE m.number = 'R-HEAT-1' ORDER BY r.ts DESC LIMIT 1`,
  );
  const next = new Date(Date.parse(last!.ts) + 3_600_000).toISOString();
  const taken = await ingestReadings(database.db, [reading(next, String(Number(last!.value) + 1))], {
    now: new Date('2027-03-15T00:00:00Z'),
  });
  expect(taken.newReadings).toBe(1);
});
