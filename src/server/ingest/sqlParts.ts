/**
 * SQL fragments shared by the hourly derivation and the plausibility checks.
 */
import { type SQL, sql } from 'drizzle-orm';
import { pgNumberArray, pgTextArray } from '../db/sql.ts';
import { MAX_PER_HOUR } from './bounds.ts';
import { RESET_FRACTION } from './misread.ts';
import { newestReadingRows } from './neighbours.ts';
import type { MeterSpan } from './types.ts';

/** The properties of the points, each once, in id order: the order every ingestion lock takes them in. */
export function propertiesOfPoints(pointIds: number[]): SQL {
  return sql`SELECT DISTINCT property_id FROM measurement_points
      WHERE id = ANY(${pgNumberArray(pointIds)}::int[]) ORDER BY property_id`;
}

/** The CTE `a`: per meter, the time span (lo, hi) of the new readings. */
export function spansCte(spans: MeterSpan[]): SQL {
  return sql`a AS (
      SELECT a0.meter_id, to_timestamp(a0.lo_ms::float8 / 1000) AS lo, to_timestamp(a0.hi_ms::float8 / 1000) AS hi
      FROM unnest(${pgNumberArray(spans.map((s) => s.meterId))}::int[], ${pgNumberArray(spans.map((s) => s.minMs))}::int8[],
                  ${pgNumberArray(spans.map((s) => s.maxMs))}::int8[]) AS a0(meter_id, lo_ms, hi_ms)
    )`;
}

/**
 * The span (lo, hi) to look at around a meter's new readings: widened to the stored readings just before and
 * after them. A fresh load (bulkLoadIntoEmpty) has no stored neighbours, and no index to find them with.
 */
export function neighbourSpan(fresh: boolean): SQL {
  if (fresh) return sql`a.lo AS lo, a.hi AS hi`;
  return sql`coalesce((SELECT nb.ts FROM ${newestReadingRows(sql`a.meter_id`, sql`a.lo`, sql`a.lo`)} nb LIMIT 1), a.lo) AS lo,
        coalesce((SELECT r.ts FROM register_readings r WHERE r.meter_id = a.meter_id AND r.ts > a.hi
                  ORDER BY r.ts LIMIT 1), a.hi) AS hi`;
}

/** Rise or reset: the consumption an interval from (t0, v0) to (t1, v1) of one meter stands for. */
export const DELTA = sql`CASE WHEN v1 >= v0 THEN v1 - v0 ELSE v1 END`;
/**
 * DELTA for a meter whose profile may roll over (`digits`, null: never): a drop from the register's top tenth
 * (ROLLOVER_FROM in misread.ts) is a rollover, whose consumption is what remained to the top plus the new value.
 */
export const DELTA_WRAPPED = sql`CASE WHEN v1 >= v0 THEN v1 - v0
    WHEN digits IS NOT NULL AND v0 >= power(10::numeric, digits) * 0.9 THEN power(10::numeric, digits) - v0 + v1
    ELSE v1 END`;

/**
 * A drop that is no reset under misread.ts's rule (the new value is more than RESET_FRACTION of the old one):
 * the bulk loader refuses it, as the incremental path would quarantine it.
 */
export const FALSE_RESET = sql`(v1 < v0 AND v1 > v0 * ${sql.raw(String(RESET_FRACTION))})`;

/** The hours an interval counts for in the plausibility bound: its length, at least one. */
export const HOURS = sql`greatest(1, extract(epoch FROM t1 - t0) / 3600)`;

/** The CTE `lim`: MAX_PER_HOUR per quantity. */
export function limCte(): SQL {
  const quantities = Object.keys(MAX_PER_HOUR);
  return sql`lim AS (
      SELECT * FROM unnest(${pgTextArray(quantities)}::text[],
                           ${pgNumberArray(quantities.map((q) => MAX_PER_HOUR[q]!))}::numeric[]) AS lim(quantity, per_hour)
    )`;
}

/** SQLSTATE of a database error (postgres.js puts it on `code`; Drizzle wraps it as `cause`). */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
