/**
 * Loads the older demo history that seedDemo left out (its `recentDays`), while the server is running:
 * newest hours first, in short transactions, with the rollups of each day once it is whole.
 */
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import {
  ingestReadings,
  type PhaseTimings,
  type PointDays,
  type ReadingRow,
  updateRollups,
} from '../ingest/ingest.ts';
import { HOUR_MS } from './model.ts';
import type { DemoProgress } from './progress.ts';
import { freshState, type StreamState, simulate } from './simulate.ts';
import { getMeta, loadPlan, META_FIRST_HOUR, setMeta } from './stored.ts';

/**
 * Hours of older history per backfill transaction. PGlite is one session, so a request waits behind the
 * transaction in flight: a whole day per transaction kept requests waiting 0.7–1.9 s on a busy machine, three
 * hours up to about 0.3 s.
 */
const BACKFILL_HOURS = 1;
/** Backfill steps per remembered simulation state (a day's worth). */
const CHUNK_STEPS = 24;

/** The Europe/Copenhagen day (YYYY-MM-DD) of an instant, and whether the instant is that day's midnight. */
function copenhagenDay(ms: number): { day: string; midnight: boolean } {
  const local = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO('Europe/Copenhagen');
  return { day: local.toPlainDate().toString(), midnight: local.hour === 0 && local.minute === 0 };
}

/** Days of points still to roll up, widened per point as hours arrive. */
class PendingDays {
  private readonly byPoint = new Map<number, PointDays>();
  add(days: PointDays[] | undefined): void {
    for (const d of days ?? []) {
      const known = this.byPoint.get(d.pointId);
      if (!known) this.byPoint.set(d.pointId, { ...d });
      else {
        if (d.dayLo < known.dayLo) known.dayLo = d.dayLo;
        if (d.dayHi > known.dayHi) known.dayHi = d.dayHi;
      }
    }
  }
  /**
   * Rolls the pending days up and forgets them: in three transactions (updateRollups), `between` awaited after
   * each of the first two.
   */
  async flush(db: Db, timings?: PhaseTimings, between?: () => Promise<void>): Promise<void> {
    const days = [...this.byPoint.values()];
    this.byPoint.clear();
    await updateRollups(db, days, timings, between);
  }
}

/**
 * Loads the older history that seedDemo left out (`recentDays`), newest hours first, BACKFILL_HOURS per
 * transaction, so a running server stays responsive. Resumable; does nothing when complete.
 *
 * The hours go in without their rollups; a day's daily, monthly and property rollups are brought up to date
 * once its first hour (its midnight) is in, in three transactions of their own (the daily ones; the monthly and
 * the property's daily ones; the property's hourly ones), so no transaction keeps a request waiting long. Until
 * then the day has its hours but not all its rollups. A stop (or a crash) between them leaves the oldest loaded
 * day's rollups behind, so a run starts by rolling that day up again.
 */
export async function backfillDemo(
  db: Db,
  opts: { onProgress?: (p: DemoProgress) => void; shouldStop?: () => boolean; timings?: PhaseTimings } = {},
): Promise<{ hours: number; readings: number }> {
  const loaded = await loadPlan(db);
  const firstText = await getMeta(db, META_FIRST_HOUR);
  if (!loaded || !firstText) return { hours: 0, readings: 0 };
  const { plan } = loaded;
  const firstMs = Date.parse(firstText);
  if (firstMs <= plan.startMs) return { hours: 0, readings: 0 };
  // One forward pass (no I/O) gives the register state at the start of every CHUNK_STEPS-th step; each chunk
  // is simulated again, step by step, when it loads. (A state per step kept millions of small objects alive.)
  const stepMs = BACKFILL_HOURS * HOUR_MS;
  const chunks: { ms: number; state: StreamState[] }[] = [];
  const state = freshState(plan);
  let at = plan.startMs;
  // Two years of simulation take about a second of this thread, which also serves requests: it gives the
  // thread back every few milliseconds.
  let slice = performance.now();
  for (
    let stepStart = firstMs - Math.ceil((firstMs - plan.startMs) / stepMs) * stepMs;
    stepStart < firstMs;
    stepStart += CHUNK_STEPS * stepMs
  ) {
    const from = Math.max(stepStart, plan.startMs);
    if (from > at) simulate(plan, state, at, from - HOUR_MS);
    at = from;
    chunks.push({ ms: from, state: state.map((s) => ({ ...s })) });
    if (performance.now() - slice > 5) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  const total = (firstMs - plan.startMs) / HOUR_MS;
  let readings = 0;
  let done = 0;
  opts.onProgress?.({ phase: 'older history', done, total });
  // Then the database is left to requests for as long again as a step took: they would otherwise queue
  // behind one transaction after another (PGlite has one session), statement by statement.
  const yieldAfter = (started: number) =>
    new Promise((resolve) => setTimeout(resolve, performance.now() - started));
  const pending = new PendingDays();
  /** Rolls the pending days up; after each of its transactions the database is left to requests as long. */
  const flush = async () => {
    let began = performance.now();
    await pending.flush(db, opts.timings, async () => {
      await yieldAfter(began);
      began = performance.now();
    });
    await yieldAfter(began);
  };
  // The oldest loaded day may lack its rollups: a stop or crash after a step's hours and before its
  // marker moved (a day is rolled up before the marker moves past its midnight, so no older day can).
  const oldest = copenhagenDay(firstMs).day;
  const points = await queryRows<{ id: number }>(db, sql`SELECT id FROM measurement_points`);
  pending.add(points.map((p) => ({ pointId: p.id, dayLo: oldest, dayHi: oldest })));
  await flush();
  let upTo = firstMs;
  for (const chunk of chunks.reverse()) {
    // The chunk's steps, oldest first, each with its readings; then loaded newest first.
    const steps: { ms: number; rows: ReadingRow[] }[] = [];
    for (let ms = chunk.ms; ms < upTo; ms += stepMs) {
      const rows: ReadingRow[] = [];
      simulate(plan, chunk.state, ms, Math.min(ms + stepMs, upTo) - HOUR_MS, rows);
      steps.push({ ms, rows });
    }
    for (const step of steps.reverse()) {
      if (opts.shouldStop?.()) break;
      const started = performance.now();
      // The demo's own simulated readings: no misread check, as the seed's bulk load of the recent days has
      // none (it took about a quarter of a step, which a request may wait behind: docs/notes/session-10.md).
      const result = await ingestReadings(db, step.rows, {
        bulk: true,
        deferRollups: true,
        trusted: true,
        timings: opts.timings,
      });
      pending.add(result.pendingDays);
      await yieldAfter(started);
      // The day that starts here is whole now (the last step may end mid-day): roll it up before the marker
      // moves past it.
      if (copenhagenDay(step.ms).midnight || step.ms <= plan.startMs) await flush();
      await setMeta(db, META_FIRST_HOUR, new Date(step.ms).toISOString());
      readings += step.rows.length;
      done += (upTo - step.ms) / HOUR_MS;
      upTo = step.ms;
      opts.onProgress?.({ phase: 'older history', done, total });
    }
    if (upTo > chunk.ms) break; // stopped
  }
  // Stopped mid-day: that day's hours so far (a later run rolls it up again when it is whole).
  await pending.flush(db, opts.timings);
  return { hours: done, readings };
}
