/**
 * Sweeps rows that only grow: finished job rows (done or failed) older than the retention, finished ingestion
 * batches (their receipts), API keys' daily counts, MQTT telegrams' no-reading counts (not seen since) and MQTT
 * subscribers' status rows (not reported since) older than it too, and throttle rows (report lookups, account
 * rate limits) whose window has ended. Pending jobs, which include any job a worker is running right now (it holds
 * the row lock; its status is still pending), are never touched.
 *
 * A swept job's dedupe key is free again. The schedule only queues the latest complete period, so with the
 * minimum retention of 35 days a day, week or month job is never queued again; a yearly alarm's job for the
 * current latest year can be, and runs once more writing nothing (its evaluation and notification are keyed).
 * With READING_RETENTION_YEARS set it removes raw register readings past that age (ingest/retention.ts).
 * The sweep then refreshes the planner's statistics (ANALYZE) of the tables that grew by a tenth since.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, refreshGrownStatistics } from '../../db/sql.ts';
import { removeOldReadings } from '../../ingest/retention.ts';
import { defineTask } from '../task.ts';

/** Default and smallest retention of finished job rows, in days (JOB_RETENTION_DAYS). */
export const DEFAULT_JOB_RETENTION_DAYS = 90;
const MIN_JOB_RETENTION_DAYS = 35;

export const sweepTask = defineTask({
  name: 'sweep',
  payload: z.object({
    /** The local day the sweep is for (one sweep a day). */
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    retentionDays: z.number().int().min(MIN_JOB_RETENTION_DAYS).default(DEFAULT_JOB_RETENTION_DAYS),
    /** READING_RETENTION_YEARS: raw register readings older than this are removed (ingest/retention.ts). */
    readingRetentionYears: z.number().int().min(1).optional(),
  }),
  key: (p) => ({ subject: 'rows', period: p.day }),
  async run({ tx, now, logger }, { retentionDays, readingRetentionYears }) {
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
    const iso = now.toISOString();
    const count = async (query: ReturnType<typeof sql>) => (await queryRows(tx, query)).length;
    const jobs = await count(
      sql`DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished_at < ${cutoff}::timestamptz
          RETURNING id`,
    );
    const reportLookups = await count(
      sql`DELETE FROM report_lookup_limits WHERE expire < ${iso}::timestamptz RETURNING key`,
    );
    const rateLimits = await count(
      sql`DELETE FROM rate_limits WHERE expire < ${iso}::timestamptz RETURNING key`,
    );
    // Ingestion's records past the same retention: a finished batch's receipt (its Idempotency-Key is then free:
    // a replay runs again, and its rows come back as duplicates) and each API key's counts per day.
    const ingestBatches = await count(
      sql`DELETE FROM ingest_batches WHERE status <> 'pending'
            AND coalesce(finished_at, created_at) < ${cutoff}::timestamptz RETURNING id`,
    );
    const keyDays = await count(
      sql`DELETE FROM api_key_days
          WHERE day < (${cutoff}::timestamptz AT TIME ZONE 'Europe/Copenhagen')::date RETURNING api_key_id`,
    );
    // MQTT telegrams that gave no reading, per radio id and reason, not seen again within the retention: a reader
    // that stopped sending an unknown id, or a meter whose telegrams are read again, drops off the console's list.
    const unmatchedTelegrams = await count(
      sql`DELETE FROM mqtt_unmatched WHERE last_seen < ${cutoff}::timestamptz RETURNING radio_id`,
    );
    // MQTT subscribers that have not reported within the retention (a client id no longer used): off the console.
    const feedSubscribers = await count(
      sql`DELETE FROM mqtt_feed WHERE reported_at < ${cutoff}::timestamptz RETURNING client_id`,
    );
    if (readingRetentionYears) {
      const readings = await removeOldReadings(tx, now, readingRetentionYears);
      logger.info({ ...readings, readingRetentionYears }, 'removed raw readings past their retention');
    }
    // Planner statistics for tables that grew since (CSV imports, days of readings).
    const analyzed = await refreshGrownStatistics(tx);
    logger.info(
      {
        jobs,
        reportLookups,
        rateLimits,
        ingestBatches,
        keyDays,
        unmatchedTelegrams,
        feedSubscribers,
        retentionDays,
        analyzed,
      },
      'swept old rows, statistics refreshed',
    );
  },
});
