/**
 * Small helpers for raw SQL that behave the same on PGlite and PostgreSQL
 * (their drivers shape `execute` results differently).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Refreshes the planner's statistics of every table (ANALYZE) from a tenth of the default sample, inside the
 * caller's transaction. PGlite has no autovacuum, so nothing else gathers them; without them a backfill step's
 * lookups of stored neighbours took 0.5 s instead of 7 ms. The full sample took 4.1 s after the two-year demo,
 * this one 0.65 s (on PGlite it holds the one session that long). On PostgreSQL autovacuum does the same later.
 */
export async function refreshStatistics(tx: Db): Promise<void> {
  await tx.execute(sql`SET LOCAL default_statistics_target = 10`);
  await tx.execute(sql`ANALYZE`);
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
