/**
 * `tenantGraph`: values per Europe/Copenhagen bucket for units (all their points of a quantity combined,
 * summed or averaged per the quantity), measurement points, the property (its per-m² average) and the property's
 * own points (SOURCE), clipped to the caller's tenancy. HOURLY_VALUES is consumption, COST multiplies by the day's
 * price, CO2 by the day's CO₂ factor (grams). Related series: PROPERTY, LAST_PERIOD, LAST_YEAR, degree days and
 * climate-corrected values, and the hca kWh estimate. A fixed number of SQL statements, whatever the period.
 */
import { inArray } from 'drizzle-orm';
import { QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import { measurementPoints } from '../../db/schema.ts';
import { readDbOf, tokenToCheck } from '../../graphql/context.ts';
import { badInput, forbidden, parseInput } from '../../graphql/errors.ts';
import { callerUnitsAndPoints, clipToTenancies, propertyAccess, type UnitAccess } from '../access.ts';
import { daysOfPlan } from '../consumption/climate.ts';
import { isClimateCorrected } from '../consumption/common.ts';
import { checkGraphType } from '../consumption/unitData.ts';
import {
  type BucketPlan,
  lastYearPlan,
  localMinute,
  MAX_BUCKETS,
  openBuckets,
  planBuckets,
  previousPlan,
  TooManyBucketsError,
} from '../graph/buckets.ts';
import { climateOfSeries, type GraphPlans } from '../graph/climateSeries.ts';
import { partialBuckets, type Range, relatedClip } from '../graph/clip.ts';
import { graphInputSchema } from '../graph/input.ts';
import { allocatorReads, kwhEstimate } from '../graph/kwhEstimate.ts';
import { type SeriesQuery, seriesValuesAndEstimates } from '../graph/series.ts';
import { currentMeters, pointObject, propertyObject, unitObject } from '../objects.ts';
import type { Consumption, GraphSeries, QueryResolvers, RelatedValues } from '../types.generated.ts';

type Source = Pick<SeriesQuery, 'pointIds' | 'property'>;

export const tenantGraph: NonNullable<QueryResolvers['tenantGraph']> = async (_parent, args, ctx) => {
  // The caller's token is checked with their tenancies below (callerCheckPlugin leaves it to this field).
  const caller = tokenToCheck(ctx);
  const input = parseInput(graphInputSchema, args.graph);
  const quantities = input.quantities as QuantityId[];
  checkGraphType(input.graphType, quantities);
  let plan: BucketPlan;
  const asked: Range = { from: localMinute(input.periodBegin), to: localMinute(input.periodEnd) };
  try {
    plan = planBuckets(input.resolution, asked.from, asked.to);
  } catch (err) {
    if (!(err instanceof TooManyBucketsError)) throw err;
    throw badInput(
      `Range too large for ${input.resolution} resolution: at most ${MAX_BUCKETS[input.resolution]} buckets`,
    );
  }
  const related = new Set(input.related ?? []);
  const climate = input.climateCorrection;

  const db = ctx.db;
  // The caller and their access from the primary (`db`); the data from the read replica when set and fresh.
  const reads = readDbOf(ctx);
  const unitIds = input.objects.filter((o) => o.kind === 'UNIT').map((o) => o.id);
  const sourceIds = input.objects.filter((o) => o.kind === 'SOURCE').map((o) => o.id);
  // The caller and their access first: nothing else is read for an object the caller may not see. The caller's
  // units come with the points of the asked units and SOURCE properties, looked for only among the caller's
  // own (one statement, which also checks the caller's token).
  const { units, points: ownPoints } = await callerUnitsAndPoints(db, caller, {
    quantities,
    unitIds,
    sourceIds,
  });
  const pointIds = input.objects.filter((o) => o.kind === 'MPOINT').map((o) => o.id);
  const askedPoints = pointIds.length
    ? await db.select().from(measurementPoints).where(inArray(measurementPoints.id, pointIds))
    : [];
  const pointById = new Map(askedPoints.map((p) => [p.id, p]));
  const unitOf = (apartmentId: number | null | undefined): UnitAccess => {
    const unit = apartmentId == null ? undefined : units.get(apartmentId);
    if (!unit) throw forbidden();
    return unit;
  };
  /** Per object: whose tenancy windows and area apply, and the unit to scale PROPERTY values to. */
  const resolved = input.objects.map((o) => {
    if (o.kind === 'UNIT') return { o, access: unitOf(o.id), scaleTo: unitOf(o.id) };
    if (o.kind === 'MPOINT') {
      const unit = unitOf(pointById.get(o.id)?.apartmentId);
      return { o, access: unit, scaleTo: unit };
    }
    const { access } = propertyAccess(units, o.id);
    if (o.scaleToUnitId == null) return { o, access, scaleTo: null };
    const scaleTo = unitOf(o.scaleToUnitId);
    if (scaleTo.property.id !== o.id) throw forbidden();
    return { o, access, scaleTo };
  });

  const meterByPoint = await currentMeters(reads, pointIds);
  const propertyIds = [...new Set(resolved.map((r) => r.access.property.id))];

  const previous = related.has('LAST_PERIOD') ? previousPlan(plan) : null;
  const lastYear = related.has('LAST_YEAR') ? lastYearPlan(plan) : null;
  // Every plan's data is clipped to the asked period (the related plans to the matching part of theirs), so
  // the first and last buckets hold only the asked part and the bars add up to the period's total.
  const clips = new Map<BucketPlan, Range>([[plan, asked]]);
  if (previous) clips.set(previous, relatedClip(plan, previous, asked));
  if (lastYear) clips.set(lastYear, relatedClip(plan, lastYear, asked));
  const wantsDegreeDays = climate !== null && quantities.some(isClimateCorrected);
  // The climate correction is made day by day (src/lib/degreeDays.ts correctDays): the days of the asked
  // period and of its last-year match, with the degree days and, above DAY, the values of those days.
  const dayPlanOf = (p: BucketPlan) => {
    const clip = clips.get(p)!;
    return daysOfPlan({ ...p, from: clip.from, to: clip.to } as BucketPlan);
  };
  const nowDays = wantsDegreeDays ? dayPlanOf(plan) : null;
  const lastYearDays = wantsDegreeDays && lastYear ? dayPlanOf(lastYear) : null;
  for (const days of [nowDays, lastYearDays]) if (days) clips.set(days, { from: days.from, to: days.to });
  const fineNeeded =
    wantsDegreeDays &&
    (plan.resolution === 'WEEK' || plan.resolution === 'MONTH' || plan.resolution === 'YEAR');

  // Every series of the graph (main and related), read by one query; index bookkeeping in `slots`.
  const queries: SeriesQuery[] = [];
  const add = (q: SeriesQuery) => queries.push(q) - 1;
  const withPlan = (
    p: BucketPlan,
    source: Source,
    access: UnitAccess,
    quantity: QuantityId,
  ): SeriesQuery => ({
    plan: p,
    ...source,
    aggregation: QUANTITIES[quantity].aggregation,
    windows: clipToTenancies(clips.get(p) ?? p, access),
    ...(input.graphType === 'COST'
      ? { price: { propertyId: access.property.id, quantity, apartmentId: access.apartment.id } }
      : {}),
    ...(input.graphType === 'CO2' ? { co2: { propertyId: access.property.id, quantity } } : {}),
  });
  // One read of the allocator months per property (and unit) the estimate is asked for, whatever the period.
  const allocators = allocatorReads(reads, plan);
  const slots = resolved.map(({ o, access }) =>
    quantities.map((quantity) => {
      const propertyId = access.property.id;
      const propertySource: Source = {
        pointIds: [],
        property: { propertyId, quantity, measure: 'perM2' },
      };
      let source: Source;
      if (o.kind === 'PROPERTY') source = propertySource;
      else if (o.kind === 'MPOINT') {
        const point = pointById.get(o.id)!;
        source = { pointIds: point.quantity === quantity ? [point.id] : [] };
      } else {
        const belongs = (p: (typeof ownPoints)[number]) =>
          p.quantity === quantity &&
          (o.kind === 'UNIT' ? p.apartmentId === o.id : p.apartmentId === null && p.propertyId === o.id);
        source = { pointIds: ownPoints.filter(belongs).map((p) => p.id) };
      }
      const main = add(withPlan(plan, source, access, quantity));
      const property =
        related.has('PROPERTY') && o.kind !== 'SOURCE'
          ? add(withPlan(plan, propertySource, access, quantity))
          : null;
      const last = previous ? add(withPlan(previous, source, access, quantity)) : null;
      const ly = lastYear ? add(withPlan(lastYear, source, access, quantity)) : null;
      // Above DAY, the correction needs the days' values of the series (and of last year's).
      const corrects = fineNeeded && isClimateCorrected(quantity);
      const dayMain = corrects && nowDays ? add(withPlan(nowDays, source, access, quantity)) : null;
      const dayLy = corrects && lastYearDays ? add(withPlan(lastYearDays, source, access, quantity)) : null;
      // For the hca kWh estimate: the property's kWh per allocator unit, month by month (read beside the series).
      const estimate =
        input.hcaKwhEstimate && quantity === 'hca' && input.graphType === 'HOURLY_VALUES'
          ? allocators.add(propertyId, o.kind === 'UNIT' ? o.id : null, access.settings.hcaKwhPerUnit)
          : null;
      return { main, property, last, ly, estimate, dayMain, dayLy };
    }),
  );
  // Degree days per property and day, as series of the same query.
  const degreeDaySeries = (days: BucketPlan | null, propertyId: number) =>
    days
      ? add({
          plan: days,
          pointIds: [],
          aggregation: 'sum',
          windows: [{ from: days.from, to: days.to }],
          degreeDays: { propertyId },
        })
      : null;
  const degreeDaySlots = new Map(
    (wantsDegreeDays ? propertyIds : []).map((id) => [
      id,
      { now: degreeDaySeries(nowDays, id), lastYear: degreeDaySeries(lastYearDays, id) },
    ]),
  );
  const [{ values: raws, estimated }, allocatorMonths] = await Promise.all([
    seriesValuesAndEstimates(reads, queries),
    allocators.read(),
  ]);
  const nowMs = Date.now();
  /** Degree days by day key of a day plan's series. */
  const byDay = (days: BucketPlan | null, slot: number | null | undefined) => {
    const map = new Map<string, number | null>();
    if (days && slot != null) for (const [i, k] of days.keys.entries()) map.set(k, raws[slot]![i] ?? null);
    return (day: string) => map.get(day) ?? null;
  };

  const plans: GraphPlans = {
    plan,
    lastYear,
    nowDays,
    lastYearDays,
    clips,
    wantsLastYear: related.has('LAST_YEAR'),
    nowMs,
  };

  const graphs: GraphSeries[] = resolved.map(({ o, access, scaleTo }, i): GraphSeries => {
    const { property, tenant } = access;
    const point = o.kind === 'MPOINT' ? pointById.get(o.id)! : null;
    const consumption = quantities.map((quantity, j): Consumption => {
      const info = QUANTITIES[quantity];
      const slot = slots[i]![j]!;
      const perM2Wanted = Boolean(input.normalized) && info.normalizable && o.kind !== 'SOURCE';
      const area = scaleTo ? Number(scaleTo.apartment.areaM2) : null;
      // Own values are totals, divided by the area when per m²; property values are per m² (summed
      // quantities), times the area unless per m² was asked (or there is no unit to scale to).
      const ownScale = perM2Wanted && area ? 1 / area : 1;
      const propertyPerM2 = info.aggregation === 'sum';
      const propertyScale = propertyPerM2 && !perM2Wanted && area ? area : 1;
      const mainIsProperty = o.kind === 'PROPERTY';
      const normalized = perM2Wanted || (mainIsProperty && propertyPerM2 && !scaleTo && info.normalizable);
      const scaled = (values: (number | null)[], scale: number) =>
        values.map((v) => (v === null ? null : v * scale));
      const mainScale = mainIsProperty ? propertyScale : ownScale;
      const values = scaled(raws[slot.main]!, mainScale);
      const relatedValues: RelatedValues[] = [];
      if (slot.property !== null)
        relatedValues.push({ type: 'PROPERTY', values: scaled(raws[slot.property]!, propertyScale) });
      if (slot.last !== null)
        relatedValues.push({ type: 'LAST_PERIOD', values: scaled(raws[slot.last]!, mainScale) });
      const lastYearValues = slot.ly !== null ? scaled(raws[slot.ly]!, mainScale) : null;
      if (lastYearValues && related.has('LAST_YEAR'))
        relatedValues.push({ type: 'LAST_YEAR', values: lastYearValues });

      let climateCorrection: Consumption['climateCorrection'] = null;
      if (climate) {
        const dd = degreeDaySlots.get(property.id);
        const corrections = climateOfSeries(plans, {
          quantity,
          hotWaterShare: climate.hotWaterShare ?? access.settings.hotWaterShare,
          values,
          dayValues: slot.dayMain !== null ? scaled(raws[slot.dayMain]!, mainScale) : null,
          lastYearValues,
          lastYearDayValues: slot.dayLy !== null ? scaled(raws[slot.dayLy]!, mainScale) : null,
          ddNow: byDay(nowDays, dd?.now),
          ddLastYear: byDay(lastYearDays, dd?.lastYear),
        });
        climateCorrection = corrections.climateCorrection;
        relatedValues.push(...corrections.related);
      }
      let kwhEstimateMethod: string | null = null;
      if (slot.estimate !== null) {
        const estimate = kwhEstimate(plan, values, allocatorMonths.get(slot.estimate)!);
        kwhEstimateMethod = estimate.method;
        relatedValues.push({ type: 'KWH_ESTIMATE', values: estimate.values });
      }
      return {
        quantityDescriptor: { quantity, normalized, expressedAs: input.graphType === 'CO2' ? 'co2' : null },
        values,
        relatedValues,
        climateCorrection,
        kwhEstimateMethod,
        estimated: estimated[slot.main]!,
      };
    });
    const object =
      o.kind === 'UNIT'
        ? unitObject(access.apartment, property, tenant)
        : o.kind === 'MPOINT'
          ? pointObject(point!, access.apartment, property, tenant, meterByPoint.get(point!.id))
          : propertyObject(property, o.kind);
    return { type: input.graphType, object, consumption };
  });
  return {
    // The plan's frozen labels, shared with other requests: the executor only reads them.
    timestamps: plan.labels as string[],
    graphs,
    partial: partialBuckets(plan, asked, openBuckets(plan, nowMs)),
  };
};
