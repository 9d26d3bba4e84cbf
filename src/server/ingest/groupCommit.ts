/**
 * Group commit for the HTTP door: batches of one API key that wait while an earlier batch of that key is being
 * ingested are ingested together, in one transaction, and each gets its own receipt. A lone batch starts at once
 * (no added latency); under load, the per-batch work (the locks, the rollups of the property, degree days, the
 * late-data check) is paid once for several batches instead of once each. docs/ingest.md, "Concurrent batches".
 *
 * Only what cannot change any row's outcome is merged:
 * - batches of the same key (so the same property scope and the same `source` on data issues);
 * - not atomic ones (an atomic batch runs alone, so another's refusal never rejects it);
 * - batches whose meters are disjoint, so every row is checked against the same stored readings and neighbours
 *   as if its batch ran alone. A batch that shares a meter with one merged or passed over earlier waits for a
 *   later round, so one meter's batches are still ingested in the order they came.
 * If a merged transaction fails as a whole, each of its batches is run again on its own.
 */
import type { Db } from '../db/client.ts';
import { getMetrics } from '../metrics.ts';
import {
  type IngestBatchOptions,
  type IngestReceipt,
  ingestPrepared,
  type PreparedBatch,
  prepareBatch,
  yieldTurn,
} from './ingest.ts';
import { peopleActive } from './people.ts';
import type { ReadingRow } from './types.ts';

/** At most this many rows in one merged transaction. */
const GROUP_MAX_ROWS = 10_000;

/**
 * After a merged transaction, how long the lane waits at most for the batches it just answered to come back
 * (their clients' next ones) before it starts on what already waits (ms). A transaction's cost is mostly per
 * transaction, not per row (the property's rollups, the days' rollups, the locks): one of 4,000 rows costs about
 * what one of 2,000 does, and 4 clients that each keep one batch in flight were merged two by two without it
 * (the two answered came back while the other two were already being written). docs/ingest.md, "Concurrent
 * batches". A batch that finds its lane idle starts at once.
 */
const LINGER_MS = 25;

interface Waiter {
  rows: ReadingRow[];
  meters: Set<string>;
  /** The batch checked against its meters, begun as it arrived (prepareBatch), while the lane is busy. */
  prepared: Promise<PreparedBatch>;
  resolve: (receipt: IngestReceipt) => void;
  reject: (err: unknown) => void;
}

type LaneOptions = Pick<IngestBatchOptions, 'source' | 'propertyIds' | 'chunkRows' | 'betweenParts'> & {
  /** How long the lane waits for the batches it answered to come back (LINGER_MS; tests make it longer). */
  lingerMs?: number;
  /**
   * How many of the lane's transactions may run at once, on batches of disjoint meters (1 by default; the HTTP
   * door passes INGEST_LANE_TRANSACTIONS on PostgreSQL, 1 on PGlite). Batches of different points of one property
   * wait for each other only for the property's rollups (beginBatch in derive.ts). On PGlite, one session, a
   * second transaction would only wait for the first.
   */
  parallel?: number;
  /**
   * INGEST_YIELD: while people use the app (people.ts), each transaction is followed by a pause of this many
   * times its own length, at most MAX_YIELD_MS. 0 or unset: none.
   */
  yieldFactor?: number;
  /** How the pause waits (setTimeout; tests record it). */
  pause?: (ms: number) => Promise<void>;
};

/**
 * The longest pause a lane takes after one transaction while people use the app (ms): a bound on how much later a
 * gateway's next batch is answered. 30 × a PGlite transaction of about 5,000 rows (100–170 ms) stays under it.
 */
const MAX_YIELD_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Lane {
  /** Transactions running, or pausing after they ran (gather): the next ones wait for them. */
  active: number;
  /** The meters of the batches in those transactions: a batch of one of them waits until they have ended. */
  busy: Set<string>;
  queue: Waiter[];
  /** Called when a batch joins the queue (a finished transaction may be waiting for it: gather). */
  wakers: Set<() => void>;
}

const lanes = new WeakMap<Db, Map<string, Lane>>();

/** Figures of the merges, for the bench and tests: transactions run, and batches they carried. */
export const groupCommitStats = { transactions: 0, batches: 0 };

/**
 * Ingests a batch that is not atomic, together with other batches of the same `lane` (an API key) that wait
 * at the same time; resolves with this batch's own receipt (its lines, statuses and totals).
 */
export function ingestGrouped(
  db: Db,
  lane: string,
  rows: ReadingRow[],
  options: LaneOptions,
): Promise<IngestReceipt> {
  let ofDb = lanes.get(db);
  if (!ofDb) {
    ofDb = new Map();
    lanes.set(db, ofDb);
  }
  let state = ofDb.get(lane);
  if (!state) {
    state = { active: 0, busy: new Set(), queue: [], wakers: new Set() };
    ofDb.set(lane, state);
  }
  const meters = new Set(rows.map((r) => r.meterNumber.trim()));
  const prepared = prepareBatch(db, rows, { propertyIds: options.propertyIds });
  // Awaited when the batch's turn comes; a failure is that batch's answer then.
  prepared.catch(() => {});
  const done = new Promise<IngestReceipt>((resolve, reject) => {
    state.queue.push({ rows, meters, prepared, resolve, reject });
  });
  for (const wake of state.wakers) wake();
  startGroups(db, lane, state, options);
  return done;
}

/** Starts transactions on what waits, while fewer than `parallel` run; forgets the lane once it is idle. */
function startGroups(db: Db, lane: string, state: Lane, options: LaneOptions): void {
  while (state.active < (options.parallel ?? 1) && state.queue.length > 0) {
    const group = takeGroup(state);
    if (group.length === 0) break;
    state.active++;
    for (const w of group) for (const m of w.meters) state.busy.add(m);
    void runThenGather(db, lane, state, group, options);
  }
  if (state.active === 0 && state.queue.length === 0) lanes.get(db)?.delete(lane);
}

async function runThenGather(
  db: Db,
  lane: string,
  state: Lane,
  group: Waiter[],
  options: LaneOptions,
): Promise<void> {
  let began = performance.now();
  try {
    // Between the parts of a batch committed in parts as well, so no run of transactions outlasts one part.
    await runGroup(db, group, {
      ...options,
      betweenParts: async (ms) => {
        await giveWayToPeople(ms, options);
        began = performance.now();
      },
    });
  } catch (err) {
    // Not expected (runGroup answers each batch itself); a batch not answered yet gets the error.
    for (const w of group) w.reject(err);
  } finally {
    for (const w of group) for (const m of w.meters) state.busy.delete(m);
    // After the last part, once the batches are answered: they wait at their clients, the ones that come
    // meanwhile join the next merge.
    await giveWayToPeople(performance.now() - began, options);
    // A pause before the next transaction: requests that waited for the session (on PGlite, one session for
    // all) send their next statements before this lane's next transaction takes it, and the batches answered
    // just now come back in time to be merged into it.
    await gather(state, group.length, options.lingerMs ?? LINGER_MS);
    state.active--;
    startGroups(db, lane, state, options);
  }
}

/**
 * Giving way to people: while they use the app (people.ts), a pause of `yieldFactor` times the transaction's `ms`
 * (at most MAX_YIELD_MS), so the cores, and on PGlite the one session, are theirs for most of the time.
 */
async function giveWayToPeople(ms: number, options: LaneOptions): Promise<void> {
  const pause = yieldPauseMs(options.yieldFactor ?? 0, ms);
  if (pause > 0) await (options.pause ?? sleep)(pause);
}

/**
 * The pause that gives way to people after a transaction of `ms` (0 while nobody uses the app, or with `factor`
 * 0), at most `maxMs`, counted in `ingest_yield_seconds_total`: the lanes here, and the worker between a large
 * batch's parts (batchTask.ts).
 */
export function yieldPauseMs(factor: number, ms: number, maxMs = MAX_YIELD_MS): number {
  if (factor <= 0 || !peopleActive()) return 0;
  const pause = Math.min(maxMs, factor * ms);
  getMetrics().ingestYield.inc(pause / 1000);
  return pause;
}

/**
 * The pause after a transaction that answered `answered` batches: at least yieldTurn's, and up to `lingerMs` while
 * fewer than `answered` more have joined those waiting (their clients sending again) and the waiting rows are
 * fewer than a merge takes. So clients that each keep a batch in flight come back into one merge, not into a
 * lone transaction for the first and a merge of the rest; a client that sends one batch at a time waits only for
 * its own next one; when none comes, the transaction's turn ends after `lingerMs`, and a batch that finds the
 * lane idle starts at once.
 */
async function gather(state: Lane, answered: number, lingerMs: number): Promise<void> {
  const waiting = state.queue.length;
  const until = performance.now() + lingerMs;
  await yieldTurn();
  const rows = () => state.queue.reduce((n, w) => n + w.rows.length, 0);
  while (state.queue.length < waiting + answered && rows() < GROUP_MAX_ROWS) {
    const left = until - performance.now();
    if (left <= 0) break;
    let wake = () => {};
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
      state.wakers.add(wake);
    });
    state.wakers.delete(wake);
  }
}

/**
 * The first waiter, and the later ones whose meters touch no meter of a waiter taken or passed over, none of a
 * running transaction's (`busy`: such a waiter and those after it that share its meters wait for a later round).
 */
function takeGroup(state: Lane): Waiter[] {
  const group: Waiter[] = [];
  const blocked = new Set<string>(state.busy);
  let total = 0;
  const rest: Waiter[] = [];
  for (const w of state.queue) {
    const disjoint = [...w.meters].every((m) => !blocked.has(m));
    if (disjoint && (group.length === 0 || total + w.rows.length <= GROUP_MAX_ROWS)) {
      group.push(w);
      total += w.rows.length;
    } else rest.push(w);
    for (const m of w.meters) blocked.add(m);
  }
  state.queue = rest;
  return group;
}

/** Each batch in its own transaction(s), one after another, with betweenParts between them as between parts. */
async function runEachAlone(db: Db, waiters: Waiter[], options: LaneOptions): Promise<void> {
  for (const [i, w] of waiters.entries()) {
    const began = performance.now();
    groupCommitStats.transactions++;
    groupCommitStats.batches++;
    await w.prepared.then((p) => ingestPrepared(db, p, options)).then(w.resolve, w.reject);
    if (i < waiters.length - 1) await options.betweenParts?.(performance.now() - began);
  }
}

async function runGroup(db: Db, waiters: Waiter[], options: LaneOptions): Promise<void> {
  // A batch whose first step failed gets that failure; the others go on.
  const settled = await Promise.allSettled(waiters.map((w) => w.prepared));
  const group: { w: Waiter; p: PreparedBatch }[] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') group.push({ w: waiters[i]!, p: s.value });
    else waiters[i]!.reject(s.reason);
  });
  // The merge maps rows by their line; every door numbers a batch's lines once each (a file's lines, an array's
  // places), and a batch that does not is run on its own.
  const oneLineEach = group.every(({ w }) => new Set(w.rows.map((r) => r.line)).size === w.rows.length);
  if (group.length <= 1 || !oneLineEach) {
    await runEachAlone(
      db,
      group.map(({ w }) => w),
      options,
    );
    return;
  }
  // One numbering for the merged rows; each maps back to its batch and its own line. The batches' refusals so
  // far already name their own lines.
  const origin: { waiter: number; line: number }[] = [];
  const merged: PreparedBatch = { rowCount: 0, meters: new Map(), valid: [], problems: [], repeats: [] };
  group.forEach(({ w, p }, waiter) => {
    const lineOf = new Map<number, number>();
    for (const row of w.rows) {
      origin.push({ waiter, line: row.line });
      lineOf.set(row.line, origin.length);
    }
    const at = (line: number) => lineOf.get(line)!;
    merged.rowCount += p.rowCount;
    for (const [number, meter] of p.meters) merged.meters.set(number, meter);
    for (const r of p.valid) merged.valid.push({ ...r, line: at(r.line) });
    for (const q of p.problems) merged.problems.push({ ...q, line: at(q.line) });
    for (const line of p.repeats) merged.repeats.push(at(line));
  });
  let receipt: IngestReceipt;
  try {
    receipt = await ingestPrepared(db, merged, {
      ...options,
      shownLine: (line) => origin[line - 1]?.line ?? line,
    });
  } catch {
    // Nothing of the merged transaction was written: each batch on its own, so each gets its own answer.
    await runEachAlone(
      db,
      group.map(({ w }) => w),
      options,
    );
    return;
  }
  groupCommitStats.transactions++;
  groupCommitStats.batches += group.length;
  const results = group.map(() => [] as IngestReceipt['results']);
  for (const r of receipt.results) {
    const o = origin[r.line - 1]!;
    results[o.waiter]!.push({ ...r, line: o.line });
  }
  group.forEach(({ w }, i) => {
    const own = results[i]!;
    const tally = (status: string) => own.filter((r) => r.status === status).length;
    w.resolve({
      rows: w.rows.length,
      newReadings: tally('accepted'),
      // The hours and days of the transaction the batch was committed in.
      hoursUpdated: receipt.hoursUpdated,
      daysUpdated: receipt.daysUpdated,
      accepted: tally('accepted'),
      duplicate: tally('duplicate'),
      refused: tally('refused'),
      quarantined: tally('quarantined'),
      results: own,
    });
  });
}
