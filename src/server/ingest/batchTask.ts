/**
 * Receipts of the HTTP door, and the worker task that ingests a batch above the synchronous limit (stored in
 * ingest_batches with its rows; answered 202, its receipt at GET /api/ingest/v1/batches/{id}).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../db/sql.ts';
import { defineTask } from '../jobs/task.ts';
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

export const ingestBatchTask = defineTask({
  name: 'ingest-batch',
  payload: z.object({ batchId: z.number().int().positive() }),
  key: (p) => ({ subject: `batch:${p.batchId}`, period: 'once' }),
  async run({ tx }, { batchId }) {
    const [batch] = await queryRows<{
      api_key_id: number;
      atomic: boolean;
      status: string;
      rows: ReadingRow[];
    }>(tx, sql`SELECT api_key_id, atomic, status, rows FROM ingest_batches WHERE id = ${batchId} FOR UPDATE`);
    if (batch?.status !== 'pending') return;
    const [scope] = await queryRows<{ ids: number[] }>(
      tx,
      sql`SELECT ARRAY(SELECT property_id FROM api_key_properties WHERE api_key_id = ${batch.api_key_id}) AS ids`,
    );
    let outcome: IngestReceipt | IngestError;
    try {
      outcome = await ingestBatch(tx, batch.rows, {
        atomic: batch.atomic,
        source: `http:key:${batch.api_key_id}`,
        propertyIds: (scope?.ids ?? []).map(Number),
      });
    } catch (err) {
      if (!(err instanceof IngestError)) throw err;
      outcome = err;
    }
    const receipt = receiptBody(batchId, batch.atomic, outcome, batch.rows);
    await tx.execute(sql`UPDATE ingest_batches SET status = 'done', receipt = ${JSON.stringify(receipt)}::jsonb,
      rows = NULL, finished_at = now() WHERE id = ${batchId}`);
    await recordKeyActivity(tx, batch.api_key_id, receipt);
  },
});
