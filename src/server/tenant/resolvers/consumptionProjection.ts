/**
 * `consumptionProjection`: this month's (or year's) consumption and cost so far, and where they end at the same
 * daily pace ("at this pace, this month ends near X kr"), with the period's fixed charges for the bill.
 * Daily values and daily costs of every quantity come from one SQL statement.
 */
import { asc, eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { TIME_ZONE, todayInCopenhagen } from '../../../lib/periods.ts';
import { QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import { prices } from '../../db/schema.ts';
import { readDbOf, requireUserId } from '../../graphql/context.ts';
import { badInput, parseInput } from '../../graphql/errors.ts';
import { clipToTenancies } from '../access.ts';
import { dbId, isoDate, quantityId } from '../consumption/common.ts';
import { chargeBetween, chargesOverlapping } from '../consumption/fixedCharges.ts';
import { loadUnit, refuseAveraged } from '../consumption/unitData.ts';
import { planBuckets } from '../graph/buckets.ts';
import { type SeriesQuery, seriesValues } from '../graph/series.ts';
import type { Projection, QueryResolvers } from '../types.generated.ts';

/** Fewest days with data before a projection is made. */
const MIN_PROJECTION_DAYS = 3;

const inputSchema = z.object({
  unitId: dbId,
  quantities: z.array(quantityId).min(1).max(10),
  span: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']),
  asOf: isoDate.nullish(),
});

export const consumptionProjection: NonNullable<QueryResolvers['consumptionProjection']> = async (
  _parent,
  args,
  ctx,
) => {
  const userId = requireUserId(ctx);
  const input = parseInput(inputSchema, args.input);
  if (input.span !== 'MONTH' && input.span !== 'YEAR')
    throw badInput('A projection is for a MONTH or a YEAR');
  const quantities = [...new Set(input.quantities)] as QuantityId[];
  refuseAveraged('A projection', quantities);
  const asOf = input.asOf ? Temporal.PlainDate.from(input.asOf) : todayInCopenhagen();
  const begin = input.span === 'MONTH' ? asOf.with({ day: 1 }) : asOf.with({ month: 1, day: 1 });
  const end = input.span === 'MONTH' ? begin.add({ months: 1 }) : begin.add({ years: 1 });
  const db = ctx.db;
  // The caller and their access from the primary (`db`); the data from the read replica when set and fresh.
  const reads = readDbOf(ctx);

  const { access, points } = await loadUnit(db, userId, input.unitId, quantities);
  // Days so far: from the first of the period up to (not including) asOf, one bucket per day.
  const soFarPlan =
    Temporal.PlainDate.compare(begin, asOf) < 0
      ? planBuckets('DAY', begin.toZonedDateTime(TIME_ZONE), asOf.toZonedDateTime(TIME_ZONE))
      : null;
  const queries: SeriesQuery[] = [];
  if (soFarPlan) {
    for (const quantity of quantities) {
      const base = {
        plan: soFarPlan,
        pointIds: points.filter((p) => p.quantity === quantity).map((p) => p.id),
        aggregation: QUANTITIES[quantity].aggregation,
        windows: clipToTenancies(soFarPlan, access),
      };
      queries.push(base, {
        ...base,
        price: { propertyId: access.property.id, quantity, apartmentId: access.apartment.id },
      });
    }
  }
  const daily = queries.length ? await seriesValues(reads, queries) : [];
  const priceRows = await reads
    .select({ quantity: prices.quantity, currency: prices.currency })
    .from(prices)
    .where(eq(prices.propertyId, access.property.id))
    .orderBy(asc(prices.validFrom));
  const charges = await chargesOverlapping(reads, access.property.id, begin, end);

  // Days of the period inside the tenancy: what the projection scales to.
  const periodWindows = clipToTenancies(
    { from: begin.toZonedDateTime(TIME_ZONE), to: end.toZonedDateTime(TIME_ZONE) },
    access,
  );
  const tenancyDays = periodWindows.reduce(
    (n, w) => n + w.from.toPlainDate().until(w.to.toPlainDate(), { largestUnit: 'days' }).days,
    0,
  );

  return quantities.map((quantity, j): Projection => {
    const values = daily[2 * j] ?? [];
    const costs = daily[2 * j + 1] ?? [];
    const withData = values.filter((v): v is number => v !== null);
    const soFar = withData.length ? withData.reduce((a, b) => a + b, 0) : null;
    const knownCosts = costs.filter((v): v is number => v !== null);
    const costSoFar = knownCosts.length ? knownCosts.reduce((a, b) => a + b, 0) : null;
    const enough = withData.length >= MIN_PROJECTION_DAYS;
    const projected = enough && soFar !== null ? (soFar / withData.length) * tenancyDays : null;
    // Cost per day of the days that have a cost, at the same pace.
    const projectedCost =
      enough && costSoFar !== null && knownCosts.length >= MIN_PROJECTION_DAYS
        ? (costSoFar / knownCosts.length) * tenancyDays
        : null;
    const own = charges.filter((c) => c.quantity === quantity);
    const fixed = own.length
      ? own.reduce((sum, c) => sum + (chargeBetween(c, begin, end, access) ?? 0), 0)
      : null;
    const currency =
      priceRows.filter((p) => p.quantity === quantity).at(-1)?.currency ?? own[0]?.currency ?? null;
    return {
      quantityDescriptor: { quantity, normalized: false, expressedAs: null },
      periodBegin: begin.toString(),
      periodEnd: end.subtract({ days: 1 }).toString(),
      daysElapsed: withData.length,
      daysTotal: tenancyDays,
      soFar,
      costSoFar,
      projected,
      projectedCost,
      fixedCharges: fixed === null ? null : Math.round(fixed * 100) / 100,
      currency,
      method: 'linear-daily-average',
    };
  });
};
