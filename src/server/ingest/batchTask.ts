/**
 * Receipts of the HTTP door, and the worker task that ingests a batch above the synchronous limit (stored in
 * ingest_batches with its rows; answered 202, its receipt at GET /api/ingest/v1/batches/{id}).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../db/sql.ts';
import { defineTask } from '../jobs/task.ts';
import { yieldPauseMs } from './groupCommit.ts';
import { type IngestReceipt, ingestBatch } from './ingest.ts';
import { recordKeyActivity } from './keyActivity.ts';
import { peopleActive } from './people.ts';
import { IngestError, type IngestProblem, NOT_WRITTEN, type ReadingRow } from './types.ts';

/** The JSON receipt of a batch (docs/ingest.md, "Receipt"). An atomic batch with refusals wrote nothing. */
export function receiptBody(
  batch: number | null,
  atomic: boolean,
  outcome: IngestReceipt | IngestError,
  rows: ReadingRow[],
) {
  if (outcome instanceof IngestError) {
    const refused = new Map(outcome.problems.map((p) => [p.line, p]));
    const entry = (p: IngestProblem | undefined, line: number) => ({
      line,
      status: 'refused' as const,
      reason: p?.reason ?? NOT_WRITTEN,
      code: p?.code ?? ('not_written_atomic' as const),
      params: p?.params ?? {},
    });
    const results = rows.map((r) => entry(refused.get(r.line), r.line));
    for (const [line, p] of refused) {
      if (!rows.some((r) => r.line === line)) results.push(entry(p, line));
    }
    return {
      batch,
      status: 'done',
      atomic,
      written: false,
      totals: { rows: rows.length, accepted: 0, duplicate: 0, refused: rows.length, quarantined: 0 },
      results,
    };
  }
  return {
    batch,
    status: 'done',
    atomic,
    written: true,
    totals: {
      rows: outcome.rows,
      accepted: outcome.accepted,
      duplicate: outcome.duplicate,
      refused: outcome.refused,
      quarantined: outcome.quarantined,
    },
    results: outcome.results.map((r) => ({
      line: r.line,
      status: r.status,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.code ? { code: r.code, params: r.params ?? {} } : {}),
      ...(r.issueId ? { issue: r.issueId } : {}),
    })),
  };
}

/** The most rows in one part while people use the app (INGEST_CHUNK_ROWS otherwise). */
const PEOPLE_PART_ROWS = 1_000;

/** The longest pause between two parts of a batch while people use the app (ms). */
const PART_MAX_YIELD_MS = 60_000;

/** The receipt so far of a batch ingested in parts (ingest_batches.partial). */
type PartialReceipt = Omit<IngestReceipt, 'rows' | 'pendingDays'>;

/**
 * A batch's rows in the order its parts take them (the door stores a 202 batch's rows so): oldest first (each part
 * then mostly appends to what the one before stored), then by meter and line; rows without a valid time last.
 */
export function inPartOrder(rows: ReadingRow[]): ReadingRow[] {
  const at = (r: ReadingRow) => {
    const ms = Date.parse(r.ts);
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return [...rows].sort(
    (a, b) => at(a) - at(b) || a.meterNumber.localeCompare(b.meterNumber) || a.line - b.line,
  );
}

function addPart(so: PartialReceipt | null, part: IngestReceipt): PartialReceipt {
  const sum = (
    k: 'newReadings' | 'hoursUpdated' | 'daysUpdated' | 'accepted' | 'duplicate' | 'refused' | 'quarantined',
  ) => (so?.[k] ?? 0) + part[k];
  return {
    newReadings: sum('newReadings'),
    hoursUpdated: sum('hoursUpdated'),
    daysUpdated: sum('daysUpdated'),
    accepted: sum('accepted'),
    duplicate: sum('duplicate'),
    refused: sum('refused'),
    quarantined: sum('quarantined'),
    results: [...(so?.results ?? []), ...part.results],
  };
}

export const ingestBatchTask = defineTask({
  name: 'ingest-batch',
  payload: z.object({
    batchId: z.number().int().positive(),
    /**
     * Not atomic and more rows than this: one part of about this many rows per run (INGEST_CHUNK_ROWS), each run
     * one transaction, its progress in the batch's row; the next part runs after a pause while people use the app
     * (`yieldFactor`, INGEST_YIELD). Unset (jobs queued before parts existed): the whole batch in one run.
     */
    partRows: z.number().int().positive().optional(),
    yieldFactor: z.number().min(0).optional(),
  }),
  key: (p) => ({ subject: `batch:${p.batchId}`, period: 'once' }),
  async run({ tx, now }, { batchId, partRows, yieldFactor }) {
    const began = performance.now();
    const [batch] = await queryRows<{
      api_key_id: number;
      atomic: boolean;
      status: string;
      row_count: number;
      done_rows: number;
      partial: PartialReceipt | null;
    }>(
      tx,
      sql`SELECT api_key_id, atomic, status, row_count, done_rows, partial FROM ingest_batches
          WHERE id = ${batchId} FOR UPDATE`,
    );
    if (batch?.status !== 'pending') return;
    const [scope] = await queryRows<{ ids: number[] }>(
      tx,
      sql`SELECT ARRAY(SELECT property_id FROM api_key_properties WHERE api_key_id = ${batch.api_key_id}) AS ids`,
    );
    const options = { source: `http:key:${batch.api_key_id}`, propertyIds: (scope?.ids ?? []).map(Number) };
    const rowCount = Number(batch.row_count);
    let outcome: IngestReceipt | IngestError;
    let rows: ReadingRow[] = [];
    if (!batch.atomic && partRows !== undefined && rowCount > partRows) {
      // One part in this run's transaction, its rows read alone (the door stored them in part order); the receipt
      // so far and the progress are committed with it.
      const done = Number(batch.done_rows);
      // Smaller parts while people use the app: each holds the database for a shorter time (on PGlite, a request
      // that arrives during one waits for all of it), with the pause after each.
      const size = yieldFactor && peopleActive() ? Math.min(partRows, PEOPLE_PART_ROWS) : partRows;
      const [slice] = await queryRows<{ part: ReadingRow[] }>(
        tx,
        sql`SELECT jsonb_path_query_array(rows, ${`$[${done} to ${done + size - 1}]`}::jsonpath) AS part
            FROM ingest_batches WHERE id = ${batchId}`,
      );
      const part = slice!.part;
      const partial = addPart(batch.partial, await ingestBatch(tx, part, options));
      if (done + part.length < rowCount) {
        await tx.execute(sql`UPDATE ingest_batches SET done_rows = ${done + part.length},
          partial = ${JSON.stringify(partial)}::jsonb WHERE id = ${batchId}`);
        // The next part after this run and a pause of INGEST_YIELD times its length while people use the app, up
        // to PART_MAX_YIELD_MS: no client waits for this answer (it asks GET /batches/{id}), so the lanes' 5 s bound
        // on a receipt's delay does not apply, and a part of 5,000 rows on PGlite (300 ms or more) needs longer.
        const ran = performance.now() - began;
        return {
          continueAt: new Date(now.getTime() + ran + yieldPauseMs(yieldFactor ?? 0, ran, PART_MAX_YIELD_MS)),
        };
      }
      partial.results.sort((a, b) => a.line - b.line);
      outcome = { rows: rowCount, ...partial };
    } else {
      const [all] = await queryRows<{ rows: ReadingRow[] }>(
        tx,
        sql`SELECT rows FROM ingest_batches WHERE id = ${batchId}`,
      );
      rows = all!.rows;
      try {
        outcome = await ingestBatch(tx, rows, { atomic: batch.atomic, ...options });
      } catch (err) {
        if (!(err instanceof IngestError)) throw err;
        outcome = err;
      }
    }
    const receipt = receiptBody(batchId, batch.atomic, outcome, rows);
    await tx.execute(sql`UPDATE ingest_batches SET status = 'done', receipt = ${JSON.stringify(receipt)}::jsonb,
      rows = NULL, partial = NULL, done_rows = ${rowCount}, finished_at = now() WHERE id = ${batchId}`);
    await recordKeyActivity(tx, batch.api_key_id, receipt);
  },
});
