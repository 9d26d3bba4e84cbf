/**
 * The schedule: which jobs are due at `now`. Only the latest complete period of each alarm and the latest
 * complete month are queued, so after downtime the worker catches up with one evaluation per alarm and one
 * report per tenancy, not one per missed period. Queuing is idempotent (dedupe keys), so any number of
 * workers may run it.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { DEFAULT_SILENT_HOURS, DEFAULT_STUCK_DAYS, meterHealthTask } from '../ingest/meterHealth.ts';
import { feedCheckTask } from '../mqtt/alert.ts';
import { type AlarmFrequency, latestCompletePeriod, localDate } from './alarmPeriods.ts';
import { enqueue } from './queue.ts';
import { partitionsTask } from './tasks/partitions.ts';
import { DEFAULT_JOB_RETENTION_DAYS, sweepTask } from './tasks/sweep.ts';

const FREQUENCIES: AlarmFrequency[] = ['day', 'week', 'month', 'year'];

/** Options of the schedule. */
export interface ScheduleOptions {
  /** Days finished job rows are kept (JOB_RETENTION_DAYS); the daily sweep deletes older ones. */
  jobRetentionDays?: number;
  /** READING_RETENTION_YEARS; unset keeps every raw reading. */
  readingRetentionYears?: number | undefined;
  /** METER_SILENT_HOURS and METER_STUCK_DAYS of the hourly meter check (ingest/meterHealth.ts). */
  meterHealth?: { silentHours: number; stuckDays: number };
  /** MQTT_ORGANISATION: whose admins the feed check tells (mqtt/alert.ts). */
  mqttOrganisation?: string | undefined;
}

/**
 * Queues the due alarm evaluations, monthly reports, the day's sweep and partition run, the hour's meter check and
 * the MQTT feed check; returns how many jobs were new.
 */
export async function scheduleDueJobs(
  db: Db,
  now: Date,
  options: ScheduleOptions = {},
): Promise<{
  alarms: number;
  reports: number;
  sweep: boolean;
  meterHealth: boolean;
  partitions: boolean;
  feedCheck: boolean;
}> {
  const iso = now.toISOString();
  let alarmJobs = 0;
  for (const frequency of FREQUENCIES) {
    const { start } = latestCompletePeriod(now, frequency);
    const rows = await queryRows(
      db,
      sql`INSERT INTO jobs (task, key, payload, run_at)
          SELECT 'evaluate-alarm', 'evaluate-alarm:alarm:' || a.id || ':' || ${start}::text,
                 jsonb_build_object('alarmId', a.id, 'periodStart', ${start}::text), ${iso}::timestamptz
          FROM alarms a
          JOIN tenancy_members m ON m.tenancy_id = a.tenancy_id AND m.user_id = a.user_id
          WHERE a.enabled AND a.frequency = ${frequency}
          ON CONFLICT (key) DO NOTHING
          RETURNING id`,
    );
    alarmJobs += rows.length;
  }
  const monthStart = localDate(now).with({ day: 1 }).subtract({ months: 1 });
  const month = monthStart.toString().slice(0, 7);
  const monthEnd = monthStart.add({ months: 1 }).toString();
  const reports = await queryRows(
    db,
    sql`INSERT INTO jobs (task, key, payload, run_at)
        SELECT 'consumption-report', 'consumption-report:tenancy:' || t.id || ':' || ${month}::text,
               jsonb_build_object('tenancyId', t.id, 'month', ${month}::text), ${iso}::timestamptz
        FROM tenancies t
        WHERE EXISTS (SELECT 1 FROM tenancy_members m WHERE m.tenancy_id = t.id)
          AND t.start < ${monthEnd}::date AND (t.end IS NULL OR t.end >= ${monthStart.toString()}::date)
        ON CONFLICT (key) DO NOTHING
        RETURNING id`,
  );
  const sweep = await enqueue(
    db,
    sweepTask,
    {
      day: localDate(now).toString(),
      retentionDays: options.jobRetentionDays ?? DEFAULT_JOB_RETENTION_DAYS,
      ...(options.readingRetentionYears ? { readingRetentionYears: options.readingRetentionYears } : {}),
    },
    now,
  );
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
  const meterHealth = await enqueue(
    db,
    meterHealthTask,
    {
      hour,
      silentHours: options.meterHealth?.silentHours ?? DEFAULT_SILENT_HOURS,
      stuckDays: options.meterHealth?.stuckDays ?? DEFAULT_STUCK_DAYS,
    },
    now,
  );
  // Monthly partitions of the hourly-grain tables, made ahead (tasks/partitions.ts); by UTC day.
  const partitions = await enqueue(db, partitionsTask, { day: iso.slice(0, 10) }, now);
  // The MQTT feed check, every 5 minutes, only where a subscriber has ever reported (no job rows otherwise).
  const [feed] = await queryRows<{ any: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM mqtt_feed) AS any`);
  const feedCheck = feed?.any
    ? await enqueue(
        db,
        feedCheckTask,
        {
          slot: new Date(Math.floor(now.getTime() / 300_000) * 300_000).toISOString(),
          ...(options.mqttOrganisation ? { organisation: options.mqttOrganisation } : {}),
        },
        now,
      )
    : false;
  return { alarms: alarmJobs, reports: reports.length, sweep, meterHealth, partitions, feedCheck };
}
