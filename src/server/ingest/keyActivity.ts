/**
 * What each API key sent, per Copenhagen day (`api_key_days`, migration 0024): the console's API keys page shows
 * the last days' batches and rows by outcome, and the newest refusal, so an operator sees which gateway sends rows
 * that are refused or held back without asking the integrator for their receipts.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { NOT_WRITTEN } from './types.ts';

/** How many days of a key's activity the console and `api-key list` show. */
export const KEY_ACTIVITY_DAYS = 7;

/** The parts of a receipt (receiptBody) counted here. */
interface CountedReceipt {
  totals: { rows: number; accepted: number; duplicate: number; refused: number; quarantined: number };
  results: { line: number; status: string; reason?: string }[];
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
  /** "line N: reason" of the newest refused row that day. */
  lastRefusal: string | null;
  lastRefusalAt: string | null;
}

/**
 * The refusal to show for a receipt: its first refused row in line order, skipping the good rows an atomic batch
 * kept out because of another one (their reason says so, and the refusal that caused it is the one to read).
 */
function firstRefusal(receipt: CountedReceipt): string | null {
  let first: { line: number; reason: string } | null = null;
  for (const r of receipt.results) {
    if (r.status !== 'refused' || !r.reason || r.reason === NOT_WRITTEN) continue;
    if (!first || r.line < first.line) first = { line: r.line, reason: r.reason };
  }
  return first ? `line ${first.line}: ${first.reason}` : null;
}

/** Counts one answered batch of the key on today's row (Copenhagen). */
export async function recordKeyActivity(db: Db, keyId: number, receipt: CountedReceipt): Promise<void> {
  const t = receipt.totals;
  const refusal = firstRefusal(receipt);
  await db.execute(sql`INSERT INTO api_key_days AS d
      (api_key_id, day, batches, rows, accepted, duplicate, refused, quarantined, last_refusal, last_refusal_at)
    VALUES (${keyId}, (now() AT TIME ZONE 'Europe/Copenhagen')::date, 1, ${t.rows}, ${t.accepted}, ${t.duplicate},
            ${t.refused}, ${t.quarantined}, ${refusal}::text, CASE WHEN ${refusal}::text IS NULL THEN NULL ELSE now() END)
    ON CONFLICT (api_key_id, day) DO UPDATE SET
      batches = d.batches + 1, rows = d.rows + excluded.rows, accepted = d.accepted + excluded.accepted,
      duplicate = d.duplicate + excluded.duplicate, refused = d.refused + excluded.refused,
      quarantined = d.quarantined + excluded.quarantined,
      last_refusal = coalesce(excluded.last_refusal, d.last_refusal),
      last_refusal_at = coalesce(excluded.last_refusal_at, d.last_refusal_at)`);
}

/** The keys' days from `days` - 1 days before today (Copenhagen) to today, newest first. */
export async function keyDays(db: Db, keyIds: number[], days: number): Promise<KeyDay[]> {
  if (keyIds.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT api_key_id, day::text AS day, batches, rows, accepted, duplicate, refused, quarantined,
          last_refusal, last_refusal_at
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
  }));
}
