/**
 * One SQL query for all series of a graph: the values of sets of measurement points, combined per bucket, read from the
 * coarsest table that answers the resolution (HOUR: hourly_consumption; DAY, WEEK: daily_rollups;
 * MONTH, YEAR: monthly_rollups for whole months plus daily_rollups for partial months at the edges).
 * So the rows read follow the buckets returned, not the raw hours in the range.
 */
import { type SQL, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { TIME_ZONE } from '../../../lib/periods.ts';
import type { Aggregation } from '../../../lib/quantities.ts';
import type { Db } from '../../db/client.ts';
import { pgNumberArray, queryRows } from '../../db/sql.ts';
import type { BucketPlan } from './buckets.ts';

/** What one series is made of. */
export interface SeriesQuery {
  plan: BucketPlan;
  /** The points combined into this series (all of one quantity). */
  pointIds: number[];
  aggregation: Aggregation;
  /** The ranges data may come from (the plan's range clipped to the caller's tenancies), end exclusive. */
  windows: { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime }[];
  /** For cost: consumption times the price valid on each local day. */
  price?: { propertyId: number; quantity: string };
}

/** The price valid on a local day, as a lateral join (the newest validity wins if two overlap). */
function priceJoin(price: NonNullable<SeriesQuery['price']>, day: SQL): SQL {
  return sql`CROSS JOIN LATERAL (
    SELECT p.price FROM prices p
    WHERE p.property_id = ${price.propertyId} AND p.quantity = ${price.quantity}
      AND p.valid_from <= ${day} AND (p.valid_to IS NULL OR p.valid_to > ${day})
    ORDER BY p.valid_from DESC LIMIT 1) pr`;
}

function hourlySource(q: SeriesQuery, ids: string, from: string, to: string): SQL {
  const day = sql`(h.hour_start AT TIME ZONE ${TIME_ZONE})::date`;
  return sql`SELECT extract(epoch FROM h.hour_start)::bigint::text AS k,
      ${q.price ? sql`h.value * pr.price` : sql`h.value`} AS x, 1 AS c
    FROM hourly_consumption h ${q.price ? priceJoin(q.price, day) : sql``}
    WHERE h.measurement_point_id = ANY(${ids}::int[])
      AND h.hour_start >= ${from}::timestamptz AND h.hour_start < ${to}::timestamptz`;
}

function dailySource(q: SeriesQuery, ids: string, key: SQL, where: SQL): SQL {
  return sql`SELECT ${key} AS k, ${q.price ? sql`d.sum * pr.price` : sql`d.sum`} AS x, d.count AS c
    FROM daily_rollups d ${q.price ? priceJoin(q.price, sql`d.day`) : sql``}
    WHERE d.measurement_point_id = ANY(${ids}::int[]) AND ${where}`;
}

function source(q: SeriesQuery, from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): SQL {
  const ids = pgNumberArray(q.pointIds);
  const { resolution } = q.plan;
  if (resolution === 'HOUR')
    return hourlySource(q, ids, from.toInstant().toString(), to.toInstant().toString());
  const fromDate = from.toPlainDate();
  const toDate = to.toPlainDate();
  const inRange = (a: Temporal.PlainDate, b: Temporal.PlainDate) =>
    sql`d.day >= ${a.toString()}::date AND d.day < ${b.toString()}::date`;
  if (resolution === 'DAY') return dailySource(q, ids, sql`d.day::text`, inRange(fromDate, toDate));
  if (resolution === 'WEEK') {
    return dailySource(
      q,
      ids,
      sql`date_trunc('week', d.day::timestamp)::date::text`,
      inRange(fromDate, toDate),
    );
  }
  const unit = resolution === 'MONTH' ? sql.raw(`'month'`) : sql.raw(`'year'`);
  const daily = (key: SQL) => sql`date_trunc(${unit}, ${key}::timestamp)::date::text`;
  // Prices may change within a month, so cost is summed from days.
  if (q.price) return dailySource(q, ids, daily(sql`d.day`), inRange(fromDate, toDate));
  // Whole months from monthly_rollups; the partial months at either edge from daily_rollups.
  let wholeFrom = fromDate.day === 1 ? fromDate : fromDate.with({ day: 1 }).add({ months: 1 });
  let wholeTo = toDate.with({ day: 1 });
  if (Temporal.PlainDate.compare(wholeFrom, wholeTo) >= 0) {
    wholeFrom = toDate;
    wholeTo = toDate;
  }
  const edges = sql`(${inRange(fromDate, wholeFrom)} OR ${inRange(wholeTo, toDate)})`;
  return sql`SELECT ${daily(sql`m.month`)} AS k, m.sum AS x, m.count AS c FROM monthly_rollups m
      WHERE m.measurement_point_id = ANY(${ids}::int[])
        AND m.month >= ${wholeFrom.toString()}::date AND m.month < ${wholeTo.toString()}::date
    UNION ALL ${dailySource(q, ids, daily(sql`d.day`), edges)}`;
}

/**
 * Every series' value per bucket of its plan, in one SQL query for all of them; null where no point has
 * data. Each series' rows are tagged with its index, so sums and counts group per series and bucket.
 */
export async function seriesValues(db: Db, queries: SeriesQuery[]): Promise<(number | null)[][]> {
  const none = () => queries.map((q) => q.plan.keys.map((): number | null => null));
  const parts = queries.flatMap((q, i) =>
    q.pointIds.length === 0
      ? []
      : q.windows.map((w) => sql`SELECT ${i}::int AS i, u.k, u.x, u.c FROM (${source(q, w.from, w.to)}) u`),
  );
  if (parts.length === 0) return none();
  const rows = await queryRows<{ i: number; k: string; x: string | null; c: string | null }>(
    db,
    sql`SELECT s.i, s.k, sum(s.x)::text AS x, sum(s.c)::text AS c
        FROM (${sql.join(parts, sql` UNION ALL `)}) s GROUP BY s.i, s.k`,
  );
  const byKey = new Map(rows.map((r) => [`${r.i}|${r.k}`, r]));
  return queries.map((q, i) =>
    q.plan.keys.map((key) => {
      const row = byKey.get(`${i}|${key}`);
      if (!row || row.x === null) return null;
      if (q.aggregation === 'sum') return Number(row.x);
      const count = Number(row.c);
      return count > 0 ? Number(row.x) / count : null;
    }),
  );
}
