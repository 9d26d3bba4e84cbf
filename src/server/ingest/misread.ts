/**
 * Misreads are quarantined, not booked (docs/ingest.md, "Suspect readings"). After a batch's readings are
 * inserted, each register meter's chain of readings around them is walked in time order: an interval that is
 * neither a plausible rise, a reset near zero, a scheduled reset (the profile's billing date) nor a rollover
 * (the profile's digits) blames its new reading, which leaves register_readings for the data_issues queue with
 * its evidence. The hours of the interval it sat in stay unknown until an operator decides (issues.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, pgTextArray, queryRows } from '../db/sql.ts';
import { MAX_PER_HOUR } from './bounds.ts';
import { newestReadingRows } from './neighbours.ts';
import { HOUR_MS, type MeterInfo, type MeterSpan, type PointDays, type ValidRow } from './types.ts';

/** A reset counts when the new value is at most this share of the old one (and plausible since the reset). */
export const RESET_FRACTION = 0.025;
/** A drop from at least this share of the register's maximum is a rollover, for a meter with rollover digits. */
const ROLLOVER_FROM = 0.9;

type IssueKind = 'drop' | 'digit-shift' | 'jump';

type Verdict =
  | { ok: true; how: 'rise' | 'reset' | 'rollover' }
  | { ok: false; kind: IssueKind; reason: string; bound: number };

interface Point {
  ms: number;
  value: number;
}

/** Whether one of a and b is about 10, 100 or 1000 times the other (a digit or decimal point shifted). */
function digitShifted(a: number, b: number): boolean {
  if (a <= 0 || b <= 0) return false;
  const ratio = Math.max(a, b) / Math.min(a, b);
  return [10, 100, 1000].some((k) => Math.abs(ratio / k - 1) < 0.02);
}

/** Whether the yearly billing date `MM-DD` (Europe/Copenhagen, a day either side) falls in (t0, t1]. */
function crossesBillingDate(t0: number, t1: number, resetOn: string): boolean {
  const [month, day] = resetOn.split('-').map(Number) as [number, number];
  for (let year = new Date(t0).getUTCFullYear(); year <= new Date(t1).getUTCFullYear(); year++) {
    // Local midnight is 22:00 or 23:00 UTC the day before; a day's slack either side covers both.
    const at = Date.UTC(year, month - 1, day);
    if (at + 2 * 24 * HOUR_MS > t0 && at - 24 * HOUR_MS <= t1) return true;
  }
  return false;
}

/** The rules for one interval of a register meter, from `prev` to `next`. */
function judgeInterval(prev: Point, next: Point, meter: MeterInfo): Verdict {
  const perHour = MAX_PER_HOUR[meter.quantity];
  if (perHour === undefined) return { ok: true, how: next.value >= prev.value ? 'rise' : 'reset' };
  const hours = Math.max(1, (next.ms - prev.ms) / HOUR_MS);
  const bound = perHour * hours;
  if (next.value >= prev.value) {
    const rise = next.value - prev.value;
    if (rise <= bound) return { ok: true, how: 'rise' };
    const kind = digitShifted(prev.value, next.value) ? 'digit-shift' : 'jump';
    return {
      ok: false,
      kind,
      bound,
      reason: `meter ${meter.number} at ${new Date(next.ms).toISOString()} rises from ${prev.value} to ${next.value} in ${round2(hours)} h, above the plausible ${perHour} per hour for ${meter.quantity}`,
    };
  }
  if (meter.rolloverDigits !== null) {
    const wrap = 10 ** meter.rolloverDigits;
    if (prev.value >= wrap * ROLLOVER_FROM && wrap - prev.value + next.value <= bound) {
      return { ok: true, how: 'rollover' };
    }
  }
  if (next.value <= bound) {
    if (meter.resetOn !== null && crossesBillingDate(prev.ms, next.ms, meter.resetOn)) {
      return { ok: true, how: 'reset' };
    }
    if (next.value <= prev.value * RESET_FRACTION) return { ok: true, how: 'reset' };
  }
  const kind = digitShifted(prev.value, next.value) ? 'digit-shift' : 'drop';
  return {
    ok: false,
    kind,
    bound,
    reason: `meter ${meter.number} at ${new Date(next.ms).toISOString()} drops from ${prev.value} to ${next.value}: a reset is taken only near zero (at most ${RESET_FRACTION * 100} % of the register${meter.resetOn ? `, or on its billing date ${meter.resetOn}` : ''}${meter.rolloverDigits ? `, or a rollover after ${meter.rolloverDigits} digits` : ''})`,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

interface ChainReading extends Point {
  text: string;
  /** The batch row, when the reading is new in this batch. */
  row?: ValidRow;
}

/** A new reading taken out of the chain. */
interface Suspect {
  meter: MeterInfo;
  reading: ChainReading & { row: ValidRow };
  verdict: Extract<Verdict, { ok: false }>;
  /** The interval the rules refused: from the reading before to the suspect, or from the suspect to the next. */
  interval: { from: ChainReading; to: ChainReading };
  before?: ChainReading;
  after?: ChainReading;
}

/** Walks one meter's chain (time order); returns the new readings to quarantine. */
function walkChain(meter: MeterInfo, chain: ChainReading[]): Suspect[] {
  const accepted: ChainReading[] = [];
  const out: Omit<Suspect, 'meter' | 'before' | 'after'>[] = [];
  for (const r of chain) {
    let taken = false;
    for (;;) {
      const top = accepted.at(-1);
      if (!top) break;
      const verdict = judgeInterval(top, r, meter);
      if (verdict.ok) break;
      if (r.row) {
        out.push({ reading: r as ChainReading & { row: ValidRow }, verdict, interval: { from: top, to: r } });
        taken = true;
        break;
      }
      if (top.row) {
        // A stored reading is followed by a new one that it contradicts: the new one goes.
        accepted.pop();
        out.push({
          reading: top as ChainReading & { row: ValidRow },
          verdict,
          interval: { from: top, to: r },
        });
        continue;
      }
      break; // Two stored readings: taken before these rules, left as they are.
    }
    if (!taken) accepted.push(r);
  }
  return out.map((o) => {
    const i = accepted.findIndex((a) => a.ms > o.reading.ms);
    const after = i < 0 ? undefined : accepted[i];
    const before = i < 0 ? accepted.at(-1) : i > 0 ? accepted[i - 1] : undefined;
    return { meter, ...o, before, after };
  });
}

/** What quarantine did: the lines quarantined with their issues, and days whose booked hours it cleared. */
export interface Quarantined {
  issues: { line: number; issueId: number }[];
  clearedDays: PointDays[];
}

/**
 * Finds the batch's suspect readings (walkChain over each register meter's readings around the new ones),
 * moves them from register_readings to data_issues, and deletes the hours already booked over the interval
 * each one sat in (they are unknown now).
 */
export async function quarantineSuspects(
  tx: Db,
  spans: MeterSpan[],
  newRows: ValidRow[],
  metersById: Map<number, MeterInfo>,
  source: string,
  /**
   * Meters whose new readings all come after their newest stored one (`checkAgainstStored`'s appends), with that
   * reading (none: the meter had none): their chain is that reading and the new ones, so it is not read back.
   */
  appendOnly: Map<number, { ms: number; text: string } | undefined> = new Map(),
  /** Called before the suspects are written (turns the row checks and triggers back on: skipRowChecks). */
  beforeWrite: () => Promise<void> = async () => {},
): Promise<Quarantined> {
  const all = spans.filter((s) => metersById.get(s.meterId)?.readingKind === 'register');
  if (all.length === 0) return { issues: [], clearedDays: [] };
  const newByKey = new Map(newRows.map((r) => [`${r.meterId}:${r.ms}`, r]));
  const chains = new Map<number, ChainReading[]>();
  const known = new Set(all.filter((s) => appendOnly.has(s.meterId)).map((s) => s.meterId));
  if (known.size > 0) {
    for (const r of newRows) {
      if (!known.has(r.meterId)) continue;
      const list = chains.get(r.meterId);
      const reading: ChainReading = { ms: r.ms, value: Number(r.value), text: r.value, row: r };
      if (list) list.push(reading);
      else {
        const last = appendOnly.get(r.meterId);
        chains.set(
          r.meterId,
          last ? [{ ms: last.ms, value: Number(last.text), text: last.text }, reading] : [reading],
        );
      }
    }
    for (const chain of chains.values()) chain.sort((a, b) => a.ms - b.ms);
  }
  const registers = all.filter((s) => !known.has(s.meterId));
  const chainRows =
    registers.length === 0
      ? []
      : await queryRows<{ meter_id: number; ms: number; value: string }>(
          tx,
          sql`WITH a AS (
          SELECT a0.meter_id, to_timestamp(a0.lo_ms::float8 / 1000) AS lo, to_timestamp(a0.hi_ms::float8 / 1000) AS hi
          FROM unnest(${pgNumberArray(registers.map((s) => s.meterId))}::int[], ${pgNumberArray(registers.map((s) => s.minMs))}::int8[],
                      ${pgNumberArray(registers.map((s) => s.maxMs))}::int8[]) AS a0(meter_id, lo_ms, hi_ms)
        ), w AS (
          SELECT a.meter_id,
            coalesce((SELECT nb.ts FROM ${newestReadingRows(sql`a.meter_id`, sql`a.lo`, sql`a.lo`)} nb LIMIT 1), a.lo) AS lo,
            coalesce((SELECT r.ts FROM register_readings r WHERE r.meter_id = a.meter_id AND r.ts > a.hi
                      ORDER BY r.ts LIMIT 1), a.hi) AS hi
          FROM a
        )
        SELECT w.meter_id, (extract(epoch FROM r.ts) * 1000)::float8 AS ms, r.value::text AS value
        FROM w CROSS JOIN LATERAL (
          -- A lookup per meter by the key (a plain join scanned every partition of the table per meter).
          SELECT r.ts, r.value FROM register_readings r
          WHERE r.meter_id = w.meter_id AND r.ts >= w.lo AND r.ts <= w.hi OFFSET 0) r
        ORDER BY w.meter_id, r.ts`,
        );
  for (const c of chainRows) {
    const ms = Number(c.ms);
    const reading: ChainReading = { ms, value: Number(c.value), text: c.value };
    const row = newByKey.get(`${c.meter_id}:${ms}`);
    if (row) reading.row = row;
    const list = chains.get(c.meter_id);
    if (list) list.push(reading);
    else chains.set(c.meter_id, [reading]);
  }
  const suspects: Suspect[] = [];
  for (const [meterId, chain] of chains) suspects.push(...walkChain(metersById.get(meterId)!, chain));
  if (suspects.length === 0) return { issues: [], clearedDays: [] };
  await beforeWrite();
  return writeSuspects(tx, suspects, source);
}

const point = (r: ChainReading | undefined) =>
  r ? { ts: new Date(r.ms).toISOString(), value: r.text } : null;

async function writeSuspects(tx: Db, suspects: Suspect[], source: string): Promise<Quarantined> {
  const meterIds = pgNumberArray(suspects.map((s) => s.meter.id));
  const ms = pgNumberArray(suspects.map((s) => s.reading.ms));
  await tx.execute(sql`DELETE FROM register_readings r
    USING unnest(${meterIds}::int[], ${ms}::int8[]) AS q(meter_id, ms)
    WHERE r.meter_id = q.meter_id AND r.ts = to_timestamp(q.ms::float8 / 1000)`);
  const evidence = suspects.map((s) =>
    JSON.stringify({
      reason: s.verdict.reason,
      quantity: s.meter.quantity,
      bound: s.verdict.bound,
      interval: { from: point(s.interval.from), to: point(s.interval.to) },
      before: point(s.before),
      after: point(s.after),
    }),
  );
  const ids = await queryRows<{ id: number }>(
    tx,
    sql`INSERT INTO data_issues (kind, meter_id, property_id, reading_ts, reading_value, evidence, source)
        SELECT q.kind, q.meter_id, q.property_id, to_timestamp(q.ms::float8 / 1000), q.value, q.evidence::jsonb, ${source}
        FROM unnest(${pgTextArray(suspects.map((s) => s.verdict.kind))}::text[], ${meterIds}::int[],
                    ${pgNumberArray(suspects.map((s) => s.meter.propertyId))}::int[], ${ms}::int8[],
                    ${pgNumberArray(suspects.map((s) => s.reading.text))}::numeric[], ${pgTextArray(evidence)}::text[])
             WITH ORDINALITY AS q(kind, meter_id, property_id, ms, value, evidence, n)
        ORDER BY q.n
        RETURNING id`,
  );
  // The hours booked over an interval that held a suspect reading are unknown now.
  const bracketed = suspects.filter((s) => s.before && s.after);
  const clearedDays: PointDays[] = [];
  if (bracketed.length > 0) {
    const cleared = await queryRows<{ point_id: number; day_lo: string; day_hi: string }>(
      tx,
      sql`WITH del AS (
            DELETE FROM hourly_consumption h
            USING unnest(${pgNumberArray(bracketed.map((s) => s.meter.pointId))}::int[],
                         ${pgNumberArray(bracketed.map((s) => s.before!.ms))}::int8[],
                         ${pgNumberArray(bracketed.map((s) => s.after!.ms))}::int8[]) AS q(point_id, lo_ms, hi_ms)
            WHERE h.measurement_point_id = q.point_id
              AND h.hour_start >= date_trunc('hour', to_timestamp(q.lo_ms::float8 / 1000), 'UTC')
              AND h.hour_start < to_timestamp(q.hi_ms::float8 / 1000)
            RETURNING h.measurement_point_id, h.hour_start
          )
          SELECT measurement_point_id AS point_id,
                 to_char((min(hour_start) AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_lo,
                 to_char((max(hour_start) AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_hi
          FROM del GROUP BY measurement_point_id`,
    );
    for (const c of cleared) clearedDays.push({ pointId: c.point_id, dayLo: c.day_lo, dayHi: c.day_hi });
  }
  return {
    issues: suspects.map((s, i) => ({ line: s.reading.row.line, issueId: ids[i]!.id })),
    clearedDays,
  };
}
