/**
 * Small helpers for raw SQL that behave the same on PGlite and PostgreSQL
 * (their drivers shape `execute` results differently).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Refreshes the planner's statistics of every table, or of the given ones (ANALYZE), from a tenth of the
 * default sample, inside the caller's transaction. PGlite has no autovacuum, so nothing else gathers them; without them a backfill step's
 * lookups of stored neighbours took 0.5 s instead of 7 ms. The full sample took 4.1 s after the two-year demo,
 * this one 0.65 s (on PGlite it holds the one session that long). On PostgreSQL autovacuum does the same later.
 */
export async function refreshStatistics(tx: Db, tables?: readonly string[]): Promise<void> {
  await tx.execute(sql`SET LOCAL default_statistics_target = 10`);
  // Table names come quoted (refreshGrownStatistics has them from format('%I.%I')).
  await tx.execute(tables ? sql.raw(`ANALYZE ${tables.join(', ')}`) : sql`ANALYZE`);
}

/**
 * `refreshStatistics` for the tables that need it: never analyzed, or grown by more than a tenth (and 8 pages)
 * since their last ANALYZE or VACUUM, as their size on disk against the pages counted then says (autovacuum's
 * default is a tenth and 50 rows). PostgreSQL's activity counters would say it more exactly, but PGlite's do not
 * count a session's own writes and do not last across restarts; the catalog's page counts do. Returns the
 * tables analyzed. The daily sweep runs this: analyzing the whole two-year demo holds PGlite's one session for
 * about 0.65 s, and a day's readings grow its big tables by well under a tenth.
 */
export async function refreshGrownStatistics(tx: Db): Promise<string[]> {
  // A partitioned table (migration 0013) counts as the sum of its partitions, and is analyzed as a whole (ANALYZE
  // of the parent analyzes every partition too); its partitions are not listed on their own.
  const grown = await queryRows<{ name: string }>(
    tx,
    sql`SELECT format('%I.%I', n.nspname, c.relname) AS name
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL (
          SELECT bool_or(l.reltuples < 0) AS never, coalesce(sum(pg_relation_size(l.oid)), 0) AS bytes,
                 coalesce(sum(l.relpages), 0) AS pages
          FROM (SELECT c.oid AS relid WHERE c.relkind = 'r'
                UNION ALL SELECT t.relid FROM pg_partition_tree(c.oid) t WHERE c.relkind = 'p' AND t.isleaf) leaf
            JOIN pg_class l ON l.oid = leaf.relid) s
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
          AND (s.never OR s.bytes / current_setting('block_size')::int > s.pages * 1.1 + 8)
        ORDER BY 1`,
  );
  const names = grown.map((g) => g.name);
  if (names.length > 0) await refreshStatistics(tx, names);
  return names;
}

/** Runs a raw query and returns its rows, whichever driver is underneath. */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** A PostgreSQL array literal for integers or already-validated numeric strings, e.g. `{1,2,3}`. */
export function pgNumberArray(values: readonly (number | string)[]): string {
  return `{${values.join(',')}}`;
}

/** A PostgreSQL array literal for arbitrary text, quoting every element. */
export function pgTextArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** A timestamp column's value as the API shows it (ISO 8601, UTC), or null; drivers give a Date or a string. */
export const iso = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();
