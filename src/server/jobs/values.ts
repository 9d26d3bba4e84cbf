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

/** The measurement points of a tenancy's apartment for a quantity. */
export async function alarmPoints(db: Db, tenancyId: number, quantity: string): Promise<number[]> {
  const rows = await queryRows<{ id: number; quantity: string }>(
    db,
    sql`SELECT mp.id, mp.quantity FROM measurement_points mp
        JOIN tenancies t ON t.apartment_id = mp.apartment_id
        WHERE t.id = ${tenancyId} AND mp.quantity = ANY(${pgTextArray(storedQuantities(quantity))}::text[])
        ORDER BY mp.id`,
  );
  // A total-water meter, when there is one, is the total; otherwise hot plus cold.
  const total = rows.filter((r) => r.quantity === 'total-water-volume');
  return (total.length > 0 ? total : rows).map((r) => Number(r.id));
}

/** Daily totals over the points for [from, to); days with no row are left out (unknown). */
export async function dailyTotals(db: Db, points: number[], period: AlarmPeriod): Promise<DayTotal[]> {
  if (points.length === 0) return [];
  const rows = await queryRows<{ day: string; sum: string; count: number; points: number }>(
    db,
    sql`SELECT day::text AS day, sum(sum)::text AS sum, sum(count)::int AS count, count(*)::int AS points
        FROM daily_rollups
        WHERE measurement_point_id = ANY(${`{${points.join(',')}}`}::int[])
          AND day >= ${period.start}::date AND day < ${period.end}::date
        GROUP BY day ORDER BY day`,
  );
  return rows.map((r) => ({
    day: r.day,
    sum: Number(r.sum),
    count: Number(r.count),
    complete: Number(r.points) === points.length && Number(r.count) >= hoursInDay(r.day) * points.length,
  }));
}

/** Hourly totals from 23 hours before the period to its end; null where a point has no value. */
export async function leakHours(db: Db, points: number[], period: AlarmPeriod): Promise<(number | null)[]> {
  const from = startInstant(period.start).getTime() - 23 * HOUR_MS;
  const to = startInstant(period.end).getTime();
  const hours: (number | null)[] = Array.from({ length: Math.round((to - from) / HOUR_MS) }, () => null);
  if (points.length === 0) return hours;
  const rows = await queryRows<{ hour: string; sum: string; points: number }>(
    db,
    sql`SELECT (extract(epoch FROM hour_start) * 1000)::bigint::text AS hour, sum(value)::text AS sum,
               count(*)::int AS points
        FROM hourly_consumption
        WHERE measurement_point_id = ANY(${`{${points.join(',')}}`}::int[])
          AND hour_start >= ${new Date(from).toISOString()}::timestamptz
          AND hour_start < ${new Date(to).toISOString()}::timestamptz
        GROUP BY hour_start`,
  );
  for (const r of rows) {
    const i = Math.round((Number(r.hour) - from) / HOUR_MS);
    if (i >= 0 && i < hours.length && Number(r.points) === points.length) hours[i] = Number(r.sum);
  }
  return hours;
}
