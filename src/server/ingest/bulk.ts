/**
 * The first load of a large history into empty reading tables (the demo's two years).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { beginBatch, derive, refreshLastReading, skipRowChecks } from './derive.ts';
import { insertReadingsSql } from './readings.ts';
import {
  HOUR_MS,
  INSERT_CHUNK,
  IngestError,
  type IngestOptions,
  type IngestProblem,
  type IngestResult,
  type MeterInfo,
  type MeterSpan,
  type ReadingRow,
  timed,
  widen,
} from './types.ts';
import { loadMeters, validateRows } from './validate.ts';

/** Spans of the meters whose points a fresh load derives by the whole-hour shortcuts. */
export interface WholeHourSpans {
  registers: MeterSpan[];
  samples: MeterSpan[];
}

/** Per meter of a load: whether its readings so far lie on whole UTC hours, and follow one another an hour apart. */
interface MeterShape {
  lastMs: number;
  wholeHours: boolean;
  hourly: boolean;
}

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
export async function addPrimaryKeys(tx: Db): Promise<void> {
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
  // Triggers back on (beginBatch turned them off), so this update reaches the portfolio summaries' trigger.
  await skipRowChecks(tx, false);
  await refreshLastReading(tx, all);
  return { rows, newReadings: rows, hoursUpdated, daysUpdated };
}
