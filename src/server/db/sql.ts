/**
 * Small helpers for raw SQL that behave the same on PGlite and PostgreSQL
 * (their drivers shape `execute` results differently).
 */
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

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
