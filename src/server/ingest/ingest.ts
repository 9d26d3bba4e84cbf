/**
 * The one ingestion path for meter readings (CSV import, demo generator, later the worker).
 * A batch is validated as a whole, then written in one transaction:
 *   1. register readings (idempotent: identical rows are skipped);
 *   2. hourly consumption of the affected measurement points and hours;
 *   3. daily and monthly rollups per point, and the property's daily rollup per m².
 * The heavy lifting is set-based SQL, so the same code is fast on PGlite and on PostgreSQL.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, pgTextArray, queryRows } from '../db/sql.ts';
import { updateDegreeDays } from '../tenant/degreeDays.ts';
import {
  EARLIEST_READING_MS,
  FUTURE_TOLERANCE_MS,
  MAX_PER_HOUR,
  precisionProblem,
  SAMPLE_RANGE,
} from './bounds.ts';
import { parseDecimal, parseTimestamp } from './parse.ts';
import { updatePropertyHourlyRollups } from './propertyHourly.ts';

/** One reading as it arrives: `line` is where it came from (a file line), for error messages. */
export interface ReadingRow {
  line: number;
  meterNumber: string;
  /** ISO 8601 with an offset or Z. */
  ts: string;
  /** Decimal: the register's running total, or an instantaneous sample (temperature, humidity). */
  value: string;
}

export interface IngestProblem {
  line: number;
  reason: string;
}

/** What a batch did. */
export interface IngestResult {
  /** Rows received. */
  rows: number;
  /** Readings that were not stored before. */
  newReadings: number;
  /** Hourly consumption values inserted or changed. */
  hoursUpdated: number;
  /** Daily rollups (per point) inserted or changed. */
  daysUpdated: number;
  /** With `deferRollups`: the points' days whose rollups are still to be brought up to date. */
  pendingDays?: PointDays[];
}

/** A rejected batch; nothing of it was written. */
export class IngestError extends Error {
  readonly problems: IngestProblem[];

  constructor(problems: IngestProblem[]) {
    const shown = problems.slice(0, 20).map((p) => `  line ${p.line}: ${p.reason}`);
    const more = problems.length > 20 ? [`  …and ${problems.length - 20} more`] : [];
    super(`Rejected ${problems.length} bad row(s); nothing was imported:\n${[...shown, ...more].join('\n')}`);
    this.name = 'IngestError';
    this.problems = problems;
  }
}

interface MeterInfo {
  id: number;
  number: string;
  pointId: number;
  installedMs: number;
  removedMs: number | null;
  quantity: string;
  readingKind: 'register' | 'instantaneous';
}

/**
 * Seconds spent per phase of a load, accumulated (for the bench): wall time, and with a `cpuSeconds` probe also the
 * CPU time the database spent meanwhile, which a busy machine inflates far less than the wall time.
 */
export interface PhaseTimings {
  wall: Record<string, number>;
  cpu?: Record<string, number>;
  /** CPU seconds used so far by the database (PGlite's thread, or the PostgreSQL backends). */
  cpuSeconds?: () => number | Promise<number>;
}

/** Runs `fn` and adds its wall time (and CPU time, with a probe) in seconds to the phase `name`. */
export async function timed<T>(
  timings: PhaseTimings | undefined,
  name: string,
  fn: () => Promise<T> | T,
): Promise<T> {
  if (!timings) return fn();
  const t = performance.now();
  const cpu0 = timings.cpuSeconds ? await timings.cpuSeconds() : 0;
  try {
    return await fn();
  } finally {
    timings.wall[name] = (timings.wall[name] ?? 0) + (performance.now() - t) / 1000;
    if (timings.cpuSeconds) {
      timings.cpu ??= {};
      timings.cpu[name] = (timings.cpu[name] ?? 0) + (await timings.cpuSeconds()) - cpu0;
    }
  }
}

export interface IngestOptions {
  /** The server clock, for the "not in the future" rule; default: now. */
  now?: Date;
  /** Where to add per-phase wall times (seconds). */
  timings?: PhaseTimings;
  /** A bulk load (the demo history): foreign-key triggers are skipped where the database allows it. */
  bulk?: boolean;
  /**
   * Leave the daily, monthly and property rollups (and degree days) to a later `updateRollups` call with the
   * result's `pendingDays`, in a transaction of its own: the demo's background backfill loads an hour at a
   * time and rolls a day up once it is whole, so each transaction a request may wait behind stays short.
   */
  deferRollups?: boolean;
}

interface ValidRow {
  line: number;
  meterId: number;
  ms: number;
  value: string;
  /** The timestamp as it arrived, for messages. */
  ts: string;
}

/** Advisory lock key that serialises ingestion batches. */
const INGEST_LOCK = 7_410_001;

/** Rows per INSERT statement; bounds the size of one query's parameters. */
const INSERT_CHUNK = 50_000;

async function loadMeters(db: Db, numbers: string[]): Promise<Map<string, MeterInfo>> {
  const rows = await queryRows<{
    id: number;
    number: string;
    point_id: number;
    installed_ms: number;
    removed_ms: number | null;
    quantity: string;
    reading_kind: 'register' | 'instantaneous';
  }>(
    db,
    sql`SELECT m.id, m.number, m.measurement_point_id AS point_id,
          (extract(epoch FROM m.installed_at) * 1000)::float8 AS installed_ms,
          (extract(epoch FROM m.removed_at) * 1000)::float8 AS removed_ms,
          p.quantity, p.reading_kind
        FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
        WHERE m.number = ANY(${pgTextArray(numbers)}::text[])`,
  );
  return new Map(
    rows.map((r) => [
      r.number,
      {
        id: r.id,
        number: r.number,
        pointId: r.point_id,
        installedMs: Number(r.installed_ms),
        removedMs: r.removed_ms === null ? null : Number(r.removed_ms),
        quantity: r.quantity,
        readingKind: r.reading_kind,
      },
    ]),
  );
}

/** Shows a field in an error message: control characters escaped, long texts cut. */
function shown(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping them is the point
  return cut.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Checks each row on its own and against the others of the batch; returns the rows to store, sorted by meter
 * and time. A row repeating an earlier one (same meter and time) is dropped, or refused if its value differs.
 */
function validateRows(
  rows: ReadingRow[],
  meters: Map<string, MeterInfo>,
  problems: IngestProblem[],
  nowMs: number,
): ValidRow[] {
  // The rows of each meter, in the order they came.
  const byMeter = new Map<number, ValidRow[]>();
  // Every meter of a batch usually shares the same timestamps; parse each text once.
  const tsCache = new Map<string, number | null>();
  const latestMs = nowMs + FUTURE_TOLERANCE_MS;
  for (const row of rows) {
    const before = problems.length;
    if (row.meterNumber.includes('\0') || row.ts.includes('\0') || row.value.includes('\0')) {
      problems.push({ line: row.line, reason: 'the row holds a null byte' });
      continue;
    }
    const meter = meters.get(row.meterNumber.trim());
    if (!meter) problems.push({ line: row.line, reason: `unknown meter number "${shown(row.meterNumber)}"` });
    let ms = tsCache.get(row.ts);
    if (ms === undefined) {
      ms = parseTimestamp(row.ts);
      tsCache.set(row.ts, ms);
    }
    if (ms === null) {
      problems.push({
        line: row.line,
        reason: `invalid timestamp "${shown(row.ts)}" (expected ISO 8601 with offset or Z)`,
      });
    } else if (ms < EARLIEST_READING_MS) {
      problems.push({ line: row.line, reason: `timestamp ${row.ts} is before 2000` });
    } else if (ms > latestMs) {
      problems.push({ line: row.line, reason: `timestamp ${row.ts} is more than one hour in the future` });
    }
    const value = parseDecimal(row.value);
    if (value === null) {
      problems.push({ line: row.line, reason: `value "${shown(row.value)}" is not a number` });
    } else {
      const precision = precisionProblem(value);
      if (precision) problems.push({ line: row.line, reason: `value ${shown(value)} ${precision}` });
      else if (meter?.readingKind === 'register' && value.startsWith('-')) {
        problems.push({ line: row.line, reason: `value ${value} is negative; a register never is` });
      } else if (meter?.readingKind === 'instantaneous') {
        const range = SAMPLE_RANGE[meter.quantity];
        const n = Number(value);
        if (range && (n < range[0] || n > range[1])) {
          problems.push({
            line: row.line,
            reason: `value ${value} is outside the plausible range ${range[0]} to ${range[1]} for ${meter.quantity}`,
          });
        }
      }
    }
    if (!meter || ms === null || value === null || problems.length > before) continue;
    if (ms < meter.installedMs || (meter.removedMs !== null && ms > meter.removedMs)) {
      const window = `${new Date(meter.installedMs).toISOString()} – ${meter.removedMs === null ? 'now' : new Date(meter.removedMs).toISOString()}`;
      problems.push({
        line: row.line,
        reason: `timestamp ${row.ts} is outside meter ${meter.number}'s installation (${window})`,
      });
      continue;
    }
    let ofMeter = byMeter.get(meter.id);
    if (!ofMeter) {
      ofMeter = [];
      byMeter.set(meter.id, ofMeter);
    }
    ofMeter.push({ line: row.line, meterId: meter.id, ms, value, ts: row.ts });
  }
  const numberOf = new Map([...meters.values()].map((m) => [m.id, m.number]));
  const valid: ValidRow[] = [];
  for (const meterId of [...byMeter.keys()].sort((a, b) => a - b)) {
    const ofMeter = byMeter.get(meterId)!;
    // Usually in time order already; a stable sort keeps repeats in the order they came.
    if (ofMeter.some((r, i) => i > 0 && r.ms < ofMeter[i - 1]!.ms)) ofMeter.sort((a, b) => a.ms - b.ms);
    let kept: ValidRow | undefined;
    for (const r of ofMeter) {
      if (kept?.ms !== r.ms) {
        kept = r;
        valid.push(r);
      } else if (kept.value !== r.value) {
        problems.push({
          line: r.line,
          reason: `meter ${numberOf.get(meterId)} at ${r.ts} has value ${r.value} here but ${kept.value} on line ${kept.line}`,
        });
      }
    }
  }
  return valid;
}

/**
 * Splits rows into appends (outside the span of the meter's stored readings, so certainly new) and the rest,
 * and reports rows of the rest whose meter+timestamp is already stored with another value.
 */
async function checkAgainstStored(
  tx: Db,
  rows: ValidRow[],
): Promise<{ problems: IngestProblem[]; appends: ValidRow[]; others: ValidRow[] }> {
  if (rows.length === 0) return { problems: [], appends: [], others: [] };
  const meterIds = [...new Set(rows.map((r) => r.meterId))];
  // Rows before a meter's first or after its last stored reading cannot conflict; only check the rest.
  const bounds = await queryRows<{ meter_id: number; first_ms: number | null; last_ms: number | null }>(
    tx,
    sql`SELECT m.id AS meter_id,
          (SELECT (extract(epoch FROM r.ts) * 1000)::float8 FROM register_readings r
            WHERE r.meter_id = m.id ORDER BY r.ts LIMIT 1) AS first_ms,
          (SELECT (extract(epoch FROM r.ts) * 1000)::float8 FROM register_readings r
            WHERE r.meter_id = m.id ORDER BY r.ts DESC LIMIT 1) AS last_ms
        FROM unnest(${pgNumberArray(meterIds)}::int[]) AS m(id)`,
  );
  const stored = new Map(bounds.map((b) => [b.meter_id, b]));
  const appends: ValidRow[] = [];
  const suspects: ValidRow[] = [];
  for (const r of rows) {
    const b = stored.get(r.meterId);
    if (
      !b ||
      b.first_ms === null ||
      b.last_ms === null ||
      r.ms < Number(b.first_ms) ||
      r.ms > Number(b.last_ms)
    ) {
      appends.push(r);
    } else suspects.push(r);
  }
  const problems: IngestProblem[] = [];
  for (let i = 0; i < suspects.length; i += INSERT_CHUNK) {
    const chunk = suspects.slice(i, i + INSERT_CHUNK);
    const found = await queryRows<{ line: number; stored: string; meter_number: string }>(
      tx,
      sql`SELECT i.line, r.value::text AS stored, m.number AS meter_number
          FROM unnest(${pgNumberArray(chunk.map((r) => r.line))}::int[], ${pgNumberArray(chunk.map((r) => r.meterId))}::int[],
                      ${pgNumberArray(chunk.map((r) => r.ms))}::int8[], ${pgNumberArray(chunk.map((r) => r.value))}::numeric[])
               AS i(line, meter_id, ms, value)
          JOIN register_readings r ON r.meter_id = i.meter_id AND r.ts = to_timestamp(i.ms::float8 / 1000)
          JOIN meters m ON m.id = i.meter_id
          WHERE r.value <> i.value`,
    );
    for (const f of found) {
      problems.push({
        line: f.line,
        reason: `meter ${f.meter_number} already has another value (${f.stored}) stored for this timestamp`,
      });
    }
  }
  return { problems, appends, others: suspects };
}

interface MeterSpan {
  meterId: number;
  minMs: number;
  maxMs: number;
}

function widen(spans: Map<number, MeterSpan>, meterId: number, minMs: number, maxMs: number): void {
  const s = spans.get(meterId);
  if (s) {
    s.minMs = Math.min(s.minMs, minMs);
    s.maxMs = Math.max(s.maxMs, maxMs);
  } else spans.set(meterId, { meterId, minMs, maxMs });
}

/**
 * Inserts readings, skipping any already stored (the caller adds RETURNING to learn which were new); `fresh`
 * (into an empty table without its key) inserts them as they are.
 */
function insertReadingsSql(rows: ValidRow[], fresh = false): SQL {
  return sql`INSERT INTO register_readings (meter_id, ts, value)
    SELECT i.meter_id, to_timestamp(i.ms::float8 / 1000), i.value
    FROM unnest(${pgNumberArray(rows.map((r) => r.meterId))}::int[], ${pgNumberArray(rows.map((r) => r.ms))}::int8[],
                ${pgNumberArray(rows.map((r) => r.value))}::numeric[]) AS i(meter_id, ms, value)
    ${fresh ? sql`` : sql`ON CONFLICT (meter_id, ts) DO NOTHING`}`;
}

/**
 * Inserts the readings; returns how many were new and, per meter, the time span of the new ones.
 * Appends are known to be new; the others may already be stored (a re-import), so the database says.
 */
async function insertReadings(
  tx: Db,
  appends: ValidRow[],
  others: ValidRow[],
): Promise<{ inserted: number; spans: MeterSpan[] }> {
  const byMeterAndTime = (a: ValidRow, b: ValidRow) => a.meterId - b.meterId || a.ms - b.ms;
  // Sorted by meter and time, inserts walk the primary key in order.
  appends.sort(byMeterAndTime);
  others.sort(byMeterAndTime);
  const spans = new Map<number, MeterSpan>();
  for (let i = 0; i < appends.length; i += INSERT_CHUNK) {
    await tx.execute(insertReadingsSql(appends.slice(i, i + INSERT_CHUNK)));
  }
  for (const r of appends) widen(spans, r.meterId, r.ms, r.ms);
  let inserted = appends.length;
  for (let i = 0; i < others.length; i += INSERT_CHUNK) {
    const result = await queryRows<{ meter_id: number; min_ms: number; max_ms: number; n: number }>(
      tx,
      sql`WITH ins AS (${insertReadingsSql(others.slice(i, i + INSERT_CHUNK))} RETURNING meter_id, ts)
          SELECT meter_id, (extract(epoch FROM min(ts)) * 1000)::float8 AS min_ms,
                 (extract(epoch FROM max(ts)) * 1000)::float8 AS max_ms, count(*)::int AS n
          FROM ins GROUP BY meter_id`,
    );
    for (const r of result) {
      inserted += Number(r.n);
      widen(spans, r.meter_id, Number(r.min_ms), Number(r.max_ms));
    }
  }
  return { inserted, spans: [...spans.values()] };
}

/** A point's range of Europe/Copenhagen days (YYYY-MM-DD, inclusive). */
export interface PointDays {
  pointId: number;
  dayLo: string;
  dayHi: string;
}

interface HourlyOutcome {
  point_id: number;
  day_lo: string;
  day_hi: string;
  hours: number;
}

/** The CTE `a`: per meter, the time span (lo, hi) of the new readings. */
function spansCte(spans: MeterSpan[]): SQL {
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
function neighbourSpan(fresh: boolean): SQL {
  if (fresh) return sql`a.lo AS lo, a.hi AS hi`;
  return sql`coalesce((SELECT r.ts FROM register_readings r WHERE r.meter_id = a.meter_id AND r.ts < a.lo
                  ORDER BY r.ts DESC LIMIT 1), a.lo) AS lo,
        coalesce((SELECT r.ts FROM register_readings r WHERE r.meter_id = a.meter_id AND r.ts > a.hi
                  ORDER BY r.ts LIMIT 1), a.hi) AS hi`;
}

/**
 * The last CTE and final SELECT of an hourly recomputation: upserts `values` (point, hour start, value),
 * and reports per point the Copenhagen days of the hours that changed, and how many changed (HourlyOutcome).
 */
function upsertHourlySql(values: SQL): SQL {
  return sql`, up AS (
      INSERT INTO hourly_consumption AS hc (measurement_point_id, hour_start, value)
      ${values}
      ON CONFLICT (measurement_point_id, hour_start) DO UPDATE SET value = excluded.value
        WHERE hc.value IS DISTINCT FROM excluded.value
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
 * hours of one interval add up to its delta exactly.
 */
function registerHourlySql(spans: MeterSpan[], fresh = false) {
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
      SELECT rg.point_id, rg.h_lo, rg.h_hi, m.id AS meter_id${fresh ? sql`, lim.per_hour` : sql``}
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
      SELECT pm.point_id, pm.h_lo, pm.h_hi, pm.meter_id, r.ts, r.value${fresh ? sql`, pm.per_hour` : sql``}
      FROM pm JOIN register_readings r ON r.meter_id = pm.meter_id AND r.ts >= pm.h_lo AND r.ts <= pm.h_hi
      ${
        fresh
          ? sql``
          : sql`UNION ALL
      SELECT pm.point_id, pm.h_lo, pm.h_hi, pm.meter_id, b.ts, b.value FROM pm CROSS JOIN LATERAL (
        SELECT r.ts, r.value FROM register_readings r
        WHERE r.meter_id = pm.meter_id AND r.ts < pm.h_lo ORDER BY r.ts DESC LIMIT 1) b
      UNION ALL
      SELECT pm.point_id, pm.h_lo, pm.h_hi, pm.meter_id, n.ts, n.value FROM pm CROSS JOIN LATERAL (
        SELECT r.ts, r.value FROM register_readings r
        WHERE r.meter_id = pm.meter_id AND r.ts > pm.h_hi ORDER BY r.ts LIMIT 1) n`
      }
    ),
    iv AS (
      SELECT point_id, meter_id, h_lo, h_hi, lag(ts) OVER w AS t0, ts AS t1, lag(value) OVER w AS v0, value AS v1
             ${fresh ? sql`, per_hour` : sql``}
      FROM rd WINDOW w AS (PARTITION BY meter_id ORDER BY ts)
    ),
    dl AS (
      -- aligned: one reading per whole hour (UTC epoch seconds divisible by 3600, an hour apart).
      SELECT point_id, meter_id, h_lo, h_hi, t0, t1, ${DELTA} AS delta,${fresh ? sql` v0, v1, per_hour,` : sql``}
             t1 - t0 = interval '1 hour'
               AND date_part('epoch', t0) = floor(date_part('epoch', t0) / 3600) * 3600 AS aligned
      FROM iv
      WHERE t0 IS NOT NULL AND t1 > h_lo AND t0 < h_hi
    ),
    sh AS (
      -- The common case, one reading per whole hour, needs no spreading.
      SELECT dl.point_id, dl.t0 AS hour_start, dl.delta AS share FROM dl WHERE dl.aligned
      UNION ALL
      SELECT sp.point_id, h.h AS hour_start,
             round(sp.delta * extract(epoch FROM least(h.h + interval '1 hour', sp.t1) - sp.t0) / sp.secs, 9)
               - round(sp.delta * extract(epoch FROM greatest(h.h, sp.t0) - sp.t0) / sp.secs, 9) AS share
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
      sql`SELECT dl.point_id, dl.t0, trim_scale(dl.delta) FROM dl JOIN pt ON pt.point_id = dl.point_id WHERE pt.single
      UNION ALL
      SELECT sh.point_id, sh.hour_start, trim_scale(sum(sh.share))
      FROM sh JOIN pt ON pt.point_id = sh.point_id WHERE NOT pt.single
      GROUP BY sh.point_id, sh.hour_start`,
      fresh,
      fresh
        ? // The same pass checks the intervals (implausibleJumps does it separately for an incremental batch).
          // A whole hour's bound is per_hour itself: no interval arithmetic for the common case.
          sql`SELECT meter_id, per_hour, t0, t1, v0, v1, ${HOURS} AS hours,
                 CASE WHEN aligned THEN delta > per_hour ELSE delta > per_hour * ${HOURS} END AS over
          FROM dl`
        : undefined,
    )}`;
}

/**
 * The end of an hourly recomputation, after a list of CTEs. Incremental: upsertHourlySql. Fresh (into the
 * empty, key-less table): a plain insert, and with `intervals` (a register load) the statement returns the
 * implausible ones among them.
 */
function hourlyWrite(values: SQL, fresh: boolean, intervals?: SQL): SQL {
  if (!fresh) return upsertHourlySql(values);
  const insert = sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value) ${values}`;
  if (intervals === undefined) return insert;
  return sql`, up AS (${insert}), hv AS (${intervals})
    ${implausibleSelect()}`;
}

/** Rise or reset: the consumption an interval from (t0, v0) to (t1, v1) of one meter stands for. */
const DELTA = sql`CASE WHEN v1 >= v0 THEN v1 - v0 ELSE v1 END`;
/** The hours an interval counts for in the plausibility bound: its length, at least one. */
const HOURS = sql`greatest(1, extract(epoch FROM t1 - t0) / 3600)`;

/** The CTE `lim`: MAX_PER_HOUR per quantity. */
function limCte(): SQL {
  const quantities = Object.keys(MAX_PER_HOUR);
  return sql`lim AS (
      SELECT * FROM unnest(${pgTextArray(quantities)}::text[],
                           ${pgNumberArray(quantities.map((q) => MAX_PER_HOUR[q]!))}::numeric[]) AS lim(quantity, per_hour)
    )`;
}

/**
 * Selects the implausible intervals from `hv` (meter_id, per_hour, t0, t1, v0, v1, hours, and `over`: whether
 * the interval's consumption is above per_hour × hours).
 */
function implausibleSelect(): SQL {
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
async function implausibleJumps(
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
      SELECT meter_id, per_hour, t0, t1, v0, v1, ${HOURS} AS hours, ${DELTA} > per_hour * ${HOURS} AS over
      FROM iv WHERE t0 IS NOT NULL
    )
    ${implausibleSelect()}`,
  );
  return jumpProblems(found, batch);
}

/** An implausible interval, as implausibleSelect gives it. */
interface JumpRow extends Record<string, unknown> {
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
function jumpProblems(found: JumpRow[], batch: ValidRow[]): IngestProblem[] {
  if (found.length === 0) return [];
  const lineOf = new Map(batch.map((r) => [`${r.meterId}:${r.ms}`, r.line]));
  return found.map((f) => {
    const line =
      lineOf.get(`${f.meter_id}:${Number(f.ms1)}`) ?? lineOf.get(`${f.meter_id}:${Number(f.ms0)}`) ?? 0;
    const limit = Number(f.per_hour) * Number(f.hours);
    const reason =
      Number(f.v1) < Number(f.v0)
        ? `meter ${f.number} at ${new Date(Number(f.ms1)).toISOString()} drops from ${f.v0} to ${f.v1}: a register reset is accepted only when the new value is near zero (at most ${limit} for ${f.hours} h of ${f.quantity}), so this is a bad reading`
        : `meter ${f.number} at ${new Date(Number(f.ms1)).toISOString()} rises from ${f.v0} to ${f.v1} in ${f.hours} h, above the plausible ${f.per_hour} per hour for ${f.quantity}`;
    return { line, reason };
  });
}

/** Recomputes the hourly average of instantaneous points (temperature, humidity) in the affected hours. */
function instantaneousHourlySql(spans: MeterSpan[], fresh = false) {
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
      sql`SELECT s.point_id, s.ts, trim_scale(round(s.value, 6)) FROM s JOIN pt ON pt.point_id = s.point_id WHERE pt.single
      UNION ALL
      SELECT s.point_id, to_timestamp(floor(s.e / 3600) * 3600), trim_scale(round(avg(s.value), 6))
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
    SELECT point_id, t0, CASE WHEN delta > per_hour THEN NULL ELSE trim_scale(delta) END
    FROM (SELECT point_id, t0, per_hour, ${DELTA} AS delta FROM iv WHERE t0 IS NOT NULL OFFSET 0) d`;
}

/** SQLSTATE of a database error (postgres.js puts it on `code`; Drizzle wraps it as `cause`). */
function sqlStateOf(err: unknown): string | undefined {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Derives the hours of whole-hour register points (wholeHourRegistersSql), under a savepoint. */
async function wholeHourRegisters(tx: Db, spans: MeterSpan[]): Promise<void> {
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
function wholeHourSamplesSql(spans: MeterSpan[]): SQL {
  return sql`
    WITH ${spansCte(spans)}
    INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT m.measurement_point_id, r.ts, trim_scale(round(r.value, 6))
    FROM a JOIN meters m ON m.id = a.meter_id JOIN register_readings r ON r.meter_id = a.meter_id`;
}

function rangesParams(days: PointDays[]) {
  return sql`unnest(${pgNumberArray(days.map((d) => d.pointId))}::int[], ${pgNumberArray(days.map((d) => d.dayLo))}::date[],
                    ${pgNumberArray(days.map((d) => d.dayHi))}::date[]) AS rg(point_id, d_lo, d_hi)`;
}

/**
 * Daily rollups per point over Europe/Copenhagen days (23 or 25 hours on DST days). Returns how many rollups
 * changed, and how many hourly values those count.
 */
async function updateDailyRollups(
  tx: Db,
  days: PointDays[],
  fresh: boolean,
): Promise<{ days: number; hours: number }> {
  const rollups = sql`INSERT INTO daily_rollups AS d (measurement_point_id, day, sum, min, max, count)
          SELECT h.measurement_point_id, (h.hour_start AT TIME ZONE 'Europe/Copenhagen')::date,
                 sum(h.value), min(h.value), max(h.value), count(*)::int
          FROM (
            -- The days' bounds as instants, converted once per point: in a join condition they would be
            -- converted again for every hour joined (two time-zone conversions per row of a large load).
            SELECT rg.point_id, (rg.d_lo::timestamp AT TIME ZONE 'Europe/Copenhagen') AS t_lo,
                   ((rg.d_hi + 1)::timestamp AT TIME ZONE 'Europe/Copenhagen') AS t_hi
            FROM ${rangesParams(days)}
            OFFSET 0
          ) rt
          JOIN hourly_consumption h ON h.measurement_point_id = rt.point_id
            AND h.hour_start >= rt.t_lo AND h.hour_start < rt.t_hi
          GROUP BY 1, 2`;
  if (fresh) {
    // Into the empty table: every rollup is new.
    await tx.execute(rollups);
    const [row] = await queryRows<{ n: number; hours: number }>(
      tx,
      sql`SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS hours FROM daily_rollups`,
    );
    return { days: Number(row?.n ?? 0), hours: Number(row?.hours ?? 0) };
  }
  const [row] = await queryRows<{ n: number; hours: number }>(
    tx,
    sql`WITH up AS (
          ${rollups}
          ON CONFLICT (measurement_point_id, day) DO UPDATE
            SET sum = excluded.sum, min = excluded.min, max = excluded.max, count = excluded.count
            WHERE (d.sum, d.min, d.max, d.count) IS DISTINCT FROM (excluded.sum, excluded.min, excluded.max, excluded.count)
          RETURNING d.count
        )
        SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS hours FROM up`,
  );
  return { days: Number(row?.n ?? 0), hours: Number(row?.hours ?? 0) };
}

/** Per register or sample point of a fresh load, the Europe/Copenhagen days its readings span. */
async function freshDays(tx: Db, spans: MeterSpan[]): Promise<PointDays[]> {
  const rows = await queryRows<{ point_id: number; day_lo: string; day_hi: string }>(
    tx,
    sql`WITH ${spansCte(spans)}
        SELECT m.measurement_point_id AS point_id,
               to_char((min(a.lo) AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_lo,
               to_char((max(a.hi) AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_hi
        FROM a JOIN meters m ON m.id = a.meter_id
        GROUP BY m.measurement_point_id`,
  );
  return rows.map((r) => ({ pointId: r.point_id, dayLo: r.day_lo, dayHi: r.day_hi }));
}

/** Monthly rollups per point, from the daily ones of the affected months. */
async function updateMonthlyRollups(tx: Db, days: PointDays[]): Promise<void> {
  await tx.execute(sql`
    INSERT INTO monthly_rollups AS mr (measurement_point_id, month, sum, min, max, count)
    SELECT d.measurement_point_id, date_trunc('month', d.day::timestamp)::date,
           sum(d.sum), min(d.min), max(d.max), sum(d.count)::int
    FROM ${rangesParams(days)}
    JOIN daily_rollups d ON d.measurement_point_id = rg.point_id
      AND d.day >= date_trunc('month', rg.d_lo::timestamp)::date
      AND d.day < (date_trunc('month', rg.d_hi::timestamp) + interval '1 month')::date
    GROUP BY 1, 2
    ON CONFLICT (measurement_point_id, month) DO UPDATE
      SET sum = excluded.sum, min = excluded.min, max = excluded.max, count = excluded.count`);
}

/**
 * Property rollups per quantity and day: the sum over the property's apartment points, the area of the
 * apartments that had data that day, and the sum per m² of that area.
 */
async function updatePropertyRollups(tx: Db, days: PointDays[]): Promise<void> {
  await tx.execute(sql`
    WITH pq AS (
      SELECT p.property_id, p.quantity, min(rg.d_lo) AS d_lo, max(rg.d_hi) AS d_hi
      FROM ${rangesParams(days)}
      JOIN measurement_points p ON p.id = rg.point_id
      WHERE p.apartment_id IS NOT NULL
      GROUP BY p.property_id, p.quantity
    ),
    per_apartment AS (
      SELECT pq.property_id, pq.quantity, d.day, p.apartment_id, sum(d.sum) AS s, sum(d.count) AS c
      FROM pq
      JOIN measurement_points p ON p.property_id = pq.property_id AND p.quantity = pq.quantity
        AND p.apartment_id IS NOT NULL
      JOIN daily_rollups d ON d.measurement_point_id = p.id AND d.day BETWEEN pq.d_lo AND pq.d_hi
      GROUP BY 1, 2, 3, 4
    )
    INSERT INTO property_daily_rollups AS pr (property_id, quantity, day, sum, area_m2, per_m2, count, apartments)
    SELECT pa.property_id, pa.quantity, pa.day, sum(pa.s), sum(ap.area_m2),
           coalesce(trim_scale(round(sum(pa.s) / nullif(sum(ap.area_m2), 0), 9)), 0),
           sum(pa.c)::int, count(*)::int
    FROM per_apartment pa JOIN apartments ap ON ap.id = pa.apartment_id
    GROUP BY 1, 2, 3
    ON CONFLICT (property_id, quantity, day) DO UPDATE
      SET sum = excluded.sum, area_m2 = excluded.area_m2, per_m2 = excluded.per_m2,
          count = excluded.count, apartments = excluded.apartments`);
}

/** The start of every ingestion transaction. */
async function beginBatch(tx: Db, bulk: boolean): Promise<void> {
  // One batch at a time (worker, CLI, demo): rollups are recomputed from what earlier batches committed.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${INGEST_LOCK})`);
  // API connections carry a statement_timeout; ingestion is not an API request.
  await tx.execute(sql`SET LOCAL statement_timeout = 0`);
  if (bulk) {
    // The loader has checked every meter id itself; skipping the per-row foreign-key triggers halves the
    // cost of an insert. Only a superuser may (PGlite's user is one); otherwise the checks stay on.
    await tx.execute(sql`SELECT CASE WHEN current_setting('is_superuser') = 'on'
      THEN set_config('session_replication_role', 'replica', true) END`);
    // Sorts and hash tables of a large load (the window over every reading, the hourly sums) stay in memory
    // instead of spilling: with 64MB the demo's two years spilled, and took twice as long in those steps.
    await tx.execute(sql`SET LOCAL work_mem = '512MB'`);
    // The primary keys' sorts (about 410 MB each for the two-year demo) stay in memory too.
    await tx.execute(sql`SET LOCAL maintenance_work_mem = '512MB'`);
  }
}

/** Hourly consumption, then daily, monthly and property rollups, for the readings' spans. */
async function derive(
  tx: Db,
  spans: MeterSpan[],
  fresh: boolean,
  timings?: PhaseTimings,
  wholeHours: WholeHourSpans = { registers: [], samples: [] },
  deferRollups = false,
): Promise<{ hoursUpdated: number; daysUpdated: number; pendingDays?: PointDays[] }> {
  let days: PointDays[];
  let hoursUpdated = 0;
  if (fresh) {
    await timed(timings, 'hourly and jumps (whole-hour registers)', () =>
      wholeHourRegisters(tx, wholeHours.registers),
    );
    const whole = new Set([...wholeHours.registers, ...wholeHours.samples].map((s) => s.meterId));
    const general = spans.filter((s) => !whole.has(s.meterId));
    if (general.length > 0) {
      // One window pass over the other registers derives their hours and finds implausible intervals; the
      // statement returns those, and the transaction's rollback takes the hours back.
      const jumps = await timed(timings, 'hourly and jumps (registers)', () =>
        queryRows<JumpRow>(tx, registerHourlySql(general, true)),
      );
      if (jumps.length > 0) throw new IngestError(jumpProblems(jumps, []));
    }
    await timed(timings, 'hourly (samples)', async () => {
      if (wholeHours.samples.length > 0) await tx.execute(wholeHourSamplesSql(wholeHours.samples));
      if (general.length > 0) await tx.execute(instantaneousHourlySql(general, true));
    });
    days = await freshDays(tx, spans);
  } else {
    const outcomes = [
      ...(await timed(timings, 'hourly (registers)', () =>
        queryRows<HourlyOutcome & Record<string, unknown>>(tx, registerHourlySql(spans)),
      )),
      ...(await timed(timings, 'hourly (samples)', () =>
        queryRows<HourlyOutcome & Record<string, unknown>>(tx, instantaneousHourlySql(spans)),
      )),
    ];
    hoursUpdated = outcomes.reduce((n, o) => n + Number(o.hours), 0);
    // A point is either register or instantaneous, so each point has at most one outcome.
    days = outcomes.map((o) => ({ pointId: o.point_id, dayLo: o.day_lo, dayHi: o.day_hi }));
    if (deferRollups) return { hoursUpdated, daysUpdated: 0, pendingDays: days };
  }
  let daysUpdated = 0;
  if (days.length > 0) {
    // On a fresh load the daily rollups read the key-less hourly table in one sequential pass: its rows lie in
    // no particular order, so walking them by the key (rebuilt below) would read them at random.
    const daily = await timed(timings, 'daily rollups', () => updateDailyRollups(tx, days, fresh));
    daysUpdated = daily.days;
    // Every hour of a fresh load is new, and counted by exactly one new daily rollup.
    if (fresh) hoursUpdated = daily.hours;
  }
  if (fresh) {
    // The primary keys were dropped for the load (bulkLoadIntoEmpty); a sorted index build is far cheaper
    // than maintaining them row by row. The rollups below need them.
    await timed(timings, 'primary keys', () => addPrimaryKeys(tx));
  }
  if (days.length > 0) await rollUpFromDaily(tx, days, timings);
  return { hoursUpdated, daysUpdated };
}

/** Monthly and property rollups, and degree days, of the points' days (after their daily rollups). */
async function rollUpFromDaily(tx: Db, days: PointDays[], timings?: PhaseTimings): Promise<void> {
  await timed(timings, 'monthly rollups', () => updateMonthlyRollups(tx, days));
  await timed(timings, 'property rollups', () => updatePropertyRollups(tx, days));
  await timed(timings, 'property hourly rollups', () => updatePropertyHourlyRollups(tx, days));
  // Heating degree days from the property's outdoor temperature (writes nothing for other points).
  await timed(timings, 'degree days', () => updateDegreeDays(tx, days));
}

/**
 * Brings the daily, monthly and property rollups and degree days of the points' days up to date from their
 * hourly values, in one transaction (after ingestReadings with `deferRollups`). Recomputes whole days, so
 * it may run again for the same days. Returns how many daily rollups changed.
 */
export async function updateRollups(db: Db, days: PointDays[], timings?: PhaseTimings): Promise<number> {
  if (days.length === 0) return 0;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await timed(timings, 'begin', () => beginBatch(tx, false));
    const daily = await timed(timings, 'daily rollups', () => updateDailyRollups(tx, days, false));
    await rollUpFromDaily(tx, days, timings);
    return daily.days;
  });
}

/** Spans of the meters whose points a fresh load derives by the whole-hour shortcuts. */
interface WholeHourSpans {
  registers: MeterSpan[];
  samples: MeterSpan[];
}

/** Per meter of a load: whether its readings so far lie on whole UTC hours, and follow one another an hour apart. */
interface MeterShape {
  lastMs: number;
  wholeHours: boolean;
  hourly: boolean;
}

const HOUR_MS = 3_600_000;

/**
 * The spans of points that have one meter in the load whose readings suit the whole-hour shortcuts: for a
 * register, a reading on every whole hour (each interval is one hour); for samples, only whole hours (one
 * sample per hour). The same conditions the general SQL checks per point (its `pt` CTE), known here for free.
 */
function wholeHourSpans(
  meters: Map<string, MeterInfo>,
  spans: Map<number, MeterSpan>,
  shapes: Map<number, MeterShape>,
): WholeHourSpans {
  const byPoint = new Map<number, MeterInfo[]>();
  for (const m of meters.values()) {
    if (!spans.has(m.id)) continue;
    const list = byPoint.get(m.pointId);
    if (list) list.push(m);
    else byPoint.set(m.pointId, [m]);
  }
  const result: WholeHourSpans = { registers: [], samples: [] };
  for (const [, list] of byPoint) {
    const meter = list[0]!;
    const shape = shapes.get(meter.id);
    if (list.length !== 1 || !shape) continue;
    if (meter.readingKind === 'register' && shape.hourly) result.registers.push(spans.get(meter.id)!);
    if (meter.readingKind === 'instantaneous' && shape.wholeHours) result.samples.push(spans.get(meter.id)!);
  }
  return result;
}

const READINGS_PK = 'register_readings_meter_id_ts_pk';

/** Rebuilds the reading tables' primary keys, which bulkLoadIntoEmpty drops for the load. */
async function addPrimaryKeys(tx: Db): Promise<void> {
  await tx.execute(
    sql.raw(`ALTER TABLE register_readings ADD CONSTRAINT ${READINGS_PK} PRIMARY KEY (meter_id, ts)`),
  );
  await tx.execute(
    sql.raw(
      `ALTER TABLE hourly_consumption ADD CONSTRAINT ${HOURLY_PK} PRIMARY KEY (measurement_point_id, hour_start)`,
    ),
  );
}
const HOURLY_PK = 'hourly_consumption_measurement_point_id_hour_start_pk';

/**
 * The first load of a large history into empty reading tables (the demo's two years on first start), with
 * the same rules as ingestReadings: every batch is validated the same way, implausible jumps and non-zero
 * resets are refused, and hourly consumption and rollups are derived by the same SQL. Set-based: the
 * readings go into the tables with their primary keys dropped, hourly consumption is derived in one
 * INSERT … SELECT over all of them, then the keys are rebuilt and the rollups derived.
 *
 * Call inside a transaction (`tx`): it writes all or nothing, so a crash leaves the tables empty.
 * `batches` must not overlap in time per meter (a duplicate would fail the primary key's rebuild).
 */
export async function bulkLoadIntoEmpty(
  tx: Db,
  batches: Iterable<ReadingRow[]>,
  options: IngestOptions & { onBatch?: (rows: number) => void } = {},
): Promise<IngestResult> {
  await beginBatch(tx, true);
  const [state] = await queryRows<{ empty: boolean }>(
    tx,
    sql`SELECT NOT EXISTS (SELECT 1 FROM register_readings) AND NOT EXISTS (SELECT 1 FROM hourly_consumption)
          AND NOT EXISTS (SELECT 1 FROM daily_rollups) AS empty`,
  );
  if (state?.empty !== true) throw new Error('bulkLoadIntoEmpty: the reading tables are not empty');
  // Empty already; truncating gives them new files in this transaction, which a database with
  // wal_level=minimal (PGlite's) then fills without per-row WAL records.
  await tx.execute(sql`TRUNCATE register_readings, hourly_consumption, daily_rollups`);
  await tx.execute(sql.raw(`ALTER TABLE register_readings DROP CONSTRAINT ${READINGS_PK}`));
  await tx.execute(sql.raw(`ALTER TABLE hourly_consumption DROP CONSTRAINT ${HOURLY_PK}`));
  const meters = new Map<string, MeterInfo>();
  const spans = new Map<number, MeterSpan>();
  // Batches usually come in time order; any other order only clears `hourly`, which sends the meter's point
  // down the general path.
  const shapes = new Map<number, MeterShape>();
  const nowMs = (options.now ?? new Date()).getTime();
  let rows = 0;
  // The database inserts one batch while this thread generates and validates the next (two cores at work).
  let inserting: Promise<unknown> = Promise.resolve();
  for (const batch of batches) {
    const unknown = [...new Set(batch.map((r) => r.meterNumber.trim()))].filter(
      (n) => !meters.has(n) && !n.includes('\0'),
    );
    if (unknown.length > 0) for (const [k, v] of await loadMeters(tx, unknown)) meters.set(k, v);
    const problems: IngestProblem[] = [];
    const valid = await timed(options.timings, 'validate (JS)', () =>
      validateRows(batch, meters, problems, nowMs),
    );
    if (problems.length > 0) {
      await inserting.catch(() => {});
      throw new IngestError(problems.sort((a, b) => a.line - b.line));
    }
    await timed(options.timings, 'insert readings (wait)', () => inserting);
    const statements: Promise<unknown>[] = [];
    for (let i = 0; i < valid.length; i += INSERT_CHUNK) {
      statements.push(tx.execute(insertReadingsSql(valid.slice(i, i + INSERT_CHUNK), true)));
    }
    inserting = Promise.all(statements);
    // Awaited below; this only keeps a failure from counting as unhandled meanwhile.
    inserting.catch(() => {});
    for (const r of valid) {
      widen(spans, r.meterId, r.ms, r.ms);
      const whole = r.ms % HOUR_MS === 0;
      const shape = shapes.get(r.meterId);
      if (!shape) shapes.set(r.meterId, { lastMs: r.ms, wholeHours: whole, hourly: whole });
      else {
        shape.wholeHours &&= whole;
        shape.hourly &&= whole && r.ms === shape.lastMs + HOUR_MS;
        shape.lastMs = r.ms;
      }
    }
    rows += batch.length;
    options.onBatch?.(batch.length);
    // Let the driver send the statements before the generator takes this thread again.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await timed(options.timings, 'insert readings (wait)', () => inserting);
  const all = [...spans.values()];
  if (all.length === 0) {
    await addPrimaryKeys(tx);
    return { rows, newReadings: 0, hoursUpdated: 0, daysUpdated: 0 };
  }
  // derive checks jumps and resets in the same pass as it derives the hours.
  const { hoursUpdated, daysUpdated } = await derive(
    tx,
    all,
    true,
    options.timings,
    wholeHourSpans(meters, spans, shapes),
  );
  return { rows, newReadings: rows, hoursUpdated, daysUpdated };
}

/**
 * Validates and stores a batch of readings, then brings hourly consumption and rollups up to date,
 * all in one transaction. Throws IngestError (and writes nothing) if any row is bad.
 */
export async function ingestReadings(
  db: Db,
  rows: ReadingRow[],
  options: IngestOptions = {},
): Promise<IngestResult> {
  const problems: IngestProblem[] = [];
  const numbers = [
    ...new Set(rows.filter((r) => !r.meterNumber.includes('\0')).map((r) => r.meterNumber.trim())),
  ];
  const meters = numbers.length > 0 ? await loadMeters(db, numbers) : new Map<string, MeterInfo>();
  const valid = validateRows(rows, meters, problems, (options.now ?? new Date()).getTime());

  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const timings = options.timings;
    // One batch at a time (worker, CLI, demo): rollups are recomputed from what earlier batches committed.
    await timed(timings, 'begin', () => beginBatch(tx, options.bulk === true));
    const checked = await timed(timings, 'check against stored', () => checkAgainstStored(tx, valid));
    problems.push(...checked.problems);
    if (problems.length > 0) {
      problems.sort((a, b) => a.line - b.line);
      throw new IngestError(problems);
    }
    const { inserted, spans } = await timed(timings, 'insert readings', () =>
      insertReadings(tx, checked.appends, checked.others),
    );
    if (spans.length === 0) return { rows: rows.length, newReadings: 0, hoursUpdated: 0, daysUpdated: 0 };
    const jumps = await timed(timings, 'jumps and resets check', () => implausibleJumps(tx, spans, valid));
    if (jumps.length > 0) throw new IngestError(jumps.sort((a, b) => a.line - b.line));

    const derived = await derive(tx, spans, false, timings, undefined, options.deferRollups === true);
    return { rows: rows.length, newReadings: inserted, ...derived };
  });
}
