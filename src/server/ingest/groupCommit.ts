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
import { type IngestBatchOptions, type IngestReceipt, ingestBatch, yieldTurn } from './ingest.ts';
import type { ReadingRow } from './types.ts';

/** At most this many rows in one merged transaction. */
const GROUP_MAX_ROWS = 10_000;

interface Waiter {
  rows: ReadingRow[];
  meters: Set<string>;
  resolve: (receipt: IngestReceipt) => void;
  reject: (err: unknown) => void;
}

interface Lane {
  running: boolean;
  queue: Waiter[];
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
  options: Pick<IngestBatchOptions, 'source' | 'propertyIds' | 'chunkRows'>,
): Promise<IngestReceipt> {
  let ofDb = lanes.get(db);
  if (!ofDb) {
    ofDb = new Map();
    lanes.set(db, ofDb);
  }
  let state = ofDb.get(lane);
  if (!state) {
    state = { running: false, queue: [] };
    ofDb.set(lane, state);
  }
  const meters = new Set(rows.map((r) => r.meterNumber.trim()));
  const done = new Promise<IngestReceipt>((resolve, reject) => {
    state.queue.push({ rows, meters, resolve, reject });
  });
  if (!state.running) {
    state.running = true;
    void drainLane(db, lane, state, options);
  }
  return done;
}

async function drainLane(
  db: Db,
  lane: string,
  state: Lane,
  options: Pick<IngestBatchOptions, 'source' | 'propertyIds' | 'chunkRows'>,
): Promise<void> {
  try {
    while (state.queue.length > 0) {
      const group = takeGroup(state);
      await runGroup(db, group, options);
      // A pause between transactions: requests that waited for the session (on PGlite, one session for all)
      // send their next statements before this lane's next transaction takes it, and the batches answered
      // just now come back in time to be merged into it.
      await yieldTurn();
    }
  } finally {
    state.running = false;
    if (state.queue.length === 0) lanes.get(db)?.delete(lane);
    // A batch queued between the loop's last check and here (none can be: the loop and this run in one turn).
    else {
      state.running = true;
      void drainLane(db, lane, state, options);
    }
  }
}

/** The first waiter, and the later ones whose meters touch no meter of a waiter taken or passed over. */
function takeGroup(state: Lane): Waiter[] {
  const group: Waiter[] = [];
  const blocked = new Set<string>();
  let total = 0;
  const rest: Waiter[] = [];
  for (const w of state.queue) {
    const disjoint = [...w.meters].every((m) => !blocked.has(m));
    if (group.length === 0 || (disjoint && total + w.rows.length <= GROUP_MAX_ROWS)) {
      group.push(w);
      total += w.rows.length;
    } else rest.push(w);
    for (const m of w.meters) blocked.add(m);
  }
  state.queue = rest;
  return group;
}

async function runAlone(
  db: Db,
  w: Waiter,
  options: Pick<IngestBatchOptions, 'source' | 'propertyIds' | 'chunkRows'>,
): Promise<void> {
  groupCommitStats.transactions++;
  groupCommitStats.batches++;
  await ingestBatch(db, w.rows, options).then(w.resolve, w.reject);
}

async function runGroup(
  db: Db,
  group: Waiter[],
  options: Pick<IngestBatchOptions, 'source' | 'propertyIds' | 'chunkRows'>,
): Promise<void> {
  if (group.length === 1) {
    await runAlone(db, group[0]!, options);
    return;
  }
  // One numbering for the merged rows; each maps back to its batch and its own line.
  const origin: { waiter: number; line: number }[] = [];
  const merged: ReadingRow[] = [];
  group.forEach((w, waiter) => {
    for (const row of w.rows) {
      origin.push({ waiter, line: row.line });
      merged.push({ ...row, line: merged.length + 1 });
    }
  });
  let receipt: IngestReceipt;
  try {
    receipt = await ingestBatch(db, merged, {
      ...options,
      shownLine: (line) => origin[line - 1]?.line ?? line,
    });
  } catch {
    // Nothing of the merged transaction was written: each batch on its own, so each gets its own answer.
    for (const w of group) await runAlone(db, w, options);
    return;
  }
  groupCommitStats.transactions++;
  groupCommitStats.batches += group.length;
  const results = group.map(() => [] as IngestReceipt['results']);
  for (const r of receipt.results) {
    const o = origin[r.line - 1]!;
    results[o.waiter]!.push({ ...r, line: o.line });
  }
  group.forEach((w, i) => {
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
