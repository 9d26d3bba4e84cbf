/**
 * Retention of raw register readings (READING_RETENTION_YEARS): the daily sweep removes readings older than N
 * years; hourly values and every rollup are kept, so graphs, reports and comparisons of those years stay as they
 * were. Per meter the newest reading before the cutoff is kept, so the hours after it can still be derived again
 * when a late reading arrives. The cutoff is recorded as the horizon, and ingestion refuses a reading older than
 * it: derived from what is left, its hours would replace values that were derived from the removed readings.
 *
 * register_readings is partitioned by UTC month (migration 0013), so old months go whole: every monthly partition
 * that ends at or before the cutoff is detached and dropped (no row-by-row DELETE, no dead rows, no VACUUM of
 * them). Only the month the cutoff falls in, and the default partition, lose rows by DELETE. The meters' kept
 * readings that lay in a dropped month are moved out first: with its partition detached, such a row's month has
 * none, so inserted again through the parent it lands in `register_readings_default`, where it stays (one row per
 * meter at most, for meters silent since before the cutoff; the partitions job leaves months older than the
 * horizon in the default partition, jobs/tasks/partitions.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { INGEST_LOCK } from './derive.ts';
import { type IngestProblem, problem, type ValidRow } from './types.ts';

/** The app_meta key of the horizon: ISO instant before which raw readings were removed. */
export const RETENTION_HORIZON_KEY = 'readings.retainedFrom';

/** The horizon in ms since the epoch, or null when no readings were ever removed. */
async function retentionHorizon(tx: Db): Promise<number | null> {
  const [row] = await queryRows<{ value: string }>(
    tx,
    sql`SELECT value FROM app_meta WHERE key = ${RETENTION_HORIZON_KEY}`,
  );
  return row ? Date.parse(row.value) : null;
}

/** A problem for each row older than the horizon (read in the batch's transaction, after its lock). */
export async function retentionProblems(tx: Db, rows: ValidRow[]): Promise<IngestProblem[]> {
  const horizon = await retentionHorizon(tx);
  if (horizon === null) return [];
  const iso = new Date(horizon).toISOString();
  return rows
    .filter((r) => r.ms < horizon)
    .map((r) =>
      problem(
        r.line,
        'before_retention',
        { timestamp: r.ts, horizon: iso },
        `timestamp ${r.ts} is before ${iso}: raw readings that old were removed (READING_RETENTION_YEARS)`,
      ),
    );
}

/** What a retention run did. */
export interface RetentionResult {
  /** The cutoff (ISO instant): readings before it were removed, but each meter's newest one. */
  cutoff: string;
  /** Monthly partitions of register_readings dropped whole (their rows are not counted: that would read them). */
  droppedPartitions: string[];
  /** Readings deleted row by row: in the month the cutoff falls in, and in the default partition. */
  deleted: number;
  /** Kept readings moved out of dropped months into the default partition. */
  movedToDefault: number;
}

/** A monthly partition's name: register_readings_yYYYYmMM (ensure_monthly_partitions, migration 0013). */
const MONTHLY_PARTITION = '^register_readings_y[0-9]{4}m[0-9]{2}$';

/**
 * Removes the raw readings older than `years` before `now` (calendar years), keeping each meter's newest one
 * before the cutoff, and moves the horizon to the cutoff; in the caller's transaction, under the ingestion lock,
 * so no batch runs meanwhile. Detaching a partition locks register_readings until the transaction ends, so the
 * row deletes run before the partitions are dropped, and the transaction should end soon after.
 */
export async function removeOldReadings(tx: Db, now: Date, years: number): Promise<RetentionResult> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${INGEST_LOCK})`);
  const [{ cutoff }] = (await queryRows<{ cutoff: string }>(
    tx,
    sql`SELECT to_char((${now.toISOString()}::timestamptz - make_interval(years => ${years}::int)) AT TIME ZONE 'UTC',
                       'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS cutoff`,
  )) as [{ cutoff: string }];
  await tx.execute(
    sql`INSERT INTO app_meta (key, value) VALUES (${RETENTION_HORIZON_KEY}, ${cutoff})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()
        WHERE app_meta.value::timestamptz < excluded.value::timestamptz`,
  );
  // Each meter's newest reading before the cutoff: one index probe per meter, newest partition first.
  await tx.execute(sql`DROP TABLE IF EXISTS pg_temp.retention_kept`);
  await tx.execute(
    sql`CREATE TEMP TABLE retention_kept ON COMMIT DROP AS
        SELECT m.id AS meter_id, r.ts, r.value FROM meters m
        CROSS JOIN LATERAL (SELECT ts, value FROM register_readings
                            WHERE meter_id = m.id AND ts < ${cutoff}::timestamptz
                            ORDER BY ts DESC LIMIT 1) r`,
  );
  // The months that end at or before the cutoff go whole.
  const months = await queryRows<{ name: string }>(
    tx,
    sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'register_readings'::regclass AND c.relname ~ ${MONTHLY_PARTITION}
          AND to_date(substr(c.relname, 20, 4) || substr(c.relname, 25, 2) || '01', 'YYYYMMDD') + interval '1 month'
              <= ${cutoff}::timestamptz AT TIME ZONE 'UTC'
        ORDER BY 1`,
  );
  const droppedPartitions = months.map((m) => m.name);
  for (const name of droppedPartitions)
    await tx.execute(sql.raw(`ALTER TABLE register_readings DETACH PARTITION "${name}"`));
  // What is left before the cutoff (the cutoff's month and the default partition), but the kept readings.
  const [deleted] = await queryRows<{ n: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM register_readings r USING retention_kept k
          WHERE r.meter_id = k.meter_id AND r.ts < k.ts AND r.ts < ${cutoff}::timestamptz
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  // The kept readings of the detached months go back in (to the default partition); the others are still there.
  const [moved] = await queryRows<{ n: number }>(
    tx,
    sql`WITH moved AS (
          INSERT INTO register_readings (meter_id, ts, value) SELECT meter_id, ts, value FROM retention_kept
          ON CONFLICT (meter_id, ts) DO NOTHING RETURNING 1)
        SELECT count(*)::int AS n FROM moved`,
  );
  for (const name of droppedPartitions) await tx.execute(sql.raw(`DROP TABLE "${name}"`));
  return {
    cutoff,
    droppedPartitions,
    deleted: Number(deleted?.n ?? 0),
    movedToDefault: Number(moved?.n ?? 0),
  };
}
