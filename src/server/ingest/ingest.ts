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
import type { Db } from '../db/client.ts';
import { beginBatch, derive } from './derive.ts';
import { implausibleJumps } from './jumps.ts';
import { checkAgainstStored, insertReadings } from './readings.ts';
import { retentionProblems } from './retention.ts';
import {
  IngestError,
  type IngestOptions,
  type IngestProblem,
  type IngestResult,
  type MeterInfo,
  type ReadingRow,
  timed,
} from './types.ts';
import { loadMeters, validateRows } from './validate.ts';

export { bulkLoadIntoEmpty } from './bulk.ts';
export { updateRollups } from './derive.ts';
export {
  IngestError,
  type IngestOptions,
  type IngestProblem,
  type IngestResult,
  type PhaseTimings,
  type PointDays,
  type ReadingRow,
  timed,
} from './types.ts';

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
    problems.push(...checked.problems, ...(await retentionProblems(tx, valid)));
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
