/**
 * The shapes shared by the ingestion path: rows as they arrive, problems, results, phase timings.
 */
import type { RefusalCode, RefusalParamMap } from '../../lib/refusalCodes.ts';

/** One reading as it arrives: `line` is where it came from (a file line), for error messages. */
export interface ReadingRow {
  line: number;
  meterNumber: string;
  /** ISO 8601 with an offset or Z. */
  ts: string;
  /** Decimal: the register's running total, or an instantaneous sample (temperature, humidity). */
  value: string;
}

/**
 * A refused row: its line, the English reason (the receipt's and the CLI's text, unchanged), and the stable code
 * with the values its message needs (src/lib/refusalCodes.ts), for programs and the console's languages.
 */
export type IngestProblem = {
  [C in RefusalCode]: { line: number; reason: string; code: C; params: RefusalParamMap[C] };
}[RefusalCode];

/** A problem of one code, its params typed by the code. */
export function problem<C extends RefusalCode>(
  line: number,
  code: C,
  params: RefusalParamMap[C],
  reason: string,
): IngestProblem {
  return { line, reason, code, params } as IngestProblem;
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

export interface MeterInfo {
  id: number;
  number: string;
  pointId: number;
  propertyId: number;
  /** Profile: the register rolls over after this many integer digits (null: never). */
  rolloverDigits: number | null;
  /** Profile: the yearly billing date `MM-DD` of a scheduled reset (null: none). */
  resetOn: string | null;
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

export interface ValidRow {
  line: number;
  meterId: number;
  ms: number;
  value: string;
  /** The timestamp as it arrived, for messages. */
  ts: string;
}

/** Rows per INSERT statement; bounds the size of one query's parameters. */
export const INSERT_CHUNK = 50_000;

export interface MeterSpan {
  meterId: number;
  minMs: number;
  maxMs: number;
}

export function widen(spans: Map<number, MeterSpan>, meterId: number, minMs: number, maxMs: number): void {
  const s = spans.get(meterId);
  if (s) {
    s.minMs = Math.min(s.minMs, minMs);
    s.maxMs = Math.max(s.maxMs, maxMs);
  } else spans.set(meterId, { meterId, minMs, maxMs });
}

/** A point's range of Europe/Copenhagen days (YYYY-MM-DD, inclusive). */
export interface PointDays {
  pointId: number;
  dayLo: string;
  dayHi: string;
}

export const HOUR_MS = 3_600_000;

/** A receipt's reason for a good row of an atomic batch that another row's refusal kept out (not_written_atomic). */
export const NOT_WRITTEN = 'not written: another row of this atomic batch was refused';
