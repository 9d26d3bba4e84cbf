/**
 * Readings against the stored ones (duplicates, conflicts), and their insertion.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { newestReadingRows, RECENT_DAYS, recentReadingRow } from './neighbours.ts';
import { INSERT_CHUNK, type IngestProblem, type MeterSpan, problem, type ValidRow, widen } from './types.ts';

/** What checkAgainstStored found. */
export interface StoredCheck {
  /** Rows whose meter+timestamp is stored with another value, or quarantined with another value. */
  problems: IngestProblem[];
  /** Lines of rows stored already with the same value (or rejected earlier with it). */
  duplicates: number[];
  /** Lines of rows that repeat a reading in quarantine, with its issue. */
  quarantined: { line: number; issueId: number }[];
  /** Rows after or before all of the meter's stored readings: certainly new. */
  appends: ValidRow[];
  /** The other rows still to insert (new unless the database says otherwise). */
  others: ValidRow[];
  /** Per meter of the rows, its newest stored reading (none: the meter has none), for the misread check. */
  last: Map<number, { ms: number; text: string }>;
  /**
   * Meters that have no suspect reading in the queue (open or rejected) and are their point's only meter, or whose
   * point's other meters (swapped out) have no reading after this meter's newest one.
   */
  plain: Set<number>;
}

function rowsParam(rows: ValidRow[]): SQL {
  return sql`unnest(${pgNumberArray(rows.map((r) => r.line))}::int[], ${pgNumberArray(rows.map((r) => r.meterId))}::int[],
                    ${pgNumberArray(rows.map((r) => r.ms))}::int8[], ${pgNumberArray(rows.map((r) => r.value))}::numeric[])
             AS i(line, meter_id, ms, value)`;
}

interface StoredBound {
  meter_id: number;
  last_ms: number | null;
  last_value: string | null;
  issues: boolean;
  sole: boolean;
}

/**
 * Per meter: its newest stored reading (at or after `since` when given, else any), whether it has suspect readings
 * in the queue (open or rejected), and whether no other meter of its point has a reading after that one (`sole`).
 */
function storedBounds(
  tx: Db,
  meterIds: number[],
  oldest: Map<number, number>,
  since: number | null,
): Promise<StoredBound[]> {
  const anchor = sql`to_timestamp(m.oldest_ms::float8 / 1000)`;
  const floor = since === null ? undefined : new Date(since);
  // The same constant bound for the planner below (lr.ts is at least `since`, so later readings are too).
  const after = floor === undefined ? sql`` : sql` AND r.ts >= ${floor.toISOString()}::timestamptz`;
  const newest =
    floor === undefined
      ? newestReadingRows(sql`m.id`, anchor, null)
      : recentReadingRow(sql`m.id`, anchor, null, floor);
  return queryRows<StoredBound & Record<string, unknown>>(
    tx,
    sql`SELECT m.id AS meter_id, lr.ms AS last_ms, lr.value AS last_value,
          EXISTS (SELECT 1 FROM data_issues q WHERE q.meter_id = m.id AND q.reading_value IS NOT NULL
                    AND q.status <> 'accepted') AS issues,
          -- No other meter of the point (one swapped out earlier) has a reading after this meter's newest: none
          -- of its intervals reaches the hours after it.
          NOT EXISTS (SELECT 1 FROM meters o JOIN meters mm ON mm.id = m.id
                      WHERE o.measurement_point_id = mm.measurement_point_id AND o.id <> mm.id
                        AND (lr.ts IS NULL OR EXISTS (SELECT 1 FROM register_readings r
                                                      WHERE r.meter_id = o.id AND r.ts > lr.ts${after}))) AS sole
        FROM unnest(${pgNumberArray(meterIds)}::int[], ${pgNumberArray(meterIds.map((id) => oldest.get(id)!))}::int8[])
          AS m(id, oldest_ms)
        LEFT JOIN LATERAL (SELECT nb.ts, (extract(epoch FROM nb.ts) * 1000)::float8 AS ms, nb.value::text AS value
            FROM ${newest} nb LIMIT 1) lr ON true`,
  );
}

/**
 * Splits rows into appends (outside the span of the meter's stored readings, so certainly new) and the rest;
 * finds rows stored already (duplicates when the value is the same, problems when not) and rows that repeat a
 * suspect reading in the data-issue queue.
 */
export async function checkAgainstStored(tx: Db, rows: ValidRow[]): Promise<StoredCheck> {
  const result: StoredCheck = {
    problems: [],
    duplicates: [],
    quarantined: [],
    appends: [],
    others: [],
    last: new Map(),
    plain: new Set(),
  };
  if (rows.length === 0) return result;
  // Per meter, the batch's oldest row: the newest stored reading is looked for from a month before it.
  const oldest = new Map<number, number>();
  for (const r of rows) if (!(oldest.get(r.meterId)! <= r.ms)) oldest.set(r.meterId, r.ms);
  const meterIds = [...oldest.keys()];
  // Rows after a meter's last stored reading cannot be stored; only check the rest (rows before its first one
  // are rare, backfill: they take the checked path too). Each meter's newest stored reading is looked for in the
  // 35 days before its oldest row first, with the batch's earliest such day as a constant: the plan then reads
  // only the partitions since (planning every monthly partition was 7 of a live batch's 30 ms of SQL). Meters
  // with no reading there (new ones, or after a long silence) are looked up again over all of them.
  const recent = await storedBounds(
    tx,
    meterIds,
    oldest,
    Math.min(...oldest.values()) - RECENT_DAYS * 86_400_000,
  );
  const missing = recent.filter((b) => b.last_ms === null).map((b) => b.meter_id);
  const bounds = missing.length
    ? [...recent.filter((b) => b.last_ms !== null), ...(await storedBounds(tx, missing, oldest, null))]
    : recent;
  const stored = new Map(bounds.map((b) => [b.meter_id, b]));
  for (const b of bounds) {
    if (b.sole && !b.issues) result.plain.add(b.meter_id);
    if (b.last_ms !== null && b.last_value !== null) {
      result.last.set(b.meter_id, { ms: Number(b.last_ms), text: b.last_value });
    }
  }
  const suspects: ValidRow[] = [];
  const withIssues: ValidRow[] = [];
  for (const r of rows) {
    const b = stored.get(r.meterId);
    if (b?.issues) withIssues.push(r);
    if (!b || b.last_ms === null || r.ms > Number(b.last_ms)) {
      result.appends.push(r);
    } else suspects.push(r);
  }
  const settled = new Set<number>();
  for (let i = 0; i < withIssues.length; i += INSERT_CHUNK) {
    const found = await queryRows<{ line: number; id: number; status: string; same: boolean }>(
      tx,
      sql`SELECT DISTINCT ON (i.line) i.line, q.id, q.status, q.reading_value = i.value AS same
          FROM ${rowsParam(withIssues.slice(i, i + INSERT_CHUNK))}
          JOIN data_issues q ON q.meter_id = i.meter_id AND q.reading_ts = to_timestamp(i.ms::float8 / 1000)
            AND q.reading_value IS NOT NULL AND q.status <> 'accepted'
          ORDER BY i.line, q.status = 'open' DESC, q.id DESC`,
    );
    for (const f of found) {
      if (f.status === 'open' && f.same) result.quarantined.push({ line: f.line, issueId: f.id });
      else if (f.status === 'open') {
        result.problems.push(
          problem(
            f.line,
            'quarantine_pending',
            { issueId: Number(f.id) },
            `this meter has another reading for this timestamp in quarantine (data issue #${f.id}); an operator decides it first`,
          ),
        );
      } else if (f.same) result.duplicates.push(f.line);
      else continue;
      settled.add(f.line);
    }
  }
  for (let i = 0; i < suspects.length; i += INSERT_CHUNK) {
    const found = await queryRows<{ line: number; stored: string; meter_number: string; same: boolean }>(
      tx,
      sql`SELECT i.line, r.value::text AS stored, m.number AS meter_number, r.value = i.value AS same
          FROM ${rowsParam(suspects.slice(i, i + INSERT_CHUNK))}
          JOIN register_readings r ON r.meter_id = i.meter_id AND r.ts = to_timestamp(i.ms::float8 / 1000)
          JOIN meters m ON m.id = i.meter_id`,
    );
    for (const f of found) {
      settled.add(f.line);
      if (f.same) result.duplicates.push(f.line);
      else {
        result.problems.push(
          problem(
            f.line,
            'conflicts_with_stored',
            { meter: f.meter_number, storedValue: f.stored },
            `meter ${f.meter_number} already has another value (${f.stored}) stored for this timestamp`,
          ),
        );
      }
    }
  }
  if (settled.size > 0) result.appends = result.appends.filter((r) => !settled.has(r.line));
  result.others = suspects.filter((r) => !settled.has(r.line));
  return result;
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
