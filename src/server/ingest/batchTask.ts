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

/** The receipt so far of a batch ingested in parts (ingest_batches.partial). */
type PartialReceipt = Omit<IngestReceipt, 'rows' | 'pendingDays'>;

/**
 * A batch's rows in the order its parts take them: oldest first (each part then mostly appends to what the one
 * before stored), then by meter and line; rows without a valid time last. The same order on every run.
 */
function inPartOrder(rows: ReadingRow[]): ReadingRow[] {
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
    const [batch] = await queryRows<{
      api_key_id: number;
      atomic: boolean;
      status: string;
      rows: ReadingRow[];
      done_rows: number;
      partial: PartialReceipt | null;
    }>(
      tx,
      sql`SELECT api_key_id, atomic, status, rows, done_rows, partial FROM ingest_batches
          WHERE id = ${batchId} FOR UPDATE`,
    );
    if (batch?.status !== 'pending') return;
    const [scope] = await queryRows<{ ids: number[] }>(
      tx,
      sql`SELECT ARRAY(SELECT property_id FROM api_key_properties WHERE api_key_id = ${batch.api_key_id}) AS ids`,
    );
    const options = { source: `http:key:${batch.api_key_id}`, propertyIds: (scope?.ids ?? []).map(Number) };
    let outcome: IngestReceipt | IngestError;
    if (!batch.atomic && partRows !== undefined && batch.rows.length > partRows) {
      // One part in this run's transaction; the receipt and the rows' progress are committed with it.
      const ordered = inPartOrder(batch.rows);
      const done = Number(batch.done_rows);
      const part = ordered.slice(done, done + partRows);
      const began = performance.now();
      const partial = addPart(batch.partial, await ingestBatch(tx, part, options));
      if (done + part.length < ordered.length) {
        await tx.execute(sql`UPDATE ingest_batches SET done_rows = ${done + part.length},
          partial = ${JSON.stringify(partial)}::jsonb WHERE id = ${batchId}`);
        const pause = yieldPauseMs(yieldFactor ?? 0, performance.now() - began);
        return { continueAt: new Date(now.getTime() + pause) };
      }
      partial.results.sort((a, b) => a.line - b.line);
      outcome = { rows: batch.rows.length, ...partial };
    } else {
      try {
        outcome = await ingestBatch(tx, batch.rows, { atomic: batch.atomic, ...options });
      } catch (err) {
        if (!(err instanceof IngestError)) throw err;
        outcome = err;
      }
    }
    const receipt = receiptBody(batchId, batch.atomic, outcome, batch.rows);
    await tx.execute(sql`UPDATE ingest_batches SET status = 'done', receipt = ${JSON.stringify(receipt)}::jsonb,
      rows = NULL, partial = NULL, done_rows = ${batch.rows.length}, finished_at = now() WHERE id = ${batchId}`);
    await recordKeyActivity(tx, batch.api_key_id, receipt);
  },
});
