/**
 * The MQTT door's two steps. `receive` stores a telegram in `mqtt_inbox` before the broker gets its
 * acknowledgement, so QoS 1 loses nothing across a crash. `drain` ingests stored telegrams in batches through the
 * one ingestion entry point (ingestBatch, like the CSV and HTTP doors), records the ones that gave no reading in
 * `mqtt_unmatched`, and deletes what it handled, all in one transaction: a failure leaves them for the next drain.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { TelegramDetailCode, TelegramDetailParamMap } from '../../lib/refusalCodes.ts';
import type { Db } from '../db/client.ts';
import { mqttInbox } from '../db/schema.ts';
import { pgTextArray, queryRows } from '../db/sql.ts';
import { ingestBatch } from '../ingest/ingest.ts';
import type { ReadingRow } from '../ingest/types.ts';
import { fieldsFor, parseTelegram, type Telegram, valueFor } from './telegram.ts';

/** Telegrams ingested per transaction. */
export const DRAIN_BATCH = 1000;

/** Why a telegram gave no reading. */
export type UnmatchedReason = 'unknown_id' | 'malformed' | 'no_value' | 'refused';

/** What one drain did, by telegram. */
export interface DrainResult {
  telegrams: number;
  accepted: number;
  duplicate: number;
  quarantined: number;
  unmatched: Record<UnmatchedReason, number>;
}

/**
 * Stores received telegrams in one statement (one transaction); resolves once they are committed (then they may
 * be acknowledged).
 */
export async function receiveMany(db: Db, telegrams: { topic: string; payload: string }[]): Promise<void> {
  if (telegrams.length > 0) await db.insert(mqttInbox).values(telegrams);
}

/** Stores one received telegram (receiveMany of one). */
export function receive(db: Db, topic: string, payload: string): Promise<void> {
  return receiveMany(db, [{ topic, payload }]);
}

interface Unmatched {
  radioId: string;
  reason: UnmatchedReason;
  driver: string | null;
  payload: string;
  /** Why it gave nothing, in English (`npm run cli -- mqtt unknown`). */
  detail: string;
  /** The same as a code and params, for the console's languages (none for an unknown radio id). */
  code: TelegramDetailCode | null;
  params: unknown;
}

/** A detail's code with its params, typed by the code. */
function coded<C extends 'no_value' | 'malformed'>(code: C, params: TelegramDetailParamMap[C]) {
  return { code, params };
}

/**
 * Whose meters the telegrams are matched to (owner.ts, mqttMeterScope): an organisation's id, or 'all'. A radio id
 * that only another organisation's meter has is an unknown id to this feed.
 */
export type MeterScope = number | 'all';

/** `meters m` (with its point `p`) limited to the scope's organisation, for a FROM or USING list. */
function metersInScope(scope: MeterScope): SQL {
  return scope === 'all'
    ? sql`meters m JOIN measurement_points p ON p.id = m.measurement_point_id`
    : sql`meters m JOIN measurement_points p ON p.id = m.measurement_point_id
          JOIN properties pr ON pr.id = p.property_id AND pr.account_id = ${scope}`;
}

/**
 * Radio ids listed as unknown that a meter of the scope has now (given in the console, the CLI, a swap or a new
 * property): the latest telegram each sent while unknown goes back into the inbox, to be ingested like any other,
 * and the id leaves the list. Its register's total is then a reading, and the hours back to the meter's previous reading
 * are filled in as estimated.
 */
async function requeueClaimedRadioIds(tx: Db, scope: MeterScope): Promise<void> {
  await tx.execute(sql`WITH claimed AS (
      DELETE FROM mqtt_unmatched u USING ${metersInScope(scope)}
       WHERE u.reason = 'unknown_id' AND m.radio_id = u.radio_id
      RETURNING u.radio_id, u.last_payload)
    INSERT INTO mqtt_inbox (topic, payload)
    SELECT 'requeued/' || radio_id, last_payload FROM claimed ORDER BY radio_id`);
}

/**
 * Ingests up to `limit` stored telegrams, oldest first, into the meters of `scope` (those of every organisation
 * unless given), after putting back those of radio ids a meter has been given since (requeueClaimedRadioIds);
 * returns what happened (telegrams 0: inbox empty).
 */
export async function drain(db: Db, limit = DRAIN_BATCH, scope: MeterScope = 'all'): Promise<DrainResult> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await requeueClaimedRadioIds(tx, scope);
    // SKIP LOCKED: two drainers (two processes) never take the same telegram.
    const stored = await queryRows<{ id: number; payload: string }>(
      tx,
      sql`SELECT id, payload FROM mqtt_inbox ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
    const result: DrainResult = {
      telegrams: stored.length,
      accepted: 0,
      duplicate: 0,
      quarantined: 0,
      unmatched: { unknown_id: 0, malformed: 0, no_value: 0, refused: 0 },
    };
    if (stored.length === 0) return result;

    const unmatched: Unmatched[] = [];
    const telegrams: Array<{ telegram: Telegram; payload: string }> = [];
    for (const { payload } of stored) {
      const parsed = parseTelegram(payload);
      if ('reason' in parsed) {
        unmatched.push({
          radioId: parsed.radioId ?? '-',
          reason: 'malformed',
          driver: null,
          payload,
          detail: parsed.detail,
          ...coded('malformed', { message: parsed.detail }),
        });
      } else telegrams.push({ telegram: parsed, payload });
    }
    const radioIds = [...new Set(telegrams.map((t) => t.telegram.radioId))];
    const meters = new Map(
      (radioIds.length
        ? await queryRows<{ radio_id: string; number: string; quantity: string }>(
            tx,
            sql`SELECT m.radio_id, m.number, p.quantity FROM ${metersInScope(scope)}
                  WHERE m.radio_id = ANY(${pgTextArray(radioIds)}::text[])`,
          )
        : []
      ).map((m) => [m.radio_id, m]),
    );
    const rows: ReadingRow[] = [];
    const sources: Array<{ telegram: Telegram; payload: string }> = [];
    for (const item of telegrams) {
      const { telegram, payload } = item;
      const meter = meters.get(telegram.radioId);
      if (!meter) {
        unmatched.push({
          radioId: telegram.radioId,
          reason: 'unknown_id',
          driver: telegram.driver,
          payload,
          detail:
            scope === 'all'
              ? 'no meter has this radio id'
              : `no meter of the feed's organisation (${scope}) has this radio id`,
          code: null,
          params: null,
        });
        continue;
      }
      const value = valueFor(telegram, meter.quantity);
      if (!value) {
        const fields = fieldsFor(meter.quantity);
        unmatched.push({
          radioId: telegram.radioId,
          reason: 'no_value',
          driver: telegram.driver,
          payload,
          detail: `meter ${meter.number} (${meter.quantity}) is read from ${fields.join(', ') || 'no wmbusmeters field'}`,
          ...coded('no_value', { meter: meter.number, quantity: meter.quantity, fields }),
        });
        continue;
      }
      rows.push({
        line: rows.length + 1,
        meterNumber: meter.number,
        ts: telegram.timestamp,
        value: value.value,
      });
      sources.push(item);
    }

    if (rows.length > 0) {
      // Not atomic: one bad telegram does not hold back the others; its refusal is recorded below.
      const receipt = await ingestBatch(tx, rows, { source: 'mqtt' });
      for (const row of receipt.results) {
        if (row.status === 'refused') {
          const { telegram, payload } = sources[row.line - 1]!;
          unmatched.push({
            radioId: telegram.radioId,
            reason: 'refused',
            driver: telegram.driver,
            payload,
            detail: row.reason ?? 'refused',
            code: row.code ?? null,
            params: row.code ? (row.params ?? {}) : null,
          });
        }
      }
      result.accepted = receipt.accepted;
      result.duplicate = receipt.duplicate;
      result.quarantined = receipt.quarantined;
    }
    for (const u of unmatched) result.unmatched[u.reason] += 1;
    await recordUnmatched(tx, unmatched);
    await tx.execute(
      sql`DELETE FROM mqtt_inbox WHERE id = ANY(${`{${stored.map((s) => s.id).join(',')}}`}::int[])`,
    );
    return result;
  });
}

/** Adds telegrams that gave no reading to their (radio id, reason) counts, keeping the latest example. */
async function recordUnmatched(tx: Db, unmatched: Unmatched[]): Promise<void> {
  const groups = new Map<string, { latest: Unmatched; count: number }>();
  for (const u of unmatched) {
    const key = `${u.radioId}\u0000${u.reason}`;
    const group = groups.get(key);
    groups.set(key, { latest: u, count: (group?.count ?? 0) + 1 });
  }
  for (const { latest, count } of groups.values()) {
    await tx.execute(sql`
      INSERT INTO mqtt_unmatched (radio_id, reason, telegrams, driver, last_payload, last_detail, last_code,
                                  last_params)
      VALUES (${latest.radioId}, ${latest.reason}, ${count}, ${latest.driver},
              ${latest.payload.slice(0, 2000)}, ${latest.detail}, ${latest.code}::text,
              ${latest.code ? JSON.stringify(latest.params ?? {}) : null}::jsonb)
      ON CONFLICT (radio_id, reason) DO UPDATE SET
        telegrams = mqtt_unmatched.telegrams + EXCLUDED.telegrams, last_seen = now(),
        driver = COALESCE(EXCLUDED.driver, mqtt_unmatched.driver),
        last_payload = EXCLUDED.last_payload, last_detail = EXCLUDED.last_detail,
        last_code = EXCLUDED.last_code, last_params = EXCLUDED.last_params`);
  }
}

/** The unmatched telegrams, most recent first, for the operator. */
export async function listUnmatched(db: Db) {
  return queryRows<{
    radio_id: string;
    reason: UnmatchedReason;
    telegrams: number;
    first_seen: string;
    last_seen: string;
    driver: string | null;
    last_detail: string | null;
  }>(
    db,
    sql`SELECT radio_id, reason, telegrams, first_seen::text, last_seen::text, driver, last_detail
          FROM mqtt_unmatched ORDER BY last_seen DESC, radio_id`,
  );
}
