/**
 * What the unit-level operations (KPIs, table, projection) share: the checked input period, access to one unit,
 * its points and meters, in a fixed number of statements (COST and CO2 apply the day's price or CO₂ factor in the
 * series' SQL).
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { firstWithoutCost, QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import type { Db } from '../../db/client.ts';
import { measurementPoints, meters } from '../../db/schema.ts';
import { badInput } from '../../graphql/errors.ts';
import { clipToTenancies, type UnitAccess, unitAccess } from '../access.ts';
import type { BucketPlan } from '../graph/buckets.ts';
import type { SeriesQuery } from '../graph/series.ts';
import { dateRange } from './common.ts';

/** Longest period the date-based operations accept, in days (a little over three years). */
export const MAX_PERIOD_DAYS = 1100;

export type Period = ReturnType<typeof dateRange>;

/** The inclusive date period as a range; BAD_USER_INPUT when reversed or too long. */
export function checkedPeriod(begin: string, endInclusive: string): Period {
  const period = dateRange(begin, endInclusive);
  const days = period.fromDate.until(period.toDate, { largestUnit: 'days' }).days;
  if (days < 1) throw badInput('periodBegin must not be after periodEnd');
  if (days > MAX_PERIOD_DAYS) throw badInput(`Period too long: at most ${MAX_PERIOD_DAYS} days`);
  return period;
}

/** Periods derived from a period, by the period (dateRange shares them, so this remembers them too). */
const previousPeriods = new WeakMap<Period, Period>();
const previousYears = new WeakMap<Period, Period>();

/** The same number of days right before. */
export function previousPeriodOf(p: Period): Period {
  let previous = previousPeriods.get(p);
  if (!previous) {
    const days = p.fromDate.until(p.toDate, { largestUnit: 'days' }).days;
    previous = dateRange(
      p.fromDate.subtract({ days }).toString(),
      p.fromDate.subtract({ days: 1 }).toString(),
    );
    previousPeriods.set(p, previous);
  }
  return previous;
}

/** The same dates one year earlier. */
export function previousYearOf(p: Period): Period {
  let lastYear = previousYears.get(p);
  if (!lastYear) {
    lastYear = dateRange(
      p.fromDate.subtract({ years: 1 }).toString(),
      p.toDate.subtract({ days: 1 }).subtract({ years: 1 }).toString(),
    );
    previousYears.set(p, lastYear);
  }
  return lastYear;
}

/** Refuses `what` (COST, CO2, a projection) for a list with an averaged quantity, which has no cost or CO₂. */
export function refuseAveraged(what: string, quantities: readonly QuantityId[]): void {
  const averaged = firstWithoutCost(quantities);
  if (averaged) throw badInput(`${what} is only defined for consumption quantities, not ${averaged}`);
}

/** Checks that COST and CO2 are asked only for summed quantities. */
export function checkGraphType(graphType: string, quantities: readonly QuantityId[]): void {
  if (graphType !== 'HOURLY_VALUES') refuseAveraged(graphType, quantities);
}

export type PointRow = typeof measurementPoints.$inferSelect;

/** Access to one unit (FORBIDDEN first if it is not the caller's), then its points of the quantities. */
export async function loadUnit(db: Db, userId: number, unitId: number, quantities: QuantityId[]) {
  const access = (await unitAccess(db, userId, [unitId])).get(unitId)!;
  const points = await db
    .select()
    .from(measurementPoints)
    .where(and(eq(measurementPoints.apartmentId, unitId), inArray(measurementPoints.quantity, quantities)))
    .orderBy(measurementPoints.quantity, measurementPoints.room, measurementPoints.id);
  return { access, points };
}

/**
 * The unit's points of the quantities (in loadUnit's order) with the meter currently installed on each (as
 * objects.ts's currentMeters: the newest one not removed), in one statement. Only for a unit whose access the
 * caller has already been checked for.
 */
export async function pointsAndMeters(db: Db, unitId: number, quantities: QuantityId[]) {
  const rows = await db
    .select({ point: measurementPoints, meter: meters })
    .from(measurementPoints)
    .leftJoin(meters, and(eq(meters.measurementPointId, measurementPoints.id), isNull(meters.removedAt)))
    .where(and(eq(measurementPoints.apartmentId, unitId), inArray(measurementPoints.quantity, quantities)))
    .orderBy(
      measurementPoints.quantity,
      measurementPoints.room,
      measurementPoints.id,
      desc(meters.installedAt),
    );
  const points: PointRow[] = [];
  const meterOf = new Map<number, typeof meters.$inferSelect>();
  for (const { point, meter } of rows) {
    if (points.at(-1)?.id !== point.id) points.push(point);
    if (meter && !meterOf.has(point.id)) meterOf.set(point.id, meter);
  }
  return { points, meters: meterOf };
}

/** A plan over a whole period for totals (months from monthly_rollups, edges from daily_rollups). */
function totalPlan(p: Period): BucketPlan {
  return { resolution: 'MONTH', starts: [], startMs: [], keys: [], labels: [], from: p.from, to: p.to };
}

/** A totals query over a period, clipped to the unit's tenancies. */
export function totalQuery(
  p: Period,
  access: UnitAccess,
  quantity: QuantityId,
  graphType: string,
  source: Pick<SeriesQuery, 'pointIds' | 'property'>,
): SeriesQuery {
  const plan = totalPlan(p);
  return {
    plan,
    ...source,
    aggregation: QUANTITIES[quantity].aggregation,
    windows: clipToTenancies(plan, access),
    ...(graphType === 'COST'
      ? { price: { propertyId: access.property.id, quantity, apartmentId: access.apartment.id } }
      : {}),
    ...(graphType === 'CO2' ? { co2: { propertyId: access.property.id, quantity } } : {}),
  };
}

/** Whether a period has not ended yet. */
export function isOpen(p: Period, now: Temporal.Instant = Temporal.Now.instant()): boolean {
  return Temporal.Instant.compare(p.to.toInstant(), now) > 0;
}

/**
 * Collects the series of one request; a series asked for twice (a room with one meter, a quantity with one point)
 * is read once. `add` returns the index of the series' value in the query result.
 */
export function seriesCollector() {
  const queries: SeriesQuery[] = [];
  const seen = new Map<string, number>();
  const add = (q: SeriesQuery): number => {
    const key = JSON.stringify([
      [...q.pointIds].sort((a, b) => a - b),
      q.property ?? null,
      q.price ?? null,
      q.co2 ?? null,
      q.aggregation,
      q.plan.resolution,
      // Instants, not ISO texts: every plan and window is a Copenhagen time, and formatting one costs more.
      q.plan.from.epochMilliseconds,
      q.plan.to.epochMilliseconds,
      q.windows.map((w) => [w.from.epochMilliseconds, w.to.epochMilliseconds]),
    ]);
    const known = seen.get(key);
    if (known !== undefined) return known;
    seen.set(key, queries.length);
    return queries.push(q) - 1;
  };
  return { queries, add };
}
