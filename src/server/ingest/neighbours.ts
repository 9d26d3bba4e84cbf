/**
 * The stored reading before a time, found without probing every monthly partition of register_readings.
 */
import { type SQL, sql } from 'drizzle-orm';

/**
 * A FROM item of at most two rows (ts, value), the first of which is the newest reading of `meter` before `below`
 * (exclusive; null: none), to be read with LIMIT 1: it is looked for among the readings since 35 days before
 * `anchor` (at most `below`) first, and among the older ones only when there is none. register_readings is
 * partitioned by month, and an unbounded newest-first search probes every partition's index (about 60 per
 * meter for five years of partitions), several times per meter in a batch.
 */
export function newestReadingRows(meter: SQL, anchor: SQL, below: SQL | null): SQL {
  const upper = below === null ? sql`` : sql` AND r.ts < ${below}`;
  return sql`(
      (SELECT r.ts, r.value FROM register_readings r WHERE r.meter_id = ${meter}${upper}
         AND r.ts >= ${anchor} - interval '35 days' ORDER BY r.ts DESC LIMIT 1)
      UNION ALL
      (SELECT r.ts, r.value FROM register_readings r WHERE r.meter_id = ${meter}
         AND r.ts < ${anchor} - interval '35 days' ORDER BY r.ts DESC LIMIT 1))`;
}
