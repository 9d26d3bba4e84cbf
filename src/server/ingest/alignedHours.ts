/**
 * The common case of a live batch, taken without the interval arithmetic in SQL: a known chain (hourly.ts,
 * KnownChain) whose readings lie on whole hours, one hour apart. Each interval is then exactly one hour, and its
 * consumption is that hour's value: the difference of two readings (DELTA_WRAPPED in sqlParts.ts: a rise, a
 * rollover from the register's top tenth, or otherwise a reset that counts the new value). Computed here in exact
 * decimal arithmetic and written by one upsert, the same rows registerHourlyKnownSql writes for such a chain
 * (tests/api/ingest-append-path.test.ts compares the hours, flags and rollups of both paths).
 */
import { type SQL, sql } from 'drizzle-orm';
import { pgNumberArray } from '../db/sql.ts';
import { type KnownChain, upsertHourlySql } from './hourly.ts';
import { HOUR_MS } from './types.ts';

/** A decimal as an integer and its scale: 12.340 is 12340n at scale 3. */
interface Decimal {
  n: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/** The Decimal of a DECIMAL match. */
function decimal(m: RegExpExecArray): Decimal {
  const [, sign = '', int = '', frac = ''] = m;
  const n = BigInt(`${int}${frac}`);
  return { n: sign ? -n : n, scale: frac.length };
}

const at = (d: Decimal, scale: number) => d.n * 10n ** BigInt(scale - d.scale);

/** A decimal's text without trailing fraction zeros (PostgreSQL's trim_scale), from its integer and scale. */
function text(n: bigint | number, scale: number): string {
  const negative = n < 0;
  let digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  let s = scale;
  while (s > 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    s -= 1;
  }
  const body = s > 0 ? `${digits.slice(0, -s)}.${digits.slice(-s)}` : digits;
  return negative && /[1-9]/.test(body) ? `-${body}` : body;
}

/**
 * Integers of up to 15 digits are exact in a double (below 2^53, about 9.007 × 10^15), and so are their sums and
 * differences here (each below 2 × 10^15): most meter values (a register of 8 digits read to 3 decimals) are
 * computed in them, which is several times quicker than in BigInt. Longer ones take the BigInt path.
 */
const EXACT_DIGITS = 15;

/** hourDelta in doubles, when every integer involved has at most EXACT_DIGITS digits; undefined otherwise. */
function hourDeltaExact(m0: RegExpExecArray, m1: RegExpExecArray, digits: number | null): string | undefined {
  const [, sign0 = '', int0 = '', frac0 = ''] = m0;
  const [, sign1 = '', int1 = '', frac1 = ''] = m1;
  const scale = Math.max(frac0.length, frac1.length);
  if (
    int0.length + scale > EXACT_DIGITS ||
    int1.length + scale > EXACT_DIGITS ||
    (digits !== null && digits + scale > EXACT_DIGITS)
  ) {
    return undefined;
  }
  const a = Number(`${sign0}${int0}${frac0}`) * 10 ** (scale - frac0.length);
  const b = Number(`${sign1}${int1}${frac1}`) * 10 ** (scale - frac1.length);
  if (b >= a) return text(b - a, scale);
  if (digits !== null) {
    const top = 10 ** (digits + scale);
    if (10 * a >= 9 * top) return text(top - a + b, scale);
  }
  return text(b, scale);
}

/** One interval's consumption (DELTA_WRAPPED), or null when a value is not a plain decimal. */
export function hourDelta(v0Text: string, v1Text: string, digits: number | null): string | null {
  const m0 = DECIMAL.exec(v0Text);
  const m1 = DECIMAL.exec(v1Text);
  if (!m0 || !m1) return null;
  const exact = hourDeltaExact(m0, m1, digits);
  if (exact !== undefined) return exact;
  const v0 = decimal(m0);
  const v1 = decimal(m1);
  const scale = Math.max(v0.scale, v1.scale);
  const a = at(v0, scale);
  const b = at(v1, scale);
  if (b >= a) return text(b - a, scale);
  if (digits !== null) {
    const top = 10n ** BigInt(digits + scale);
    // v0 >= 10^digits × 0.9
    if (10n * a >= 9n * top) return text(top - a + b, scale);
  }
  return text(b, scale);
}

/** An hour of a point and its consumption. */
export interface AlignedHour {
  pointId: number;
  ms: number;
  value: string;
}

/**
 * Splits known chains into the hours of those whose readings lie on whole hours, one hour apart (every interval
 * one aligned hour, nothing to spread or estimate), and the other chains, left to registerHourlyKnownSql.
 */
export function alignedChainHours(chains: KnownChain[]): { hours: AlignedHour[]; rest: KnownChain[] } {
  const hours: AlignedHour[] = [];
  const rest: KnownChain[] = [];
  for (const c of chains) {
    const r = c.readings;
    const own: AlignedHour[] = [];
    let aligned = true;
    for (let i = 1; i < r.length && aligned; i++) {
      const t0 = r[i - 1]!;
      const t1 = r[i]!;
      const value =
        t0.ms % HOUR_MS === 0 && t1.ms - t0.ms === HOUR_MS ? hourDelta(t0.value, t1.value, c.digits) : null;
      if (value === null) aligned = false;
      else own.push({ pointId: c.pointId, ms: t0.ms, value });
    }
    if (aligned) hours.push(...own);
    else rest.push(c);
  }
  return { hours, rest };
}

/** Upserts the hours of alignedChainHours; returns the same outcome rows (point, day range, hours) as the SQL paths. */
export function alignedHoursSql(hours: AlignedHour[]): SQL {
  return sql`WITH v AS (
      SELECT * FROM unnest(${pgNumberArray(hours.map((h) => h.pointId))}::int[],
                           ${pgNumberArray(hours.map((h) => h.ms))}::int8[],
                           ${pgNumberArray(hours.map((h) => h.value))}::numeric[]) AS v(point_id, ms, value)
    )
    ${upsertHourlySql(sql`SELECT point_id, to_timestamp(ms::float8 / 1000), value, false FROM v`)}`;
}
