/**
 * A batch's transaction set-up (locks, settings) and the order of derivation: hours, then rollups.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { alignedChainHours, alignedHoursSql } from './alignedHours.ts';
import { addPrimaryKeys, type WholeHourSpans } from './bulk.ts';
import {
  type HourlyOutcome,
  instantaneousHourlySql,
  type KnownChain,
  registerHourlyKnownSql,
  registerHourlySql,
  wholeHourRegisters,
  wholeHourSamplesSql,
} from './hourly.ts';
import { type JumpRow, jumpProblems } from './jumps.ts';
import { queueLateDataRecheck } from './lateData.ts';
import { dropEmptyRollups, freshDays, rollUpFromDaily, updateDailyRollups } from './rollups.ts';
import { propertiesOfPoints } from './sqlParts.ts';
import { IngestError, type MeterSpan, type PhaseTimings, type PointDays, timed } from './types.ts';

/**
 * Advisory lock keys: the whole of ingestion (a bulk load takes it alone, every batch shares it), per property and
 * per measurement point (the first key of the two-key form; the property's or the point's id is the second).
 * The property's rollups have a key of their own, ROLLUP_LOCK in rollups.ts.
 */
export const INGEST_LOCK = 7_410_001;
const PROPERTY_LOCK = 7_410_002;
const POINT_LOCK = 7_410_003;

/**
 * A batch of at most this many points locks each of them; a larger one locks its properties whole. Every advisory
 * lock held takes a slot of PostgreSQL's shared lock table (max_locks_per_transaction, 64 by default, times the
 * connections), so a batch of thousands of points must not take one per point.
 */
const POINT_LOCKS_MAX = 32;

/**
 * The start of every ingestion transaction. Two batches that touch a point wait for one another: its hours and
 * its days' rollups are recomputed from what earlier batches committed. Batches of other points, of the same
 * property or not, run in parallel, up to the property's rollups (ROLLUP_LOCK in rollups.ts), which they take in
 * turn, each after the one before has committed. The locks are always taken in one order, so two batches never
 * wait for each other crosswise: ingestion shared, then the properties (id order; shared by a batch that locks
 * its points, exclusive by one of more points than POINT_LOCKS_MAX), then the points (id order), then later the
 * properties' rollups (id order). docs/decisions.md, "Ingestion locks per point".
 */
export async function beginBatch(tx: Db, bulk: boolean, pointIds: number[] = []): Promise<void> {
  if (bulk) await tx.execute(sql`SELECT pg_advisory_xact_lock(${INGEST_LOCK})`);
  else {
    const points = [...new Set(pointIds)].sort((a, b) => a - b);
    const properties = propertiesOfPoints(points);
    // One statement: the shared lock, then the properties' locks, then the points', and no statement_timeout
    // (API connections carry one; ingestion is not an API request): the select list is evaluated in order.
    await tx.execute(
      points.length <= POINT_LOCKS_MAX
        ? sql`SELECT pg_advisory_xact_lock_shared(${INGEST_LOCK}),
            (SELECT count(pg_advisory_xact_lock_shared(${PROPERTY_LOCK}, s.property_id)) FROM (${properties}) s),
            (SELECT count(pg_advisory_xact_lock(${POINT_LOCK}, p.id))
               FROM (SELECT id FROM unnest(${pgNumberArray(points)}::int[]) AS u(id) ORDER BY id) p),
            set_config('statement_timeout', '0', true)`
        : sql`SELECT pg_advisory_xact_lock_shared(${INGEST_LOCK}),
            (SELECT count(pg_advisory_xact_lock(${PROPERTY_LOCK}, s.property_id)) FROM (${properties}) s),
            set_config('statement_timeout', '0', true)`,
    );
    return;
  }
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

/**
 * Turns the per-row foreign-key checks (and the triggers) of the rest of the transaction off or back on, where the
 * database allows it (a superuser: PGlite's user; otherwise nothing changes and the checks stay on). A batch writes
 * rows whose references it has just read (meters it loaded, points and properties joined in the same statement),
 * and the checks were a third to a half of its insert time (issue 19's profile). Meters are never deleted.
 */
export async function skipRowChecks(tx: Db, skip: boolean): Promise<void> {
  await tx.execute(sql`SELECT CASE WHEN current_setting('is_superuser') = 'on'
    THEN set_config('session_replication_role', ${skip ? 'replica' : 'origin'}, true) END`);
}

/**
 * Raises the meters' newest reading (`meters.last_reading_at`, the console's freshness) to the newest reading a
 * batch inserted, as the trigger on register_readings does: a bulk batch runs with
 * `session_replication_role = replica`, which skips triggers, so without this the demo's first load left every
 * meter at "never read". The spans already hold each meter's newest inserted reading: no readings are scanned.
 */
export async function refreshLastReading(tx: Db, spans: MeterSpan[]): Promise<void> {
  if (spans.length === 0) return;
  await tx.execute(sql`UPDATE meters m SET last_reading_at = to_timestamp(s.max_ms / 1000.0)
    FROM unnest(${pgNumberArray(spans.map((x) => x.meterId))}::int[],
                ${pgNumberArray(spans.map((x) => x.maxMs))}::float8[]) AS s(meter_id, max_ms)
    WHERE m.id = s.meter_id
      AND (m.last_reading_at IS NULL OR m.last_reading_at < to_timestamp(s.max_ms / 1000.0))`);
}

/** Hourly consumption, then daily, monthly and property rollups, for the readings' spans. */
export async function derive(
  tx: Db,
  spans: MeterSpan[],
  fresh: boolean,
  timings?: PhaseTimings,
  wholeHours: WholeHourSpans = { registers: [], samples: [] },
  deferRollups = false,
  /** Days whose hours changed otherwise (hours cleared around a quarantined reading). */
  extraDays: PointDays[] = [],
  /**
   * What the batch knows (incremental only): register meters whose readings around the new ones it holds
   * (registerHourlyKnownSql), and whether any meter of `spans` is instantaneous (no: that statement is skipped).
   */
  known?: { chains: KnownChain[]; samples: boolean; outdoor: boolean },
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
    const chains = known?.chains ?? [];
    const inChains = new Set(chains.map((c) => c.meterId));
    const rest = chains.length > 0 ? spans.filter((s) => !inChains.has(s.meterId)) : spans;
    const aligned = alignedChainHours(chains);
    const outcomes = await timed(timings, 'hourly (registers)', async () => [
      ...(aligned.hours.length > 0
        ? await queryRows<HourlyOutcome & Record<string, unknown>>(tx, alignedHoursSql(aligned.hours))
        : []),
      ...(aligned.rest.length > 0
        ? await queryRows<HourlyOutcome & Record<string, unknown>>(tx, registerHourlyKnownSql(aligned.rest))
        : []),
      ...(rest.length > 0
        ? await queryRows<HourlyOutcome & Record<string, unknown>>(tx, registerHourlySql(rest))
        : []),
    ]);
    if (known === undefined || known.samples) {
      outcomes.push(
        ...(await timed(timings, 'hourly (samples)', () =>
          queryRows<HourlyOutcome & Record<string, unknown>>(tx, instantaneousHourlySql(spans)),
        )),
      );
    }
    hoursUpdated = outcomes.reduce((n, o) => n + Number(o.hours), 0);
    // A point is either register or instantaneous, so each point has at most one outcome.
    days = mergeDays([
      ...outcomes.map((o) => ({ pointId: o.point_id, dayLo: o.day_lo, dayHi: o.day_hi })),
      ...extraDays,
    ]);
    if (deferRollups) return { hoursUpdated, daysUpdated: 0, pendingDays: days };
  }
  if (extraDays.length > 0) await dropEmptyRollups(tx, mergeDays(extraDays));
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
  if (days.length > 0) await rollUpFromDaily(tx, days, timings, known?.outdoor ?? true, fresh);
  // Late data: days an alarm has judged or a report has shown are checked again by the worker.
  if (!fresh && days.length > 0)
    await timed(timings, 'late-data check', () => queueLateDataRecheck(tx, days));
  return { hoursUpdated, daysUpdated };
}

/**
 * Brings the daily, monthly and property rollups and degree days of the points' days up to date from their
 * hourly values, in one transaction (after ingestReadings with `deferRollups`). Recomputes whole days, so
 * it may run again for the same days. Returns how many daily rollups changed.
 *
 * With `between`, in three transactions instead (the daily rollups; the monthly and the property's daily ones
 * with degree days; the property's hourly ones with the late-data check), awaiting `between` after each of the
 * first two: the demo's backfill leaves the embedded database to requests there, which waited behind the one
 * transaction up to about 200 ms. A stop between them leaves the later rollups of those days behind until the
 * days are rolled up again (the backfill does so for the oldest day it loaded when it resumes).
 */
export async function updateRollups(
  db: Db,
  days: PointDays[],
  timings?: PhaseTimings,
  between?: () => Promise<void>,
): Promise<number> {
  if (days.length === 0) return 0;
  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      await timed(timings, 'begin', () =>
        beginBatch(
          tx,
          false,
          days.map((d) => d.pointId),
        ),
      );
      return work(tx);
    });
  if (!between) {
    return inTransaction(async (tx) => {
      const daily = await timed(timings, 'daily rollups', () => updateDailyRollups(tx, days, false));
      await rollUpFromDaily(tx, days, timings);
      await queueLateDataRecheck(tx, days);
      return daily.days;
    });
  }
  const daily = await inTransaction((tx) =>
    timed(timings, 'daily rollups', () => updateDailyRollups(tx, days, false)),
  );
  await between();
  await inTransaction((tx) => rollUpFromDaily(tx, days, timings, true, false, 'rest'));
  await between();
  await inTransaction(async (tx) => {
    await rollUpFromDaily(tx, days, timings, true, false, 'property-hourly');
    await queueLateDataRecheck(tx, days);
  });
  return daily.days;
}

/** One range per point (the rollup statements would count a point's hours twice for two ranges). */
function mergeDays(days: PointDays[]): PointDays[] {
  const byPoint = new Map<number, PointDays>();
  for (const d of days) {
    const seen = byPoint.get(d.pointId);
    if (!seen) byPoint.set(d.pointId, { ...d });
    else {
      if (d.dayLo < seen.dayLo) seen.dayLo = d.dayLo;
      if (d.dayHi > seen.dayHi) seen.dayHi = d.dayHi;
    }
  }
  return [...byPoint.values()];
}
