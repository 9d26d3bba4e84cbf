/**
 * Implausible register intervals: rises above the quantity's bound, and drops that are no reset.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { RESET_FRACTION } from './misread.ts';
import { DELTA, FALSE_RESET, HOURS, limCte, neighbourSpan, spansCte } from './sqlParts.ts';
import { type IngestProblem, type MeterSpan, problem, type ValidRow } from './types.ts';

/**
 * Selects the implausible intervals from `hv` (meter_id, per_hour, t0, t1, v0, v1, hours, and `over`: whether
 * the interval's consumption is above per_hour × hours).
 */
export function implausibleSelect(): SQL {
  return sql`SELECT hv.meter_id, m.number, p.quantity, hv.per_hour::text AS per_hour,
           (extract(epoch FROM hv.t0) * 1000)::float8 AS ms0, (extract(epoch FROM hv.t1) * 1000)::float8 AS ms1,
           hv.v0::text AS v0, hv.v1::text AS v1, trim_scale(round(hv.hours, 2))::text AS hours
    FROM hv
    JOIN meters m ON m.id = hv.meter_id
    JOIN measurement_points p ON p.id = m.measurement_point_id
    WHERE hv.over
    ORDER BY hv.meter_id, hv.t1
    LIMIT 1000`;
}

/**
 * Register intervals around the new readings whose rise is implausible for the quantity (MAX_PER_HOUR per
 * hour of the interval, at least one hour's worth), or that drop to a value that is not near zero. A drop is
 * a reset only when the new value could have been consumed since the reset, by the same bound; any other
 * drop is a bad reading. Blamed on the interval's new reading (its end, or its start if only that is new).
 * A fresh load checks the same in registerHourlySql's pass, and calls this only to explain a refused
 * whole-hour load (wholeHourRegisters).
 */
export async function implausibleJumps(
  tx: Db,
  spans: MeterSpan[],
  batch: ValidRow[],
  fresh = false,
): Promise<IngestProblem[]> {
  const found = await queryRows<JumpRow>(
    tx,
    sql`WITH ${spansCte(spans)}, ${limCte()},
    w AS (
      SELECT a.meter_id, lim.per_hour,
        ${neighbourSpan(fresh)}
      FROM a
      JOIN meters m ON m.id = a.meter_id
      JOIN measurement_points p ON p.id = m.measurement_point_id
      JOIN lim ON lim.quantity = p.quantity
      WHERE p.reading_kind = 'register'
    ),
    iv AS (
      SELECT w.meter_id, w.per_hour,
             lag(r.ts) OVER win AS t0, r.ts AS t1, lag(r.value) OVER win AS v0, r.value AS v1
      FROM w JOIN register_readings r ON r.meter_id = w.meter_id AND r.ts >= w.lo AND r.ts <= w.hi
      WINDOW win AS (PARTITION BY w.meter_id ORDER BY r.ts)
    ),
    hv AS (
      SELECT meter_id, per_hour, t0, t1, v0, v1, ${HOURS} AS hours,
             ${DELTA} > per_hour * ${HOURS} OR ${FALSE_RESET} AS over
      FROM iv WHERE t0 IS NOT NULL
    )
    ${implausibleSelect()}`,
  );
  return jumpProblems(found, batch);
}

/** An implausible interval, as implausibleSelect gives it. */
export interface JumpRow extends Record<string, unknown> {
  meter_id: number;
  number: string;
  quantity: string;
  per_hour: string;
  ms0: number;
  ms1: number;
  v0: string;
  v1: string;
  hours: string;
}

/** The problems of implausible intervals, each blamed on the line of its new reading. */
export function jumpProblems(found: JumpRow[], batch: ValidRow[]): IngestProblem[] {
  if (found.length === 0) return [];
  const lineOf = new Map(batch.map((r) => [`${r.meterId}:${r.ms}`, r.line]));
  return found.map((f) => {
    const line =
      lineOf.get(`${f.meter_id}:${Number(f.ms1)}`) ?? lineOf.get(`${f.meter_id}:${Number(f.ms0)}`) ?? 0;
    const limit = Number(f.per_hour) * Number(f.hours);
    const at = new Date(Number(f.ms1)).toISOString();
    const common = { meter: f.number, at, from: f.v0, to: f.v1, hours: f.hours, quantity: f.quantity };
    return Number(f.v1) < Number(f.v0)
      ? problem(
          line,
          'implausible_drop',
          { ...common, resetPercent: RESET_FRACTION * 100, limit },
          `meter ${f.number} at ${at} drops from ${f.v0} to ${f.v1}: a register reset is accepted only when the new value is near zero (at most ${RESET_FRACTION * 100} % of the register, and at most ${limit} for ${f.hours} h of ${f.quantity}), so this is a bad reading`,
        )
      : problem(
          line,
          'implausible_rise',
          { ...common, perHour: f.per_hour },
          `meter ${f.number} at ${at} rises from ${f.v0} to ${f.v1} in ${f.hours} h, above the plausible ${f.per_hour} per hour for ${f.quantity}`,
        );
  });
}
