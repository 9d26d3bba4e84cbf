/**
 * The stored reading before a time, found without probing every monthly partition of register_readings.
 */
import { type SQL, sql } from 'drizzle-orm';

/** How far back from its anchor the first, cheap search for a meter's newest reading looks. */
export const RECENT_DAYS = 35;

/**
 * A FROM item of at most one row (ts, value): the newest reading of `meter` before `below` (exclusive; null: none)
 * among those since RECENT_DAYS before `anchor`. `floor`, a constant no later than any anchor's window start, lets
 * the planner keep only the partitions since it (the check against stored readings: planning every monthly
 * partition was 7 of a live batch's 30 ms of SQL).
 */
export function recentReadingRow(meter: SQL, anchor: SQL, below: SQL | null, floor?: Date): SQL {
  const upper = below === null ? sql`` : sql` AND r.ts < ${below}`;
  const lower = floor === undefined ? sql`` : sql` AND r.ts >= ${floor.toISOString()}::timestamptz`;
  return sql`(SELECT r.ts, r.value FROM register_readings r WHERE r.meter_id = ${meter}${upper}
         AND r.ts >= ${anchor} - interval '${sql.raw(String(RECENT_DAYS))} days'${lower} ORDER BY r.ts DESC LIMIT 1)`;
}

/**
 * A FROM item of at most two rows (ts, value), the first of which is the newest reading of `meter` before `below`
 * (exclusive; null: none), to be read with LIMIT 1: it is looked for among the readings since RECENT_DAYS before
 * `anchor` (at most `below`) first, and among the older ones only when there is none. register_readings is
 * partitioned by month, and an unbounded newest-first search probes every partition's index (about 60 per
 * meter for five years of partitions), several times per meter in a batch.
 */
export function newestReadingRows(meter: SQL, anchor: SQL, below: SQL | null): SQL {
  return sql`(
      ${recentReadingRow(meter, anchor, below)}
      UNION ALL
      (SELECT r.ts, r.value FROM register_readings r WHERE r.meter_id = ${meter}
         AND r.ts < ${anchor} - interval '${sql.raw(String(RECENT_DAYS))} days' ORDER BY r.ts DESC LIMIT 1))`;
}
