/**
 * The one ingestion path for meter readings (CSV import, demo generator, later the worker).
 * A batch is validated as a whole, then written in one transaction:
 *   1. register readings (idempotent: identical rows are skipped);
 *   2. hourly consumption of the affected measurement points and hours;
 *   3. daily and monthly rollups per point, and the property's daily rollup per m².
 * The heavy lifting is set-based SQL, so the same code is fast on PGlite and on PostgreSQL.
 *
 * The parts: validate.ts (rows on their own and against the batch), readings.ts (against stored readings,
 * insert), jumps.ts (implausible intervals), hourly.ts (hourly derivation), rollups.ts (daily, monthly,
 * property), derive.ts (the lock and the derivation's order), bulk.ts (the first load into empty tables).
 */
import type { RefusalCode, RefusalParams } from '../../lib/refusalCodes.ts';
import type { Db } from '../db/client.ts';
import { ingestRows } from '../metrics.ts';
import { beginBatch, derive, refreshLastReading, skipRowChecks } from './derive.ts';
import type { KnownChain } from './hourly.ts';
import { quarantineSuspects } from './misread.ts';
import { checkAgainstStored, insertReadings, type StoredCheck } from './readings.ts';
import { retentionProblems } from './retention.ts';
import {
  HOUR_MS,
  IngestError,
  type IngestOptions,
  type IngestProblem,
  type IngestResult,
  type MeterInfo,
  type PointDays,
  type ReadingRow,
  timed,
  type ValidRow,
} from './types.ts';
import { loadMeters, validateRows } from './validate.ts';

export { bulkLoadIntoEmpty } from './bulk.ts';
export { updateRollups } from './derive.ts';
export {
  IngestError,
  type PhaseTimings,
  type PointDays,
  type ReadingRow,
  timed,
} from './types.ts';

/**
 * A pause between two ingestion transactions (the parts of a batch, a lane's merges: groupCommit.ts): the
 * statements other requests queued meanwhile, and the ones they send next, get the database first. On PGlite,
 * one session for all, a request's statements would otherwise each wait behind a whole transaction.
 */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, YIELD_MS));
}

const YIELD_MS = 5;

/** What happened to one row of a batch. */
type RowStatus = 'accepted' | 'duplicate' | 'refused' | 'quarantined';

interface RowReceipt {
  /** The row's line (CSV: the file's line, the header is 1; JSON: the array index + 1). */
  line: number;
  status: RowStatus;
  /** Why a row was refused, in English. */
  reason?: string;
  /** A refused row's stable code (src/lib/refusalCodes.ts) and the values its message needs. */
  code?: RefusalCode;
  params?: RefusalParams;
  /** The data issue of a quarantined row. */
  issueId?: number;
}

/** A batch's receipt: one entry per row, in line order, and the totals. */
export interface IngestReceipt extends IngestResult {
  accepted: number;
  duplicate: number;
  refused: number;
  quarantined: number;
  results: RowReceipt[];
}

export interface IngestBatchOptions extends IngestOptions {
  /** All or nothing: any refused row rejects the batch (IngestError) and nothing is written. */
  atomic?: boolean;
  /** Where the rows came from, recorded on data issues: `csv`, `http:key:<id>`, `mqtt`. */
  source?: string;
  /** An API key's scope: meters outside these properties are unknown to the batch. */
  propertyIds?: number[];
  /** An operator's decision (issues.ts): the rows are stored without the misread check. */
  trusted?: boolean;
  /** How a line is named in a reason's text (a merged batch names its rows' own lines: groupCommit.ts). */
  shownLine?: (line: number) => number;
  /**
   * Not atomic: commit the rows in transactions of about this many rows each, oldest first (chunksByTime), so
   * that other work waits behind one part, not the whole batch. Default: one transaction.
   */
  chunkRows?: number;
  /**
   * Called after each part of a batch committed in parts but the last, with that part's time in ms; the next
   * part starts once it resolves (the HTTP door's lanes give way to people there: groupCommit.ts).
   */
  betweenParts?: (ms: number) => Promise<void>;
}

/**
 * The one entry point of every door (CSV, HTTP, MQTT): validates the rows, stores the good ones, quarantines
 * suspect ones (misread.ts), and brings hourly consumption and rollups up to date, in one transaction.
 * Returns a receipt per row. Not atomic: good rows are taken even when others are refused. Atomic: any refused
 * row throws IngestError and nothing is written (quarantined rows are no refusal).
 */
export async function ingestBatch(
  db: Db,
  rows: ReadingRow[],
  options: IngestBatchOptions = {},
): Promise<IngestReceipt> {
  return ingestPrepared(db, await prepareBatch(db, rows, options), options);
}

/**
 * A batch checked against its meters (validate.ts) and not yet against stored readings: ingestBatch's first step,
 * outside its transaction. The HTTP door's lanes run it as each batch arrives, while the lane's transaction in
 * flight holds the database (groupCommit.ts), and merge the results.
 */
export interface PreparedBatch {
  /** How many rows the batch had. */
  rowCount: number;
  /** Its meters by number (those the scope knows). */
  meters: Map<string, MeterInfo>;
  /** The rows that passed, in line order. */
  valid: ValidRow[];
  /** The rows refused already (an unknown meter, a bad timestamp or value…). */
  problems: IngestProblem[];
  /** The lines that repeat an earlier row of the batch (duplicates). */
  repeats: number[];
}

export async function prepareBatch(
  db: Db,
  rows: ReadingRow[],
  options: Pick<IngestBatchOptions, 'propertyIds' | 'now' | 'shownLine'> = {},
): Promise<PreparedBatch> {
  const problems: IngestProblem[] = [];
  const numbers = [
    ...new Set(rows.filter((r) => !r.meterNumber.includes('\0')).map((r) => r.meterNumber.trim())),
  ];
  const meters =
    numbers.length > 0 ? await loadMeters(db, numbers, options.propertyIds) : new Map<string, MeterInfo>();
  const repeats: number[] = [];
  const valid = validateRows(
    rows,
    meters,
    problems,
    (options.now ?? new Date()).getTime(),
    repeats,
    options.shownLine,
  );
  return { rowCount: rows.length, meters, valid, problems, repeats };
}

/** ingestBatch after its first step (prepareBatch). */
export async function ingestPrepared(
  db: Db,
  prepared: PreparedBatch,
  options: IngestBatchOptions = {},
): Promise<IngestReceipt> {
  const { meters, valid, repeats } = prepared;
  const problems = [...prepared.problems];
  const refuse = () => {
    problems.sort((a, b) => a.line - b.line);
    throw new IngestError(problems);
  };
  // Atomic: the refusal waits for the check against stored readings, so it names every bad row at once.
  const metersById = new Map([...meters.values()].map((m) => [m.id, m]));

  const inOneGo = options.atomic === true || options.bulk === true || options.deferRollups === true;
  const parts = inOneGo ? [valid] : chunksByTime(valid, options.chunkRows ?? Number.POSITIVE_INFINITY);
  const done: Part[] = [];
  try {
    for (const [i, part] of parts.entries()) {
      if (i > 0) await yieldTurn();
      const began = performance.now();
      done.push(
        await db.transaction(async (txn) => {
          const tx = txn as unknown as Db;
          return transact(tx, part);
        }),
      );
      if (i < parts.length - 1) await options.betweenParts?.(performance.now() - began);
    }
  } catch (err) {
    if (err instanceof IngestError) ingestRows().inc({ result: 'refused' }, prepared.rowCount);
    throw err;
  }
  const receipt = receiptOf(done);
  for (const status of ['accepted', 'duplicate', 'refused', 'quarantined'] as const) {
    if (receipt[status] > 0) ingestRows().inc({ result: status }, receipt[status]);
  }
  return receipt;

  /** The receipt of the whole batch from its parts (one part unless it was committed in chunks). */
  function receiptOf(parts: Part[]): IngestReceipt {
    const results: RowReceipt[] = [
      ...problems.map(refusedRow),
      ...repeats.map((line) => ({ line, status: 'duplicate' as const })),
      ...parts.flatMap((p) => p.results),
    ];
    results.sort((a, b) => a.line - b.line);
    const tally = (status: RowStatus) => results.filter((r) => r.status === status).length;
    const sum = (f: (p: Part) => number) => parts.reduce((n, p) => n + f(p), 0);
    return {
      rows: prepared.rowCount,
      newReadings: sum((p) => p.newReadings),
      hoursUpdated: sum((p) => p.hoursUpdated),
      daysUpdated: sum((p) => p.daysUpdated),
      ...(parts.length === 1 && parts[0]!.pendingDays ? { pendingDays: parts[0]!.pendingDays } : {}),
      accepted: tally('accepted'),
      duplicate: tally('duplicate'),
      refused: tally('refused'),
      quarantined: tally('quarantined'),
      results,
    };
  }

  /** One transaction: checks `part` against stored readings, inserts it, quarantines, derives. */
  async function transact(tx: Db, part: ValidRow[]): Promise<Part> {
    const timings = options.timings;
    const pointIds = [...new Set(part.map((r) => metersById.get(r.meterId)!.pointId))];
    await timed(timings, 'begin', () => beginBatch(tx, options.bulk === true, pointIds));
    const checked = await timed(timings, 'check against stored', () => checkAgainstStored(tx, part));
    // Readings older than the retention's cutoff (retention.ts), among those not settled otherwise.
    const settledLines = new Set([
      ...checked.problems.map((p) => p.line),
      ...checked.duplicates,
      ...checked.quarantined.map((q) => q.line),
    ]);
    const tooOld = await retentionProblems(
      tx,
      part.filter((r) => !settledLines.has(r.line)),
    );
    const refusals = [...checked.problems, ...tooOld];
    if (options.atomic && problems.length + refusals.length > 0) {
      problems.push(...refusals);
      refuse();
    }
    const refusedLines = new Set(refusals.map((p) => p.line));
    const appends = refusedLines.size
      ? checked.appends.filter((r) => !refusedLines.has(r.line))
      : checked.appends;
    const others = refusedLines.size
      ? checked.others.filter((r) => !refusedLines.has(r.line))
      : checked.others;
    const fresh = [...appends, ...others];
    // Without the per-row checks and triggers (skipRowChecks) from the insert to the end of the derivation; the
    // trigger that keeps meters.last_reading_at is skipped too, so refreshLastReading does its work from the
    // spans. Back on for a quarantine's writes (its deletes need that trigger), and off again after them.
    const bulk = options.bulk === true;
    let checksOff = bulk;
    let refreshed = false;
    const checks = async (off: boolean) => {
      if (bulk || checksOff === off) return;
      await skipRowChecks(tx, off);
      checksOff = off;
    };
    const { inserted, spans } = await timed(timings, 'insert readings', async () => {
      await checks(true);
      return insertReadings(tx, appends, others);
    });
    const quarantine =
      spans.length && !options.trusted
        ? await timed(timings, 'misread check', () =>
            quarantineSuspects(
              tx,
              spans,
              fresh,
              metersById,
              options.source ?? 'csv',
              appendOnlyMeters(appends, others, checked.last),
              async () => {
                // Raised before the suspects leave: their deletion's trigger then lowers it again.
                await checks(false);
                await refreshLastReading(tx, spans);
                refreshed = true;
              },
            ),
          )
        : { issues: [], clearedDays: [] };
    if (spans.length > 0) await checks(true);
    const derived =
      spans.length > 0
        ? await derive(
            tx,
            spans,
            false,
            timings,
            undefined,
            options.deferRollups === true,
            quarantine.clearedDays,
            {
              chains: knownChains(appends, others, checked, quarantine.issues, metersById),
              samples: spans.some((s) => metersById.get(s.meterId)?.readingKind !== 'register'),
              outdoor: spans.some((s) => metersById.get(s.meterId)?.quantity === 'outdoor-temperature'),
            },
          )
        : { hoursUpdated: 0, daysUpdated: 0 };
    // Checks and triggers back on first: the meters' update must reach the portfolio summaries' trigger
    // (migration 0017). A bulk batch ran without them from its start (beginBatch).
    if (bulk) {
      if (spans.length > 0) await skipRowChecks(tx, false);
    } else await checks(false);
    if (!refreshed) await refreshLastReading(tx, spans);
    const results: RowReceipt[] = [
      ...refusals.map(refusedRow),
      ...checked.duplicates.map((line) => ({ line, status: 'duplicate' as const })),
      ...[...checked.quarantined, ...quarantine.issues].map((q) => ({
        line: q.line,
        status: 'quarantined' as const,
        issueId: q.issueId,
      })),
    ];
    const settled = new Set(results.map((r) => r.line));
    for (const r of fresh) if (!settled.has(r.line)) results.push({ line: r.line, status: 'accepted' });
    return { results, newReadings: inserted - quarantine.issues.length, ...derived };
  }
}

/** A refused row's receipt entry. */
function refusedRow(p: IngestProblem): RowReceipt {
  return { line: p.line, status: 'refused', reason: p.reason, code: p.code, params: p.params };
}

/** The meters all of whose new rows are appends, with their newest stored reading (quarantineSuspects). */
function appendOnlyMeters(
  appends: ValidRow[],
  others: ValidRow[],
  last: Map<number, { ms: number; text: string }>,
): Map<number, { ms: number; text: string } | undefined> {
  const mixed = new Set(others.map((r) => r.meterId));
  const out = new Map<number, { ms: number; text: string } | undefined>();
  for (const r of appends) if (!mixed.has(r.meterId)) out.set(r.meterId, last.get(r.meterId));
  return out;
}

/**
 * The register meters whose readings around the new ones the batch holds (registerHourlyKnownSql): all their new
 * rows are appends, no other meter of their point has a reading after their newest stored one or a row in the
 * batch (StoredCheck.plain, and below), they have no suspect reading in the queue and none quarantined now, and
 * their newest stored reading (if any) is on a whole hour, so no interval before it shares its hour.
 */
function knownChains(
  appends: ValidRow[],
  others: ValidRow[],
  checked: StoredCheck,
  quarantined: { line: number }[],
  metersById: Map<number, MeterInfo>,
): KnownChain[] {
  const mixed = new Set(others.map((r) => r.meterId));
  const lines = new Set(quarantined.map((q) => q.line));
  for (const r of appends) if (lines.has(r.line)) mixed.add(r.meterId);
  // A point with rows of two of its meters in the batch (a swap's old and new meter) sums both in its hours.
  const meterOfPoint = new Map<number, number>();
  for (const r of [...appends, ...others]) {
    const point = metersById.get(r.meterId)!.pointId;
    const seen = meterOfPoint.get(point);
    if (seen === undefined) meterOfPoint.set(point, r.meterId);
    else if (seen !== r.meterId) {
      mixed.add(seen);
      mixed.add(r.meterId);
    }
  }
  const chains = new Map<number, KnownChain>();
  for (const r of appends) {
    const meter = metersById.get(r.meterId)!;
    if (mixed.has(r.meterId) || !checked.plain.has(r.meterId) || meter.readingKind !== 'register') continue;
    let chain = chains.get(r.meterId);
    if (!chain) {
      const last = checked.last.get(r.meterId);
      if (last && last.ms % HOUR_MS !== 0) {
        mixed.add(r.meterId);
        continue;
      }
      chain = {
        meterId: r.meterId,
        pointId: meter.pointId,
        digits: meter.rolloverDigits,
        readings: last ? [{ ms: last.ms, value: last.text }] : [],
      };
      chains.set(r.meterId, chain);
    }
    chain.readings.push({ ms: r.ms, value: r.value });
  }
  for (const c of chains.values()) c.readings.sort((a, b) => a.ms - b.ms);
  return [...chains.values()];
}

/** What one transaction of a batch did. */
interface Part {
  results: RowReceipt[];
  newReadings: number;
  hoursUpdated: number;
  daysUpdated: number;
  pendingDays?: PointDays[];
}

/**
 * A batch's rows in parts of about `size` rows for transactions of their own, in time order (all rows of one
 * timestamp in one part), so each meter's readings are committed oldest first, as by batches sent one after
 * another. A request waits behind one part's transaction at most, not behind the whole batch (docs/ingest.md,
 * "Concurrent batches").
 */
function chunksByTime(rows: ValidRow[], size: number): ValidRow[][] {
  if (rows.length <= size) return [rows];
  const sorted = [...rows].sort((a, b) => a.ms - b.ms || a.meterId - b.meterId);
  const parts: ValidRow[][] = [];
  let part: ValidRow[] = [];
  for (let i = 0; i < sorted.length; i++) {
    part.push(sorted[i]!);
    if (part.length >= size && sorted[i + 1]?.ms !== sorted[i]!.ms) {
      parts.push(part);
      part = [];
    }
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/**
 * Validates and stores a batch of readings, then brings hourly consumption and rollups up to date,
 * all in one transaction. Throws IngestError (and writes nothing) if any row is refused; suspect readings
 * are quarantined (the receipt says which).
 */
export async function ingestReadings(
  db: Db,
  rows: ReadingRow[],
  options: IngestBatchOptions = {},
): Promise<IngestReceipt> {
  return ingestBatch(db, rows, { ...options, atomic: true });
}
