/**
 * Hourly consumption (registers) and hourly averages (samples) around new readings, incremental or fresh.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray } from '../db/sql.ts';
import { implausibleJumps, implausibleSelect } from './jumps.ts';
import { newestReadingRows } from './neighbours.ts';
import {
  DELTA,
  DELTA_WRAPPED,
  FALSE_RESET,
  HOURS,
  limCte,
  neighbourSpan,
  spansCte,
  sqlStateOf,
} from './sqlParts.ts';
import { IngestError, type MeterSpan } from './types.ts';

/**
 * An interval between two readings longer than this (an hour, and a quarter of an hour for a gateway's jitter)
 * has readings missing: the hours it spreads over are estimated (hourly_consumption.estimated).
 */
const ESTIMATED_AFTER_SECONDS = 4500;

export interface HourlyOutcome {
  point_id: number;
  day_lo: string;
  day_hi: string;
  hours: number;
}

/**
 * The last CTE and final SELECT of an hourly recomputation: upserts `values` (point, hour start, value,
 * estimated), and reports per point the Copenhagen days of the hours that changed (in value or in being
 * estimated), and how many changed (HourlyOutcome).
 */
export function upsertHourlySql(values: SQL): SQL {
  return sql`, up AS (
      INSERT INTO hourly_consumption AS hc (measurement_point_id, hour_start, value, estimated)
      ${values}
      ON CONFLICT (measurement_point_id, hour_start) DO UPDATE
        SET value = excluded.value, estimated = excluded.estimated
        WHERE (hc.value, hc.estimated) IS DISTINCT FROM (excluded.value, excluded.estimated)
      RETURNING measurement_point_id, hour_start
    )
    SELECT point_id,
           to_char((h_lo AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_lo,
           to_char((h_hi AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_hi,
           hours
    FROM (
      -- Local dates grow with the instant, so the extremes are converted once per point, not per hour.
      SELECT measurement_point_id AS point_id, min(hour_start) AS h_lo, max(hour_start) AS h_hi, count(*)::int AS hours
      FROM up GROUP BY measurement_point_id
    ) o`;
}

/**
 * Recomputes hourly consumption of register points around the new readings. Consumption is the
 * difference between consecutive readings of the same meter (never across a meter swap), spread over
 * the hours between them in proportion to time; a drop within one meter is a reset, and the new value
 * counts as consumption since it. Shares are differences of rounded cumulative fractions, so the
 * hours of one interval add up to its delta exactly. An hour that takes a share of an interval longer than
 * ESTIMATED_AFTER_SECONDS (readings are missing there) is estimated.
 */
export function registerHourlySql(spans: MeterSpan[], fresh = false) {
  return sql`
    WITH ${spansCte(spans)},${fresh ? sql` ${limCte()},` : sql``}
    aff AS (
      SELECT m.measurement_point_id AS point_id,
        ${neighbourSpan(fresh)}
      FROM a
      JOIN meters m ON m.id = a.meter_id
      JOIN measurement_points p ON p.id = m.measurement_point_id
      WHERE p.reading_kind = 'register'
    ),
    rg AS (
      SELECT point_id, date_trunc('hour', min(lo), 'UTC') AS h_lo,
             date_trunc('hour', max(hi) - interval '1 microsecond', 'UTC') + interval '1 hour' AS h_hi
      FROM aff GROUP BY point_id
    ),
    pm AS (
      SELECT rg.point_id, rg.h_lo, rg.h_hi, m.id AS meter_id${fresh ? sql`, lim.per_hour` : sql`, m.rollover_digits AS digits`}
      FROM rg JOIN meters m ON m.measurement_point_id = rg.point_id
      ${
        fresh
          ? sql`JOIN measurement_points p ON p.id = rg.point_id
        -- A quantity without a bound (none today) gets hours, and no check.
        LEFT JOIN lim ON lim.quantity = p.quantity`
          : sql``
      }
    ),
    rd AS (
      SELECT pm.point_id, pm.h_lo, pm.h_hi, pm.meter_id, r.ts, r.value${fresh ? sql`, pm.per_hour` : sql`, pm.digits`}
      FROM pm ${
        fresh
          ? sql`JOIN register_readings r ON r.meter_id = pm.meter_id AND r.ts >= pm.h_lo AND r.ts <= pm.h_hi`
          : // A batch reads a few hours per meter by the key; as a plain join every partition was scanned per meter.
            sql`CROSS JOIN LATERAL (SELECT r.ts, r.value FROM register_readings r
        WHERE r.meter_id = pm.meter_id AND r.ts >= pm.h_lo AND r.ts <= pm.h_hi OFFSET 0) r
      UNION ALL
      SELECT pm.point_id, pm.h_lo, pm.h_hi, pm.meter_id, b.ts, b.value, pm.digits FROM pm CROSS JOIN LATERAL (
        SELECT nb.ts, nb.value FROM ${newestReadingRows(sql`pm.meter_id`, sql`pm.h_lo`, sql`pm.h_lo`)} nb LIMIT 1) b
      UNION ALL
      SELECT pm.point_id, pm.h_lo, pm.h_hi, pm.meter_id, n.ts, n.value, pm.digits FROM pm CROSS JOIN LATERAL (
        SELECT r.ts, r.value FROM register_readings r
        WHERE r.meter_id = pm.meter_id AND r.ts > pm.h_hi ORDER BY r.ts LIMIT 1) n`
      }
    ),
    ${intervalsToHours(fresh)}`;
}

/**
 * The rest of a register recomputation after the CTE `rd` (point_id, h_lo, h_hi, meter_id, ts, value, and
 * per_hour when fresh, digits otherwise): the intervals between a meter's readings, their shares of the hours
 * between h_lo and h_hi, and the write.
 */
function intervalsToHours(fresh: boolean): SQL {
  // The rows of `from` whose point is (or is not) `single` in pt. A fresh load joins pt; a batch's few points
  // looks them up in an array: the planner expected one row of dl and pt and joined them in a nested loop
  // (dl × pt compared row by row: 9 of a 990-row batch's 22 ms).
  const ofPoints = (from: 'dl' | 'sh', single: boolean) => {
    const not = sql.raw(single ? '' : 'NOT ');
    return fresh
      ? sql`JOIN pt ON pt.point_id = ${sql.raw(from)}.point_id WHERE ${not}pt.single`
      : sql`WHERE ${sql.raw(from)}.point_id = ANY(ARRAY(SELECT point_id FROM pt WHERE ${not}single))`;
  };
  return sql`    iv AS (
      SELECT point_id, meter_id, h_lo, h_hi, lag(ts) OVER w AS t0, ts AS t1, lag(value) OVER w AS v0, value AS v1
             ${fresh ? sql`, per_hour` : sql`, digits`}
      FROM rd WINDOW w AS (PARTITION BY meter_id ORDER BY ts)
    ),
    dl AS (
      -- aligned: one reading per whole hour (UTC epoch seconds divisible by 3600, an hour apart).
      SELECT point_id, meter_id, h_lo, h_hi, t0, t1, ${fresh ? DELTA : DELTA_WRAPPED} AS delta,${fresh ? sql` v0, v1, per_hour,` : sql``}
             t1 - t0 = interval '1 hour'
               AND date_part('epoch', t0) = floor(date_part('epoch', t0) / 3600) * 3600 AS aligned
      FROM iv
      WHERE t0 IS NOT NULL AND t1 > h_lo AND t0 < h_hi${
        fresh
          ? sql``
          : // An interval that held a quarantined reading is unknown until an operator decides (misread.ts).
            sql`
        AND NOT EXISTS (SELECT 1 FROM data_issues q WHERE q.meter_id = iv.meter_id AND q.status = 'open'
                          AND q.reading_value IS NOT NULL AND q.reading_ts > iv.t0 AND q.reading_ts < iv.t1)`
      }
    ),
    sh AS (
      -- The common case, one reading per whole hour, needs no spreading.
      SELECT dl.point_id, dl.t0 AS hour_start, dl.delta AS share, false AS est FROM dl WHERE dl.aligned
      UNION ALL
      SELECT sp.point_id, h.h AS hour_start,
             round(sp.delta * extract(epoch FROM least(h.h + interval '1 hour', sp.t1) - sp.t0) / sp.secs, 9)
               - round(sp.delta * extract(epoch FROM greatest(h.h, sp.t0) - sp.t0) / sp.secs, 9) AS share,
             sp.secs > ${sql.raw(String(ESTIMATED_AFTER_SECONDS))} AS est
      FROM (SELECT dl.*, extract(epoch FROM dl.t1 - dl.t0) AS secs FROM dl WHERE NOT dl.aligned) sp
      CROSS JOIN LATERAL generate_series(
        greatest(date_trunc('hour', sp.t0, 'UTC'), sp.h_lo),
        least(sp.t1, sp.h_hi) - interval '1 microsecond',
        interval '1 hour') AS h(h)
    ),
    pt AS (
      -- Points whose intervals are all whole aligned hours of one meter: each hour has exactly one share, so
      -- they skip the summing below (a hash aggregate over every hour, the costliest step of a large load).
      SELECT point_id, bool_and(aligned) AND min(meter_id) = max(meter_id) AS single FROM dl GROUP BY point_id
    )
    ${hourlyWrite(
      sql`SELECT dl.point_id, dl.t0, trim_scale(dl.delta), false FROM dl ${ofPoints('dl', true)}
      UNION ALL
      SELECT sh.point_id, sh.hour_start, trim_scale(sum(sh.share)), bool_or(sh.est)
      FROM sh ${ofPoints('sh', false)}
      GROUP BY sh.point_id, sh.hour_start`,
      fresh,
      fresh
        ? // The same pass checks the intervals (implausibleJumps does it separately for an incremental batch).
          // A whole hour's bound is per_hour itself: no interval arithmetic for the common case.
          sql`SELECT meter_id, per_hour, t0, t1, v0, v1, ${HOURS} AS hours,
                 CASE WHEN aligned THEN delta > per_hour ELSE delta > per_hour * ${HOURS} END OR ${FALSE_RESET} AS over
          FROM dl`
        : undefined,
    )}`;
}

/**
 * registerHourlySql for meters whose readings around the new ones are all known to the batch (`chains`: each the
 * only meter of its point with readings after its newest stored one (knownChains in ingest.ts), that reading on a
 * whole hour or none, and its new readings, all after it): the
 * same intervals and hours, from the readings as parameters instead of read back from register_readings.
 */
export function registerHourlyKnownSql(chains: KnownChain[]): SQL {
  const rows = chains.flatMap((c) => c.readings.map((r) => ({ c, r })));
  return sql`
    WITH x AS (
      SELECT * FROM unnest(${pgNumberArray(rows.map(({ c }) => c.meterId))}::int[],
                           ${pgNumberArray(rows.map(({ c }) => c.pointId))}::int[],
                           ${pgNumberArray(rows.map(({ c }) => c.digits ?? 'NULL'))}::int[],
                           ${pgNumberArray(rows.map(({ r }) => r.ms))}::int8[],
                           ${pgNumberArray(rows.map(({ r }) => r.value))}::numeric[]) AS x(meter_id, point_id, digits, ms, value)
    ),
    rd AS (
      SELECT x.point_id, date_trunc('hour', to_timestamp((min(x.ms) OVER m)::float8 / 1000), 'UTC') AS h_lo,
             date_trunc('hour', to_timestamp((max(x.ms) OVER m)::float8 / 1000) - interval '1 microsecond', 'UTC')
               + interval '1 hour' AS h_hi,
             x.meter_id, to_timestamp(x.ms::float8 / 1000) AS ts, x.value, x.digits
      FROM x WINDOW m AS (PARTITION BY x.meter_id)
    ),
    ${intervalsToHours(false)}`;
}

/** A meter's readings for registerHourlyKnownSql, oldest first. */
export interface KnownChain {
  meterId: number;
  pointId: number;
  digits: number | null;
  readings: { ms: number; value: string }[];
}

/**
 * The end of an hourly recomputation, after a list of CTEs. Incremental: upsertHourlySql. Fresh (into the
 * empty, key-less table): a plain insert, and with `intervals` (a register load) the statement returns the
 * implausible ones among them.
 */
function hourlyWrite(values: SQL, fresh: boolean, intervals?: SQL): SQL {
  if (!fresh) return upsertHourlySql(values);
  const insert = sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value, estimated) ${values}`;
  if (intervals === undefined) return insert;
  return sql`, up AS (${insert}), hv AS (${intervals})
    ${implausibleSelect()}`;
}

/** Recomputes the hourly average of instantaneous points (temperature, humidity) in the affected hours. */
export function instantaneousHourlySql(spans: MeterSpan[], fresh = false) {
  return sql`
    WITH ${spansCte(spans)},
    rg AS (
      SELECT m.measurement_point_id AS point_id, date_trunc('hour', min(a.lo), 'UTC') AS h_lo,
             date_trunc('hour', max(a.hi), 'UTC') + interval '1 hour' AS h_hi
      FROM a
      JOIN meters m ON m.id = a.meter_id
      JOIN measurement_points p ON p.id = m.measurement_point_id
      WHERE p.reading_kind = 'instantaneous'
      GROUP BY m.measurement_point_id
    ),
    s AS (
      -- The UTC hour by epoch arithmetic: no time-zone lookup per reading.
      SELECT rg.point_id, m.id AS meter_id, r.ts, date_part('epoch', r.ts) AS e, r.value
      FROM rg
      JOIN meters m ON m.measurement_point_id = rg.point_id
      ${
        fresh
          ? // The fresh load reads every reading, and the key is not built yet: one pass over the table.
            sql`JOIN register_readings r ON r.meter_id = m.id AND r.ts >= rg.h_lo AND r.ts < rg.h_hi`
          : // A small batch reads a few hours per meter by the key. As a plain join the planner misjudged
            // the ranges and scanned the whole table for one hour's batch (OFFSET 0 keeps it a lookup).
            sql`CROSS JOIN LATERAL (
              SELECT r.ts, r.value FROM register_readings r
              WHERE r.meter_id = m.id AND r.ts >= rg.h_lo AND r.ts < rg.h_hi OFFSET 0) r`
      }
    ),
    pt AS (
      -- A point with one meter whose samples all fall on whole hours has one sample per hour, which is the
      -- hour's average: such points skip the grouping below (a hash aggregate over every hour).
      SELECT point_id, bool_and(e = floor(e / 3600) * 3600) AND min(meter_id) = max(meter_id) AS single
      FROM s GROUP BY point_id
    )
    ${hourlyWrite(
      sql`SELECT s.point_id, s.ts, trim_scale(round(s.value, 6)), false FROM s JOIN pt ON pt.point_id = s.point_id WHERE pt.single
      UNION ALL
      SELECT s.point_id, to_timestamp(floor(s.e / 3600) * 3600), trim_scale(round(avg(s.value), 6)), false
      FROM s JOIN pt ON pt.point_id = s.point_id WHERE NOT pt.single
      GROUP BY s.point_id, floor(s.e / 3600)`,
      fresh,
    )}`;
}

/**
 * Whole-hour register points of a fresh load (one meter, a reading on every whole hour, known from the loader):
 * each interval is one hour, so its rise is that hour's consumption. One pipelined pass, nothing kept in
 * between. An implausible rise (above the quantity's bound for one hour) yields NULL, which the NOT NULL
 * column refuses: the statement stops there, and wholeHourRegisters asks implausibleJumps which intervals.
 */
function wholeHourRegistersSql(spans: MeterSpan[]): SQL {
  return sql`
    WITH ${spansCte(spans)}, ${limCte()},
    pm AS (
      SELECT a.meter_id, m.measurement_point_id AS point_id, lim.per_hour
      FROM a
      JOIN meters m ON m.id = a.meter_id
      JOIN measurement_points p ON p.id = m.measurement_point_id
      LEFT JOIN lim ON lim.quantity = p.quantity
    ),
    iv AS (
      SELECT pm.point_id, pm.per_hour, lag(r.ts) OVER w AS t0, lag(r.value) OVER w AS v0, r.value AS v1
      FROM pm JOIN register_readings r ON r.meter_id = pm.meter_id
      WINDOW w AS (PARTITION BY r.meter_id ORDER BY r.ts)
    )
    INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT point_id, t0, CASE WHEN delta > per_hour OR false_reset THEN NULL ELSE trim_scale(delta) END
    FROM (SELECT point_id, t0, per_hour, ${DELTA} AS delta, ${FALSE_RESET} AS false_reset
          FROM iv WHERE t0 IS NOT NULL OFFSET 0) d`;
}

/** Derives the hours of whole-hour register points (wholeHourRegistersSql), under a savepoint. */
export async function wholeHourRegisters(tx: Db, spans: MeterSpan[]): Promise<void> {
  if (spans.length === 0) return;
  try {
    await tx.transaction(async (sp) => {
      await (sp as unknown as Db).execute(wholeHourRegistersSql(spans));
    });
  } catch (err) {
    if (sqlStateOf(err) !== '23502' /* not_null_violation */) throw err;
    const jumps = await implausibleJumps(tx, spans, [], true);
    if (jumps.length > 0) throw new IngestError(jumps);
    throw err;
  }
}

/** Whole-hour sample points of a fresh load (one meter, samples only on whole hours): one sample per hour. */
export function wholeHourSamplesSql(spans: MeterSpan[]): SQL {
  return sql`
    WITH ${spansCte(spans)}
    INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT m.measurement_point_id, r.ts, trim_scale(round(r.value, 6))
    FROM a JOIN meters m ON m.id = a.meter_id JOIN register_readings r ON r.meter_id = a.meter_id`;
}
