/**
 * One SQL query for all series of a graph: the values of sets of measurement points, combined per bucket, read from the
 * coarsest table that answers the resolution (HOUR: hourly_consumption; DAY, WEEK: daily_rollups;
 * MONTH, YEAR: monthly_rollups for whole months plus daily_rollups for partial months at the edges).
 * So the rows read follow the buckets returned, not the raw hours in the range.
 */
import { type SQL, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { epochDay } from '../../../lib/degreeDays.ts';
import { TIME_ZONE } from '../../../lib/periods.ts';
import type { Aggregation } from '../../../lib/quantities.ts';
import type { Db } from '../../db/client.ts';
import { pgNumberArray, queryRows } from '../../db/sql.ts';
import { MIN_HOURS_PER_DAY } from '../degreeDays.ts';
import { type BucketPlan, nextBucket } from './buckets.ts';

/** What one series is made of. */
export interface SeriesQuery {
  plan: BucketPlan;
  /** The points combined into this series (all of one quantity). */
  pointIds: number[];
  aggregation: Aggregation;
  /** The ranges data may come from (the plan's range clipped to the caller's tenancies), end exclusive. */
  windows: { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime }[];
  /** For cost: consumption times the price valid on each local day. */
  /**
   * Cost: values × the price of the day. `apartmentId`: the unit the values are of, for the pricing rule (allocator
   * units are not priced where a heat meter measures the same heat, src/lib/allocators.ts).
   */
  price?: { propertyId: number; quantity: string; apartmentId: number };
  /** CO₂: values × the grams of CO₂ per unit valid on each local day (property_co2_factors), as a price. */
  co2?: { propertyId: number; quantity: string };
  /**
   * Instead of points: all apartment points of a property's quantity, from property_daily_rollups
   * (property_hourly_rollups at HOUR). For summed quantities `perM2` gives the sum per m² of the apartments with data, `total` the plain sum;
   * averaged quantities are the property-wide average either way.
   */
  property?: { propertyId: number; quantity: string; measure: 'perM2' | 'total' };
  /**
   * Instead of points: the property's heating degree days (property_degree_days), summed per bucket. A bucket (or
   * total) is null unless every one of its days is known. Not for HOUR plans (degree days are per day).
   */
  degreeDays?: { propertyId: number };
}

/** The price valid on a local day, as a lateral join (the newest validity wins if two overlap). */
function priceJoin(price: NonNullable<SeriesQuery['price']>, day: SQL): SQL {
  return sql`CROSS JOIN LATERAL (
    SELECT p.price AS rate FROM prices p
    WHERE p.property_id = ${price.propertyId} AND p.quantity = ${price.quantity}
      AND p.valid_from <= ${day} AND (p.valid_to IS NULL OR p.valid_to > ${day})
      ${
        price.quantity === 'hca'
          ? sql`AND NOT EXISTS (SELECT 1 FROM measurement_points hm
                 WHERE hm.apartment_id = ${price.apartmentId} AND hm.quantity = 'heat-energy')`
          : sql``
      }
    ORDER BY p.valid_from DESC LIMIT 1) pr`;
}

/**
 * The rate of a series on a local day: the price (COST) or the CO₂ factor (CO2) valid that day, as a lateral
 * join named `pr`; a day without one drops out (no figure), as a day without a price. Empty for plain values.
 */
function rateJoin(q: SeriesQuery, day: SQL): SQL {
  if (q.price) return priceJoin(q.price, day);
  if (!q.co2) return sql``;
  return sql`CROSS JOIN LATERAL (
    SELECT f.gram_per_quantity_unit AS rate FROM property_co2_factors f
    WHERE f.property_id = ${q.co2.propertyId} AND f.quantity = ${q.co2.quantity}
      AND (f.valid_from IS NULL OR f.valid_from <= ${day}) AND (f.valid_to IS NULL OR f.valid_to > ${day})
    ORDER BY f.valid_from DESC NULLS LAST LIMIT 1) pr`;
}

/** A value times the series' rate of its day (rateJoin), or the value itself. */
function rated(q: SeriesQuery, value: SQL): SQL {
  return q.price || q.co2 ? sql`${value} * pr.rate` : value;
}

function hourlySource(q: SeriesQuery, ids: string, from: string, to: string): SQL {
  const day = sql`(h.hour_start AT TIME ZONE ${TIME_ZONE})::date`;
  return sql`SELECT extract(epoch FROM h.hour_start)::bigint::text AS k,
      ${rated(q, sql`h.value`)} AS x, 1 AS c, h.estimated::int AS e
    FROM hourly_consumption h ${rateJoin(q, day)}
    WHERE h.measurement_point_id = ANY(${ids}::int[])
      AND h.hour_start >= ${from}::timestamptz AND h.hour_start < ${to}::timestamptz`;
}

function dailySource(q: SeriesQuery, ids: string, key: SQL, where: SQL): SQL {
  return sql`SELECT ${key} AS k, ${rated(q, sql`d.sum`)} AS x, d.count AS c,
      d.estimated AS e
    FROM daily_rollups d ${rateJoin(q, sql`d.day`)}
    WHERE d.measurement_point_id = ANY(${ids}::int[]) AND ${where}`;
}

/**
 * Fewest apartments with data for a property figure to be shown: with two, one tenant could subtract their own
 * numbers and read the neighbour's. Buckets (hours, days) below it are gaps.
 */
export const MIN_PROPERTY_APARTMENTS = 3;

/** The bucket key of a row with a `d.day` date column, for DAY and coarser plans. */
function dayKey(resolution: BucketPlan['resolution']): SQL {
  if (resolution === 'DAY') return sql`d.day::text`;
  if (resolution === 'WEEK') return sql`date_trunc('week', d.day::timestamp)::date::text`;
  const unit = sql.raw(resolution === 'YEAR' ? `'year'` : `'month'`);
  return sql`date_trunc(${unit}, d.day::timestamp)::date::text`;
}

/** The property's complete days of degree days (SeriesQuery.degreeDays); c counts the days. */
function degreeDaySource(q: SeriesQuery, from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): SQL {
  return sql`SELECT ${dayKey(q.plan.resolution)} AS k, d.degree_days AS x, 1 AS c, 0 AS e
    FROM property_degree_days d
    WHERE d.property_id = ${q.degreeDays!.propertyId} AND d.hours >= ${MIN_HOURS_PER_DAY}
      AND d.day >= ${from.toPlainDate().toString()}::date AND d.day < ${to.toPlainDate().toString()}::date`;
}

/** Days in [from, to) (midnights). */
function daysBetween(from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): number {
  return epochDay(to.toPlainDate()) - epochDay(from.toPlainDate());
}

/** The property's apartments combined (SeriesQuery.property), per hour or per day. */
function propertySource(q: SeriesQuery, from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): SQL {
  const p = q.property!;
  const perM2 = p.measure === 'perM2' && q.aggregation === 'sum';
  const { resolution } = q.plan;
  if (resolution === 'HOUR') {
    const day = sql`(g.hour_start AT TIME ZONE ${TIME_ZONE})::date`;
    const value = perM2 ? sql`g.sum / nullif(g.area_m2, 0)` : sql`g.sum`;
    return sql`SELECT extract(epoch FROM g.hour_start)::bigint::text AS k,
        ${rated(q, value)} AS x, g.count AS c, 0 AS e
      FROM property_hourly_rollups g ${rateJoin(q, day)}
      WHERE g.property_id = ${p.propertyId} AND g.quantity = ${p.quantity}
        AND g.apartments >= ${MIN_PROPERTY_APARTMENTS}
        AND g.hour_start >= ${from.toInstant().toString()}::timestamptz
        AND g.hour_start < ${to.toInstant().toString()}::timestamptz`;
  }
  const key = dayKey(resolution);
  const value = perM2 ? sql`d.per_m2` : sql`d.sum`;
  return sql`SELECT ${key} AS k, ${rated(q, value)} AS x, d.count AS c, 0 AS e
    FROM property_daily_rollups d ${rateJoin(q, sql`d.day`)}
    WHERE d.property_id = ${p.propertyId} AND d.quantity = ${p.quantity}
      AND d.apartments >= ${MIN_PROPERTY_APARTMENTS}
      AND d.day >= ${from.toPlainDate().toString()}::date AND d.day < ${to.toPlainDate().toString()}::date`;
}

function source(q: SeriesQuery, from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): SQL {
  if (q.property) return propertySource(q, from, to);
  if (q.degreeDays) return degreeDaySource(q, from, to);
  const ids = pgNumberArray(q.pointIds);
  const { resolution } = q.plan;
  if (resolution === 'HOUR') {
    // Date's native ISO text: Temporal's formatting allocated more than the rest of a small graph's query.
    const iso = (t: Temporal.ZonedDateTime) => new Date(t.epochMilliseconds).toISOString();
    return hourlySource(q, ids, iso(from), iso(to));
  }
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
  // Prices and CO₂ factors may change within a month, so cost and CO₂ are summed from days.
  if (q.price || q.co2) return dailySource(q, ids, daily(sql`d.day`), inRange(fromDate, toDate));
  // Whole months from monthly_rollups; the partial months at either edge from daily_rollups.
  let wholeFrom = fromDate.day === 1 ? fromDate : fromDate.with({ day: 1 }).add({ months: 1 });
  let wholeTo = toDate.with({ day: 1 });
  if (Temporal.PlainDate.compare(wholeFrom, wholeTo) >= 0) {
    wholeFrom = toDate;
    wholeTo = toDate;
  }
  const edges = sql`(${inRange(fromDate, wholeFrom)} OR ${inRange(wholeTo, toDate)})`;
  return sql`SELECT ${daily(sql`m.month`)} AS k, m.sum AS x, m.count AS c, m.estimated AS e FROM monthly_rollups m
      WHERE m.measurement_point_id = ANY(${ids}::int[])
        AND m.month >= ${wholeFrom.toString()}::date AND m.month < ${wholeTo.toString()}::date
    UNION ALL ${dailySource(q, ids, daily(sql`d.day`), edges)}`;
}

/** Each series' rows, tagged with its index; series without points or windows add nothing. */
function unionParts(queries: SeriesQuery[]): SQL[] {
  return queries.flatMap((q, i) =>
    q.pointIds.length === 0 && !q.property && !q.degreeDays
      ? []
      : q.windows.map(
          (w) => sql`SELECT ${i}::int AS i, u.k, u.x, u.c, u.e FROM (${source(q, w.from, w.to)}) u`,
        ),
  );
}

/** A series' total from its summed row (sum, or average per the aggregation; degree days only when every day is known). */
function totalOf(q: SeriesQuery, row: { x: string | null; c: string | null } | undefined): number | null {
  if (!row || row.x === null) return null;
  if (q.degreeDays) {
    const days = q.windows.reduce((n, w) => n + daysBetween(w.from, w.to), 0);
    return Number(row.c) === days ? Number(row.x) : null;
  }
  if (q.aggregation === 'sum') return Number(row.x);
  const count = Number(row.c);
  return count > 0 ? Number(row.x) / count : null;
}

/** A bucket's value from its summed row (see seriesValues). */
function bucketOf(
  q: SeriesQuery,
  b: number,
  row: { x: string | null; c: string | null } | undefined,
): number | null {
  if (!row || row.x === null) return null;
  if (q.degreeDays) {
    const start = q.plan.starts[b]!;
    return Number(row.c) === daysBetween(start, nextBucket(start, q.plan.resolution)) ? Number(row.x) : null;
  }
  if (q.aggregation === 'sum') return Number(row.x);
  const count = Number(row.c);
  return count > 0 ? Number(row.x) / count : null;
}

/** One total per series over its windows (sum, or average per the aggregation); null where there is no data. */
export async function seriesTotals(db: Db, queries: SeriesQuery[]): Promise<(number | null)[]> {
  const parts = unionParts(queries);
  if (parts.length === 0) return queries.map(() => null);
  const rows = await queryRows<{ i: number; x: string | null; c: string | null }>(
    db,
    sql`SELECT s.i, sum(s.x)::text AS x, sum(s.c)::text AS c
        FROM (${sql.join(parts, sql` UNION ALL `)}) s GROUP BY s.i`,
  );
  const byIndex = new Map(rows.map((r) => [Number(r.i), r]));
  return queries.map((q, i) => totalOf(q, byIndex.get(i)));
}

/**
 * Both at once, in one SQL statement: every series' total and its value per bucket of its plan (GROUPING SETS).
 * For totals whose days are also needed (the day-by-day climate correction of the KPIs).
 */
export async function seriesTotalsAndValues(
  db: Db,
  queries: SeriesQuery[],
): Promise<{ totals: (number | null)[]; values: (number | null)[][]; estimatedHours: number[] }> {
  const parts = unionParts(queries);
  if (parts.length === 0)
    return {
      totals: queries.map(() => null),
      values: queries.map((q) => q.plan.keys.map(() => null)),
      estimatedHours: queries.map(() => 0),
    };
  const rows = await queryRows<{
    i: number;
    k: string | null;
    g: number;
    x: string | null;
    c: string | null;
    e: number | null;
  }>(
    db,
    sql`SELECT s.i, s.k, GROUPING(s.k)::int AS g, sum(s.x)::text AS x, sum(s.c)::text AS c, sum(s.e)::int AS e
        FROM (${sql.join(parts, sql` UNION ALL `)}) s GROUP BY GROUPING SETS ((s.i), (s.i, s.k))`,
  );
  const totals = new Map<number, (typeof rows)[number]>();
  const buckets = new Map<string, (typeof rows)[number]>();
  for (const r of rows) {
    if (Number(r.g) === 1) totals.set(Number(r.i), r);
    else buckets.set(`${r.i}|${r.k}`, r);
  }
  return {
    totals: queries.map((q, i) => totalOf(q, totals.get(i))),
    values: queries.map((q, i) => q.plan.keys.map((key, b) => bucketOf(q, b, buckets.get(`${i}|${key}`)))),
    estimatedHours: queries.map((_, i) => Number(totals.get(i)?.e ?? 0)),
  };
}

/**
 * Every series' value per bucket of its plan, in one SQL query for all of them; null where no point has
 * data. Each series' rows are tagged with its index, so sums and counts group per series and bucket.
 */
export async function seriesValues(db: Db, queries: SeriesQuery[]): Promise<(number | null)[][]> {
  return (await seriesValuesAndEstimates(db, queries)).values;
}

/**
 * seriesValues, and per series and bucket whether any hour counted in it is estimated (filled in between two
 * readings far apart: hourly_consumption.estimated). Property and degree-day series are never marked.
 */
export async function seriesValuesAndEstimates(
  db: Db,
  queries: SeriesQuery[],
): Promise<{ values: (number | null)[][]; estimated: boolean[][] }> {
  const parts = unionParts(queries);
  if (parts.length === 0)
    return {
      values: queries.map((q) => q.plan.keys.map((): number | null => null)),
      estimated: queries.map((q) => q.plan.keys.map(() => false)),
    };
  const rows = await queryRows<{
    i: number;
    k: string;
    x: string | null;
    c: string | null;
    e: number | null;
  }>(
    db,
    sql`SELECT s.i, s.k, sum(s.x)::text AS x, sum(s.c)::text AS c, sum(s.e)::int AS e
        FROM (${sql.join(parts, sql` UNION ALL `)}) s GROUP BY s.i, s.k`,
  );
  const byKey = new Map(rows.map((r) => [`${r.i}|${r.k}`, r]));
  return {
    values: queries.map((q, i) => q.plan.keys.map((key, b) => bucketOf(q, b, byKey.get(`${i}|${key}`)))),
    estimated: queries.map((q, i) => q.plan.keys.map((key) => Number(byKey.get(`${i}|${key}`)?.e ?? 0) > 0)),
  };
}
