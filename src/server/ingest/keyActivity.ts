/**
 * What each API key sent, per Copenhagen day (`api_key_days`, migration 0024): the console's API keys page shows
 * the last days' batches and rows by outcome, and the newest refusal, so an operator sees which gateway sends rows
 * that are refused or held back without asking the integrator for their receipts.
 */
import { sql } from 'drizzle-orm';
import { isRefusalCode, type RefusalCode, type RefusalParams } from '../../lib/refusalCodes.ts';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { NOT_WRITTEN } from './types.ts';

/** How many days of a key's activity the console and `api-key list` show. */
export const KEY_ACTIVITY_DAYS = 7;

/** The parts of a receipt (receiptBody) counted here. */
interface CountedReceipt {
  totals: { rows: number; accepted: number; duplicate: number; refused: number; quarantined: number };
  results: { line: number; status: string; reason?: string; code?: string; params?: unknown }[];
}

/** One key's day. */
export interface KeyDay {
  apiKeyId: number;
  /** YYYY-MM-DD, Copenhagen. */
  day: string;
  batches: number;
  rows: number;
  accepted: number;
  duplicate: number;
  refused: number;
  quarantined: number;
  /** "line N: reason" of the newest refused row that day, in English (as the receipt and the CLI say it). */
  lastRefusal: string | null;
  lastRefusalAt: string | null;
  /** That row's line, refusal code and params (null on rows stored before migration 0025). */
  lastRefusalLine: number | null;
  lastRefusalCode: RefusalCode | null;
  lastRefusalParams: RefusalParams | null;
}

/** The refusal a day keeps: the English text, and the line, code and params. */
interface Refusal {
  text: string;
  line: number;
  code: RefusalCode | null;
  params: unknown;
}

/**
 * The refusal to show for a receipt: its first refused row in line order, skipping the good rows an atomic batch
 * kept out because of another one (their reason says so, and the refusal that caused it is the one to read).
 */
function firstRefusal(receipt: CountedReceipt): Refusal | null {
  let first: CountedReceipt['results'][number] | null = null;
  for (const r of receipt.results) {
    if (r.status !== 'refused' || !r.reason) continue;
    if (r.code === 'not_written_atomic' || r.reason === NOT_WRITTEN) continue;
    if (!first || r.line < first.line) first = r;
  }
  if (!first) return null;
  return {
    text: `line ${first.line}: ${first.reason}`,
    line: first.line,
    code: isRefusalCode(first.code) ? first.code : null,
    params: first.params ?? null,
  };
}

/** Counts one answered batch of the key on today's row (Copenhagen). */
export async function recordKeyActivity(db: Db, keyId: number, receipt: CountedReceipt): Promise<void> {
  const t = receipt.totals;
  const refusal = firstRefusal(receipt);
  const text = refusal?.text ?? null;
  const params = refusal?.code ? JSON.stringify(refusal.params ?? {}) : null;
  // A new refusal replaces the day's text, line, code and params together; a batch without one keeps them.
  const kept = (column: string) =>
    sql.raw(`CASE WHEN excluded.last_refusal IS NULL THEN d.${column} ELSE excluded.${column} END`);
  await db.execute(sql`INSERT INTO api_key_days AS d
      (api_key_id, day, batches, rows, accepted, duplicate, refused, quarantined, last_refusal, last_refusal_at,
       last_refusal_line, last_refusal_code, last_refusal_params)
    VALUES (${keyId}, (now() AT TIME ZONE 'Europe/Copenhagen')::date, 1, ${t.rows}, ${t.accepted}, ${t.duplicate},
            ${t.refused}, ${t.quarantined}, ${text}::text, CASE WHEN ${text}::text IS NULL THEN NULL ELSE now() END,
            ${refusal?.line ?? null}::int, ${refusal?.code ?? null}::text, ${params}::jsonb)
    ON CONFLICT (api_key_id, day) DO UPDATE SET
      batches = d.batches + 1, rows = d.rows + excluded.rows, accepted = d.accepted + excluded.accepted,
      duplicate = d.duplicate + excluded.duplicate, refused = d.refused + excluded.refused,
      quarantined = d.quarantined + excluded.quarantined,
      last_refusal = ${kept('last_refusal')}, last_refusal_at = ${kept('last_refusal_at')},
      last_refusal_line = ${kept('last_refusal_line')}, last_refusal_code = ${kept('last_refusal_code')},
      last_refusal_params = ${kept('last_refusal_params')}`);
}

/** The keys' days from `days` - 1 days before today (Copenhagen) to today, newest first. */
export async function keyDays(db: Db, keyIds: number[], days: number): Promise<KeyDay[]> {
  if (keyIds.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT api_key_id, day::text AS day, batches, rows, accepted, duplicate, refused, quarantined,
          last_refusal, last_refusal_at, last_refusal_line, last_refusal_code, last_refusal_params
        FROM api_key_days
        WHERE api_key_id = ANY(${pgNumberArray(keyIds)}::int[])
          AND day > (now() AT TIME ZONE 'Europe/Copenhagen')::date - ${days}::int
        ORDER BY api_key_id, day DESC`,
  );
  return rows.map((r) => ({
    apiKeyId: Number(r.api_key_id),
    day: String(r.day),
    batches: Number(r.batches),
    rows: Number(r.rows),
    accepted: Number(r.accepted),
    duplicate: Number(r.duplicate),
    refused: Number(r.refused),
    quarantined: Number(r.quarantined),
    lastRefusal: (r.last_refusal as string | null) ?? null,
    lastRefusalAt: r.last_refusal_at == null ? null : new Date(r.last_refusal_at as string).toISOString(),
    lastRefusalLine: r.last_refusal_line == null ? null : Number(r.last_refusal_line),
    lastRefusalCode: isRefusalCode(r.last_refusal_code) ? r.last_refusal_code : null,
    lastRefusalParams: isRefusalCode(r.last_refusal_code)
      ? ((r.last_refusal_params as RefusalParams | null) ?? null)
      : null,
  }));
}
