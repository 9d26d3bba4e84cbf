/** Reads an alarm's values from the rollup tables: daily totals per local day, hourly totals for the leak rule. */
import { sql } from 'drizzle-orm';
import { hoursInDay } from '../../lib/periods.ts';
import type { Db } from '../db/client.ts';
import { pgTextArray, queryRows } from '../db/sql.ts';
import { type AlarmPeriod, startInstant } from './alarmPeriods.ts';
import type { DayTotal } from './evaluator.ts';

const HOUR_MS = 3_600_000;

/** The stored quantities that make up a quantity: total water is hot plus cold where no total meter exists. */
export function storedQuantities(quantity: string): string[] {
  return quantity === 'total-water-volume'
    ? ['total-water-volume', 'hot-water-volume', 'cold-water-volume']
    : [quantity];
}

/**
 * What an alarm reads: the measurement points of a tenancy's apartment for a quantity, and the tenancy's dates.
 * Every read below is clipped to those dates, so an alarm, its hint values and its notifications never show a
 * predecessor's or a successor's consumption in the same apartment.
 */
export interface AlarmSource {
  points: number[];
  /** The tenancy's first day. */
  from: string;
  /** The day after its last day (exclusive), or null while it runs. */
  to: string | null;
}

/** The alarm source of a tenancy for a quantity; no points when the tenancy does not exist. */
export async function alarmSource(db: Db, tenancyId: number, quantity: string): Promise<AlarmSource> {
  const rows = await queryRows<{
    id: number | null;
    quantity: string | null;
    start: string;
    after: string | null;
  }>(
    db,
    sql`SELECT mp.id, mp.quantity, t.start::text AS start, (t.end + 1)::text AS after
        FROM tenancies t
        LEFT JOIN measurement_points mp ON mp.apartment_id = t.apartment_id
          AND mp.quantity = ANY(${pgTextArray(storedQuantities(quantity))}::text[])
        WHERE t.id = ${tenancyId}
        ORDER BY mp.id`,
  );
  const first = rows[0];
  if (!first) return { points: [], from: '9999-12-31', to: null };
  const found = rows.filter((r) => r.id !== null);
  // A total-water meter, when there is one, is the total; otherwise hot plus cold.
  const total = found.filter((r) => r.quantity === 'total-water-volume');
  return {
    points: (total.length > 0 ? total : found).map((r) => Number(r.id)),
    from: first.start,
    to: first.after,
  };
}

/** The part of a period inside the tenancy's dates, or null when they do not meet. */
export function withinTenancy(source: AlarmSource, period: AlarmPeriod): AlarmPeriod | null {
  // ISO dates compare as text.
  const start = [period.start, source.from].sort()[1]!;
  const end = source.to === null ? period.end : [period.end, source.to].sort()[0]!;
  return start < end ? { start, end } : null;
}

/** Daily totals over the points for the period's days inside the tenancy; days with no row are left out. */
export async function dailyTotals(db: Db, source: AlarmSource, period: AlarmPeriod): Promise<DayTotal[]> {
  const { points } = source;
  const inside = withinTenancy(source, period);
  if (points.length === 0 || !inside) return [];
  const rows = await queryRows<{ day: string; sum: string; count: number; points: number }>(
    db,
    sql`SELECT day::text AS day, sum(sum)::text AS sum, sum(count)::int AS count, count(*)::int AS points
        FROM daily_rollups
        WHERE measurement_point_id = ANY(${`{${points.join(',')}}`}::int[])
          AND day >= ${inside.start}::date AND day < ${inside.end}::date
        GROUP BY day ORDER BY day`,
  );
  return rows.map((r) => ({
    day: r.day,
    sum: Number(r.sum),
    count: Number(r.count),
    complete: Number(r.points) === points.length && Number(r.count) >= hoursInDay(r.day) * points.length,
  }));
}

/**
 * Hourly totals from 23 hours before the period to its end; null where a point has no value and for every hour
 * outside the tenancy's dates.
 */
export async function leakHours(
  db: Db,
  source: AlarmSource,
  period: AlarmPeriod,
): Promise<(number | null)[]> {
  const from = startInstant(period.start).getTime() - 23 * HOUR_MS;
  const to = startInstant(period.end).getTime();
  const hours: (number | null)[] = Array.from({ length: Math.round((to - from) / HOUR_MS) }, () => null);
  const { points } = source;
  const readFrom = Math.max(from, startInstant(source.from).getTime());
  const readTo = source.to === null ? to : Math.min(to, startInstant(source.to).getTime());
  if (points.length === 0 || readFrom >= readTo) return hours;
  const rows = await queryRows<{ hour: string; sum: string; points: number }>(
    db,
    sql`SELECT (extract(epoch FROM hour_start) * 1000)::bigint::text AS hour, sum(value)::text AS sum,
               count(*)::int AS points
        FROM hourly_consumption
        WHERE measurement_point_id = ANY(${`{${points.join(',')}}`}::int[])
          AND hour_start >= ${new Date(readFrom).toISOString()}::timestamptz
          AND hour_start < ${new Date(readTo).toISOString()}::timestamptz
        GROUP BY hour_start`,
  );
  for (const r of rows) {
    const i = Math.round((Number(r.hour) - from) / HOUR_MS);
    if (i >= 0 && i < hours.length && Number(r.points) === points.length) hours[i] = Number(r.sum);
  }
  return hours;
}
