/**
 * The data-issue queue's operations (CLI today, the operator console later): list, accept (as a correct value,
 * a reset or a meter swap), reject; and meter swaps recorded with the old meter's end reading and the new
 * meter's start reading. Each decision re-derives the hours around the reading, in one transaction.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { beginBatch, derive } from './derive.ts';
import { type IngestReceipt, ingestBatch } from './ingest.ts';
import { IngestError } from './types.ts';

/** A decision the queue cannot take, with a code for the API and console. */
export class DataIssueError extends Error {
  override name = 'DataIssueError';
  constructor(
    readonly code: 'NOT_FOUND' | 'NOT_OPEN' | 'BAD_RESOLUTION' | 'BAD_SWAP',
    message: string,
  ) {
    super(message);
  }
}

export interface DataIssue {
  id: number;
  kind: 'drop' | 'digit-shift' | 'jump' | 'stuck' | 'silent';
  status: 'open' | 'accepted' | 'rejected';
  meterId: number;
  meterNumber: string;
  propertyId: number;
  /** The flat whose point the meter measures ("Solvej 3, 2. th"); null for a property's own meter. */
  apartment: string | null;
  readingTs: string;
  readingValue: string | null;
  evidence: { reason: string; before?: { ts: string; value: string } | null; [k: string]: unknown };
  source: string;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  note: string | null;
  createdAt: string;
}

const ISSUE_COLUMNS = sql`q.id, q.kind, q.status, q.meter_id AS "meterId", m.number AS "meterNumber",
  q.property_id AS "propertyId",
  (SELECT a.address FROM measurement_points p JOIN apartments a ON a.id = p.apartment_id
    WHERE p.id = m.measurement_point_id) AS apartment,
  q.reading_ts AS "readingTs", q.reading_value::text AS "readingValue", q.evidence,
  q.source, q.resolution, q.resolved_by AS "resolvedBy", q.resolved_at AS "resolvedAt", q.note,
  q.created_at AS "createdAt"`;

function normalise(row: DataIssue): DataIssue {
  const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
  return {
    ...row,
    readingTs: iso(row.readingTs)!,
    resolvedAt: iso(row.resolvedAt),
    createdAt: iso(row.createdAt)!,
  };
}

/** The queue, newest first; by default the open issues. */
export async function listIssues(
  db: Db,
  filter: { status?: 'open' | 'accepted' | 'rejected' | 'all'; propertyIds?: number[]; limit?: number } = {},
): Promise<DataIssue[]> {
  const status = filter.status ?? 'open';
  const rows = await queryRows<DataIssue & Record<string, unknown>>(
    db,
    sql`SELECT ${ISSUE_COLUMNS} FROM data_issues q JOIN meters m ON m.id = q.meter_id
        WHERE (${status} = 'all' OR q.status = ${status})
          ${filter.propertyIds ? sql`AND q.property_id = ANY(${pgNumberArray(filter.propertyIds)}::int[])` : sql``}
        ORDER BY q.id DESC LIMIT ${filter.limit ?? 100}`,
  );
  return rows.map(normalise);
}

async function openIssue(tx: Db, id: number): Promise<DataIssue> {
  const [row] = await queryRows<DataIssue & Record<string, unknown>>(
    tx,
    sql`SELECT ${ISSUE_COLUMNS} FROM data_issues q JOIN meters m ON m.id = q.meter_id WHERE q.id = ${id}
        FOR UPDATE OF q`,
  );
  if (!row) throw new DataIssueError('NOT_FOUND', `No data issue #${id}`);
  if (row.status !== 'open')
    throw new DataIssueError('NOT_OPEN', `Data issue #${id} is ${row.status} already`);
  return normalise(row);
}

async function resolve(
  tx: Db,
  id: number,
  status: 'accepted' | 'rejected',
  resolution: string | null,
  by: string,
  note?: string,
) {
  await tx.execute(sql`UPDATE data_issues SET status = ${status}, resolution = ${resolution}, resolved_by = ${by},
    resolved_at = now(), note = ${note ?? null} WHERE id = ${id}`);
}

/** Re-derives the hours (and rollups) around one instant of a meter, e.g. after a decision. */
async function rederive(tx: Db, meterId: number, ms: number): Promise<void> {
  const [m] = await queryRows<{ point_id: number }>(
    tx,
    sql`SELECT measurement_point_id AS point_id FROM meters WHERE id = ${meterId}`,
  );
  await beginBatch(tx, false, [m!.point_id]);
  await derive(tx, [{ meterId, minMs: ms, maxMs: ms }], false);
}

/**
 * Rejects an issue: a quarantined reading stays out for good (a later copy of it is a duplicate), and the
 * hours around it are derived from its neighbours; a finding is closed.
 */
export async function rejectIssue(db: Db, id: number, by: string, note?: string): Promise<DataIssue> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const issue = await openIssue(tx, id);
    await resolve(tx, id, 'rejected', null, by, note);
    if (issue.readingValue !== null) await rederive(tx, issue.meterId, Date.parse(issue.readingTs));
    return { ...issue, status: 'rejected' };
  });
}

export type Resolution = 'correct' | 'reset' | 'swap' | 'noted';

/**
 * Accepts an issue. A quarantined reading is stored: `correct` (a rise that really happened), `reset` (the
 * register restarted: the value is the use since), or `swap` (a new meter, `newMeter`, took over at the
 * reading's time: the old one ends there, with `endValue` when known). A finding is accepted as `noted`.
 */
export async function acceptIssue(
  db: Db,
  id: number,
  how: { as: Resolution; by: string; note?: string; newMeter?: string; endValue?: string },
): Promise<DataIssue> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const issue = await openIssue(tx, id);
    const finding = issue.readingValue === null;
    if (finding !== (how.as === 'noted')) {
      throw new DataIssueError(
        'BAD_RESOLUTION',
        finding
          ? `Data issue #${id} is a ${issue.kind} finding: accept it as "noted"`
          : `Data issue #${id} is a suspect reading: accept it as "correct", "reset" or "swap"`,
      );
    }
    const before = issue.evidence.before;
    const drop = before != null && Number(issue.readingValue) < Number(before.value);
    if (how.as === 'correct' && drop) {
      throw new DataIssueError(
        'BAD_RESOLUTION',
        `Data issue #${id} is a drop, which cannot be booked as use: accept it as a reset or a swap, or reject it`,
      );
    }
    if (how.as === 'reset' && !drop) {
      throw new DataIssueError('BAD_RESOLUTION', `Data issue #${id} is a rise, not a reset`);
    }
    await resolve(tx, id, 'accepted', how.as, how.by, how.note);
    if (finding) return { ...issue, status: 'accepted', resolution: how.as };
    if (how.as === 'swap') {
      if (!how.newMeter) throw new DataIssueError('BAD_SWAP', 'A swap needs the new meter number');
      await recordSwap(tx, {
        meter: issue.meterNumber,
        at: issue.readingTs,
        endValue: how.endValue,
        newMeter: how.newMeter,
        startValue: issue.readingValue!,
        source: `issue:${id}`,
      });
    } else {
      await ingestBatch(
        tx,
        [{ line: 1, meterNumber: issue.meterNumber, ts: issue.readingTs, value: issue.readingValue! }],
        { atomic: true, trusted: true, source: `issue:${id}` },
      );
    }
    return { ...issue, status: 'accepted', resolution: how.as };
  });
}

export interface SwapInput {
  /** The old meter's number. */
  meter: string;
  /** ISO 8601: when the new meter took over. */
  at: string;
  /** The old meter's last register value, at `at` (optional: unknown when the old meter was not read). */
  endValue?: string;
  /** The new meter's number (unique). */
  newMeter: string;
  /** The new meter's register value at `at`. */
  startValue: string;
  /** The new meter's radio id, if read by radio. */
  radioId?: string;
  source?: string;
}

/**
 * Records a meter swap: the old meter is removed at `at`, a new meter on the same measurement point (with the
 * old one's profile) is installed at `at`, and the end and start readings are ingested, all or nothing.
 */
export async function recordSwap(db: Db, input: SwapInput): Promise<IngestReceipt> {
  const at = new Date(input.at);
  if (Number.isNaN(at.getTime()) || !/(Z|[+-]\d\d:?\d\d)$/.test(input.at)) {
    throw new DataIssueError('BAD_SWAP', `"${input.at}" is not an ISO 8601 time with an offset or Z`);
  }
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const [old] = await queryRows<{ id: number; installed: boolean; after: boolean }>(
      tx,
      sql`SELECT m.id, m.installed_at < ${at.toISOString()}::timestamptz
                 AND (m.removed_at IS NULL OR m.removed_at >= ${at.toISOString()}::timestamptz) AS installed,
                 EXISTS (SELECT 1 FROM register_readings r WHERE r.meter_id = m.id
                           AND r.ts > ${at.toISOString()}::timestamptz) AS after
          FROM meters m WHERE m.number = ${input.meter} FOR UPDATE`,
    );
    if (!old) throw new DataIssueError('BAD_SWAP', `Unknown meter "${input.meter}"`);
    if (!old.installed) {
      throw new DataIssueError('BAD_SWAP', `Meter ${input.meter} is not installed at ${at.toISOString()}`);
    }
    if (old.after) {
      throw new DataIssueError(
        'BAD_SWAP',
        `Meter ${input.meter} has readings after ${at.toISOString()}; a swap cannot end it before them`,
      );
    }
    const [taken] = await queryRows<{ id: number }>(
      tx,
      sql`SELECT id FROM meters WHERE number = ${input.newMeter}
            OR (${input.radioId ?? null}::text IS NOT NULL AND radio_id = ${input.radioId ?? null})`,
    );
    if (taken)
      throw new DataIssueError('BAD_SWAP', `Meter number or radio id of "${input.newMeter}" is taken`);
    await tx.execute(
      sql`UPDATE meters SET removed_at = ${at.toISOString()}::timestamptz WHERE id = ${old.id}`,
    );
    await tx.execute(sql`INSERT INTO meters (measurement_point_id, number, legacy_kind, installed_at, radio_id,
        rollover_digits, reset_on)
      SELECT measurement_point_id, ${input.newMeter}, legacy_kind, ${at.toISOString()}::timestamptz,
             ${input.radioId ?? null}, rollover_digits, reset_on
      FROM meters WHERE id = ${old.id}`);
    const rows = [
      ...(input.endValue === undefined
        ? []
        : [{ line: 1, meterNumber: input.meter, ts: at.toISOString(), value: input.endValue }]),
      { line: 2, meterNumber: input.newMeter, ts: at.toISOString(), value: input.startValue },
    ];
    try {
      return await ingestBatch(tx, rows, { atomic: true, trusted: true, source: input.source ?? 'swap' });
    } catch (err) {
      if (err instanceof IngestError) {
        throw new DataIssueError('BAD_SWAP', err.problems.map((p) => p.reason).join('; '));
      }
      throw err;
    }
  });
}
