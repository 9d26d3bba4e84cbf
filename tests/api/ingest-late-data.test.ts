/**
 * Issue 19 §2: late data re-evaluates an alarm period already judged (it fires at most once) and regenerates
 * the monthly report of its month under the same code; a batch that touches nothing judged queues nothing.
 */
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import {
  alarmEvaluations,
  alarms,
  monthlyReports,
  notifications,
  tenancies,
} from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { queueLateDataRecheck } from '../../src/server/ingest/lateData.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { evaluateAlarmPeriod } from '../../src/server/jobs/tasks/evaluateAlarm.ts';
import { reportSettings } from '../../src/server/reports/deployment.ts';
import { generateMonthlyReports } from '../../src/server/reports/generate.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';
import { registerMeter } from './helpers/property.ts';

const NOW = new Date('2025-03-20T12:00:00Z');
const logger = pino({ level: 'silent' });
let database: Database;
let db: Db;
let fx: Fixture;
let tenancyId: number;
let alarmId: number;
let pointId: number;

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  fx = await seedFixture(db);
  const [t] = await db.select().from(tenancies).where(eq(tenancies.tenancyId, 'T-A-2025'));
  tenancyId = t!.id;
  pointId = await registerMeter(
    db,
    { propertyId: fx.propertyId, apartmentId: fx.apartmentA },
    'electricity-energy',
    'M-EL-LATE',
  );
  const [a] = await db
    .insert(alarms)
    .values({
      userId: fx.users.alice.id,
      tenancyId,
      type: 'threshold',
      quantity: 'electricity-energy',
      frequency: 'day',
      threshold: '30',
    })
    .returning();
  alarmId = a!.id;
});
afterAll(async () => {
  await database?.close();
});

/** Hourly readings from `from` for `hours` hours, rising 2 kWh an hour from `start`. */
function rows(from: string, hours: number, start: number): ReadingRow[] {
  return Array.from({ length: hours }, (_, i) => ({
    line: i + 2,
    meterNumber: 'M-EL-LATE',
    ts: new Date(Date.parse(from) + i * 3_600_000).toISOString(),
    value: String(start + 2 * i),
  }));
}

const lateJobs = () =>
  queryRows<{ payload: { alarms: unknown[]; reports: unknown[] } }>(
    db,
    sql`SELECT payload FROM jobs WHERE task = 'late-data' AND status = 'pending'`,
  );
const firedNotices = () =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.alarmId, alarmId), eq(notifications.periodStart, '2025-03-11')));
const drain = () => createJobRunner({ db, logger, clock: manualClock(NOW) }).drain();

describe('late data', () => {
  it('evaluates a judged alarm period again, fires it once, and regenerates the report under its code', async () => {
    // Local 10 March whole, and 11 March only until 12:00: the 11th is incomplete.
    await ingestBatch(db, rows('2025-03-09T23:00:00Z', 37, 0), { now: NOW });
    await evaluateAlarmPeriod({ tx: db, now: NOW, logger }, alarmId, '2025-03-11', false);
    const [before] = await db.select().from(alarmEvaluations).where(eq(alarmEvaluations.alarmId, alarmId));
    expect(before).toMatchObject({ state: 'unknown', reason: 'missing_data' });
    const settings = reportSettings();
    await generateMonthlyReports(db, { month: '2025-03-01', now: NOW, settings, tenancyId });
    const [report] = await db.select().from(monthlyReports).where(eq(monthlyReports.tenancyId, tenancyId));
    expect(await lateJobs()).toEqual([]);

    // The rest of the 11th arrives a week late: 48 kWh, above the threshold of 30.
    await ingestBatch(db, rows('2025-03-11T11:00:00Z', 13, 72), { now: NOW });
    const [job] = await lateJobs();
    expect(job!.payload).toMatchObject({
      alarms: [{ alarmId, periodStart: '2025-03-11' }],
      reports: [{ tenancyId, month: '2025-03-01' }],
    });
    await drain();
    const [after] = await db.select().from(alarmEvaluations).where(eq(alarmEvaluations.alarmId, alarmId));
    expect(after).toMatchObject({ state: 'fired', value: '48', reason: 'above_threshold' });
    expect(await firedNotices()).toHaveLength(1);
    const [regenerated] = await db
      .select()
      .from(monthlyReports)
      .where(eq(monthlyReports.tenancyId, tenancyId));
    expect(regenerated!.code).toBe(report!.code);
    expect(regenerated!.expiresAt).toEqual(report!.expiresAt);
    expect(regenerated!.content).not.toEqual(report!.content);

    // Checked again (another late batch on the same day): no second notice.
    await queueLateDataRecheck(db, [{ pointId, dayLo: '2025-03-11', dayHi: '2025-03-11' }]);
    await drain();
    expect(await firedNotices()).toHaveLength(1);
  });

  it('rechecks only what the late days touch', async () => {
    // The 12th (local) has no evaluation: only March's report is rechecked.
    await ingestBatch(db, rows('2025-03-12T00:00:00Z', 5, 98), { now: NOW });
    const jobs = await lateJobs();
    expect(jobs.map((j) => j.payload)).toEqual([
      { batch: expect.any(String), alarms: [], reports: [{ tenancyId, month: '2025-03-01' }] },
    ]);
    await drain();
    expect(await lateJobs()).toEqual([]);
  });
});
