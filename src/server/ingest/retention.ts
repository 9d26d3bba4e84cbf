/**
 * Retention of raw register readings (READING_RETENTION_YEARS): the daily sweep removes readings older than N
 * years; hourly values and every rollup are kept, so graphs, reports and comparisons of those years stay as they
 * were. Per meter the newest reading before the cutoff is kept, so the hours after it can still be derived again
 * when a late reading arrives. The cutoff is recorded as the horizon, and ingestion refuses a reading older than
 * it: derived from what is left, its hours would replace values that were derived from the removed readings.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { INGEST_LOCK } from './derive.ts';
import type { IngestProblem, ValidRow } from './types.ts';

/** The app_meta key of the horizon: ISO instant before which raw readings were removed. */
const RETENTION_HORIZON_KEY = 'readings.retainedFrom';

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
    .map((r) => ({
      line: r.line,
      reason: `timestamp ${r.ts} is before ${iso}: raw readings that old were removed (READING_RETENTION_YEARS)`,
    }));
}

/**
 * Removes the raw readings older than `years` before `now` (calendar years), keeping each meter's newest one
 * before the cutoff, and moves the horizon to the cutoff; in the caller's transaction, under the ingestion lock,
 * so no batch runs meanwhile. Returns the readings removed and the cutoff.
 */
export async function removeOldReadings(
  tx: Db,
  now: Date,
  years: number,
): Promise<{ removed: number; cutoff: string }> {
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
  const [deleted] = await queryRows<{ n: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM register_readings r
          USING (SELECT meter_id, max(ts) AS keep FROM register_readings
                 WHERE ts < ${cutoff}::timestamptz GROUP BY meter_id) k
          WHERE r.meter_id = k.meter_id AND r.ts < k.keep
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return { removed: Number(deleted?.n ?? 0), cutoff };
}
