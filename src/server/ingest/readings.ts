/**
 * Readings against the stored ones (duplicates, conflicts), and their insertion.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { INSERT_CHUNK, type IngestProblem, type MeterSpan, type ValidRow, widen } from './types.ts';

/**
 * Splits rows into appends (outside the span of the meter's stored readings, so certainly new) and the rest,
 * and reports rows of the rest whose meter+timestamp is already stored with another value.
 */
export async function checkAgainstStored(
  tx: Db,
  rows: ValidRow[],
): Promise<{ problems: IngestProblem[]; appends: ValidRow[]; others: ValidRow[] }> {
  if (rows.length === 0) return { problems: [], appends: [], others: [] };
  const meterIds = [...new Set(rows.map((r) => r.meterId))];
  // Rows before a meter's first or after its last stored reading cannot conflict; only check the rest.
  const bounds = await queryRows<{ meter_id: number; first_ms: number | null; last_ms: number | null }>(
    tx,
    sql`SELECT m.id AS meter_id,
          (SELECT (extract(epoch FROM r.ts) * 1000)::float8 FROM register_readings r
            WHERE r.meter_id = m.id ORDER BY r.ts LIMIT 1) AS first_ms,
          (SELECT (extract(epoch FROM r.ts) * 1000)::float8 FROM register_readings r
            WHERE r.meter_id = m.id ORDER BY r.ts DESC LIMIT 1) AS last_ms
        FROM unnest(${pgNumberArray(meterIds)}::int[]) AS m(id)`,
  );
  const stored = new Map(bounds.map((b) => [b.meter_id, b]));
  const appends: ValidRow[] = [];
  const suspects: ValidRow[] = [];
  for (const r of rows) {
    const b = stored.get(r.meterId);
    if (
      !b ||
      b.first_ms === null ||
      b.last_ms === null ||
      r.ms < Number(b.first_ms) ||
      r.ms > Number(b.last_ms)
    ) {
      appends.push(r);
    } else suspects.push(r);
  }
  const problems: IngestProblem[] = [];
  for (let i = 0; i < suspects.length; i += INSERT_CHUNK) {
    const chunk = suspects.slice(i, i + INSERT_CHUNK);
    const found = await queryRows<{ line: number; stored: string; meter_number: string }>(
      tx,
      sql`SELECT i.line, r.value::text AS stored, m.number AS meter_number
          FROM unnest(${pgNumberArray(chunk.map((r) => r.line))}::int[], ${pgNumberArray(chunk.map((r) => r.meterId))}::int[],
                      ${pgNumberArray(chunk.map((r) => r.ms))}::int8[], ${pgNumberArray(chunk.map((r) => r.value))}::numeric[])
               AS i(line, meter_id, ms, value)
          JOIN register_readings r ON r.meter_id = i.meter_id AND r.ts = to_timestamp(i.ms::float8 / 1000)
          JOIN meters m ON m.id = i.meter_id
          WHERE r.value <> i.value`,
    );
    for (const f of found) {
      problems.push({
        line: f.line,
        reason: `meter ${f.meter_number} already has another value (${f.stored}) stored for this timestamp`,
      });
    }
  }
  return { problems, appends, others: suspects };
}

/**
 * Inserts readings, skipping any already stored (the caller adds RETURNING to learn which were new); `fresh`
 * (into an empty table without its key) inserts them as they are.
 */
export function insertReadingsSql(rows: ValidRow[], fresh = false): SQL {
  return sql`INSERT INTO register_readings (meter_id, ts, value)
    SELECT i.meter_id, to_timestamp(i.ms::float8 / 1000), i.value
    FROM unnest(${pgNumberArray(rows.map((r) => r.meterId))}::int[], ${pgNumberArray(rows.map((r) => r.ms))}::int8[],
                ${pgNumberArray(rows.map((r) => r.value))}::numeric[]) AS i(meter_id, ms, value)
    ${fresh ? sql`` : sql`ON CONFLICT (meter_id, ts) DO NOTHING`}`;
}

/**
 * Inserts the readings; returns how many were new and, per meter, the time span of the new ones.
 * Appends are known to be new; the others may already be stored (a re-import), so the database says.
 */
export async function insertReadings(
  tx: Db,
  appends: ValidRow[],
  others: ValidRow[],
): Promise<{ inserted: number; spans: MeterSpan[] }> {
  const byMeterAndTime = (a: ValidRow, b: ValidRow) => a.meterId - b.meterId || a.ms - b.ms;
  // Sorted by meter and time, inserts walk the primary key in order.
  appends.sort(byMeterAndTime);
  others.sort(byMeterAndTime);
  const spans = new Map<number, MeterSpan>();
  for (let i = 0; i < appends.length; i += INSERT_CHUNK) {
    await tx.execute(insertReadingsSql(appends.slice(i, i + INSERT_CHUNK)));
  }
  for (const r of appends) widen(spans, r.meterId, r.ms, r.ms);
  let inserted = appends.length;
  for (let i = 0; i < others.length; i += INSERT_CHUNK) {
    const result = await queryRows<{ meter_id: number; min_ms: number; max_ms: number; n: number }>(
      tx,
      sql`WITH ins AS (${insertReadingsSql(others.slice(i, i + INSERT_CHUNK))} RETURNING meter_id, ts)
          SELECT meter_id, (extract(epoch FROM min(ts)) * 1000)::float8 AS min_ms,
                 (extract(epoch FROM max(ts)) * 1000)::float8 AS max_ms, count(*)::int AS n
          FROM ins GROUP BY meter_id`,
    );
    for (const r of result) {
      inserted += Number(r.n);
      widen(spans, r.meter_id, Number(r.min_ms), Number(r.max_ms));
    }
  }
  return { inserted, spans: [...spans.values()] };
}
