/**
 * `tenantGraph`: values per Europe/Copenhagen bucket for units (all their points of a quantity combined,
 * summed or averaged per the quantity), measurement points, the property (its per-m² average) and the property's
 * own points (SOURCE), clipped to the caller's tenancy. HOURLY_VALUES is consumption, COST multiplies by the day's
 * price, CO2 by the property's factor (grams). Related series: PROPERTY, LAST_PERIOD, LAST_YEAR, degree days and
 * climate-corrected values, and the hca kWh estimate. A fixed number of SQL statements, whatever the period.
 */
import { inArray } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { GRAPH_TYPES, QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import { readAllocatorMonths } from '../../allocators/months.ts';
import { measurementPoints, propertyCo2Factors } from '../../db/schema.ts';
import { readDbOf, tokenToCheck } from '../../graphql/context.ts';
import { badInput, forbidden, parseInput } from '../../graphql/errors.ts';
import { callerUnitsAndPoints, clipToTenancies, propertyAccess, type UnitAccess } from '../access.ts';
import {
  type ClimateSeries,
  correctIntoBuckets,
  daysOfPlan,
  degreeDaysIntoBuckets,
  fineDay,
  lastYearDayOf,
  normalOn,
  sumKnown,
} from '../consumption/climate.ts';
import { climateInput, climateReport, dbId, isClimateCorrected, quantityId } from '../consumption/common.ts';
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
import { partialBuckets, type Range, relatedClip } from '../graph/clip.ts';
import { type SeriesQuery, seriesValuesAndEstimates } from '../graph/series.ts';
import { currentMeters, pointObject, propertyObject, unitObject } from '../objects.ts';
import type { Consumption, GraphSeries, QueryResolvers, RelatedValues } from '../types.generated.ts';

const localMinuteText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a local time YYYY-MM-DDTHH:mm')
  .refine((text) => {
    try {
      // The zone's DST shift moves a skipped time by an hour, never across a new year.
      const t = localMinute(text);
      return t.year >= 2000 && t.year <= 2100;
    } catch {
      return false;
    }
  }, 'must be a real date and time between the years 2000 and 2100');

const RELATED = ['PROPERTY', 'LAST_PERIOD', 'LAST_YEAR'] as const;

const inputSchema = z
  .object({
    graphType: z.enum(GRAPH_TYPES),
    resolution: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']),
    periodBegin: localMinuteText,
    periodEnd: localMinuteText,
    objects: z
      .array(
        z.object({
          kind: z.enum(['UNIT', 'MPOINT', 'PROPERTY', 'SOURCE']),
          id: dbId,
          scaleToUnitId: dbId.nullish(),
        }),
      )
      .min(1)
      .max(20),
    quantities: z.array(quantityId).min(1).max(10),
    normalized: z.boolean().nullish(),
    related: z.array(z.enum(RELATED)).max(3).nullish(),
    climateCorrection: climateInput,
    hcaKwhEstimate: z.boolean().nullish(),
  })
  .refine((g) => g.periodBegin < g.periodEnd, {
    message: 'periodBegin must be before periodEnd',
    path: ['periodEnd'],
  })
  .refine((g) => g.objects.every((o) => o.scaleToUnitId == null || o.kind === 'PROPERTY'), {
    message: 'scaleToUnitId is only for PROPERTY objects',
    path: ['objects'],
  });

type Source = Pick<SeriesQuery, 'pointIds' | 'property'>;

export const tenantGraph: NonNullable<QueryResolvers['tenantGraph']> = async (_parent, args, ctx) => {
  // The caller's token is checked with their tenancies below (callerCheckPlugin leaves it to this field).
  const caller = tokenToCheck(ctx);
  const input = parseInput(inputSchema, args.graph);
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
  const co2 =
    input.graphType === 'CO2'
      ? await reads
          .select()
          .from(propertyCo2Factors)
          .where(inArray(propertyCo2Factors.propertyId, propertyIds))
      : [];

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
  });
  // One read of the allocator months per property (and unit) the estimate is asked for, whatever the period.
  const allocatorReads = new Map<
    string,
    { propertyId: number; apartmentId: number | null; factor: number | null }
  >();
  const allocatorsOf = (propertyId: number, apartmentId: number | null, factor: number | null) => {
    const key = `${propertyId}:${apartmentId}`;
    allocatorReads.set(key, { propertyId, apartmentId, factor });
    return key;
  };
  const readAllocators = async () =>
    new Map(
      await Promise.all(
        [...allocatorReads].map(
          async ([key, r]) =>
            [
              key,
              await readAllocatorMonths(reads, {
                propertyId: r.propertyId,
                apartmentId: r.apartmentId,
                from: plan.from.toPlainDate().toString(),
                to: plan.to.subtract({ nanoseconds: 1 }).toPlainDate().toString(),
                operatorKwhPerUnit: r.factor,
              }),
            ] as const,
        ),
      ),
    );
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
          ? allocatorsOf(propertyId, o.kind === 'UNIT' ? o.id : null, access.settings.hcaKwhPerUnit)
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
    readAllocators(),
  ]);
  const nowMs = Date.now();
  /** Degree days by day key of a day plan's series. */
  const byDay = (days: BucketPlan | null, slot: number | null | undefined) => {
    const map = new Map<string, number | null>();
    if (days && slot != null) for (const [i, k] of days.keys.entries()) map.set(k, raws[slot]![i] ?? null);
    return (day: string) => map.get(day) ?? null;
  };

  const graphs: GraphSeries[] = resolved.map(({ o, access, scaleTo }, i): GraphSeries => {
    const { property, tenant } = access;
    const point = o.kind === 'MPOINT' ? pointById.get(o.id)! : null;
    const consumption = quantities.map((quantity, j): Consumption => {
      const info = QUANTITIES[quantity];
      const slot = slots[i]![j]!;
      const factorRow = co2.find((f) => f.propertyId === property.id && f.quantity === quantity);
      const factor =
        input.graphType === 'CO2' ? (factorRow ? Number(factorRow.gramPerQuantityUnit) : null) : 1;
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
        values.map((v) => (v === null || factor === null ? null : v * factor * scale));
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
        const hotWaterShare = climate.hotWaterShare ?? access.settings.hotWaterShare;
        const corrected = isClimateCorrected(quantity) && nowDays !== null;
        const slots = degreeDaySlots.get(property.id);
        const ddNow = byDay(nowDays, slots?.now);
        const ddLastYear = byDay(lastYearDays, slots?.lastYear);
        const lyDayOf = lastYearDayOf(plan, lastYear);
        // The fine values (hours or days) and their plan.
        const fine = plan.resolution === 'HOUR' || plan.resolution === 'DAY' ? plan : nowDays;
        const fineValues =
          fine === plan ? values : slot.dayMain !== null ? scaled(raws[slot.dayMain]!, mainScale) : [];
        const normal: ClimateSeries | null =
          corrected && fine
            ? correctIntoBuckets({
                plan,
                fine,
                values: fineValues,
                actual: (_, day) => ddNow(day),
                target: (_, day) => normalOn(Temporal.PlainDate.from(day)),
                hotWaterShare,
                nowMs,
              })
            : null;
        let lastYearCorrected: ClimateSeries | null = null;
        if (corrected && fine && lastYear && lastYearValues && related.has('LAST_YEAR')) {
          const lyFine = fine === plan ? lastYear : lastYearDays;
          const lyFineValues =
            fine === plan ? lastYearValues : slot.dayLy !== null ? scaled(raws[slot.dayLy]!, mainScale) : [];
          const lyIndex = lyFine ? new Map(lyFine.keys.map((k, i) => [k, i])) : new Map<string, number>();
          const lyDayKeys =
            lyFine?.resolution === 'HOUR' ? lyFine.starts.map((t) => t.toPlainDate().toString()) : null;
          // Last year's value of each fine slot of this period: the same hour (HOUR), else the matching day.
          lastYearCorrected = correctIntoBuckets({
            plan,
            fine,
            values: fine.keys.map((_, i) => {
              const j = lyDayKeys ? i : lyIndex.get(lyDayOf(fineDay(fine, i)));
              return j === undefined ? null : (lyFineValues[j] ?? null);
            }),
            actual: (i, day) => ddLastYear(lyDayKeys ? lyDayKeys[i]! : lyDayOf(day)),
            target: (_, day) => ddNow(day),
            hotWaterShare,
            nowMs: Number.POSITIVE_INFINITY,
          });
        }
        const dd = degreeDaysIntoBuckets(plan, ddNow, clips.get(plan)!);
        const normals = degreeDaysIntoBuckets(
          plan,
          (day) => normalOn(Temporal.PlainDate.from(day)),
          clips.get(plan)!,
        );
        const ddLy = lastYear ? degreeDaysIntoBuckets(lastYear, ddLastYear, clips.get(lastYear)!) : null;
        climateCorrection = climateReport({
          quantity,
          hotWaterShare,
          tooLong: nowDays === null,
          missing: normal?.missing ?? false,
          // Over the known days (a bucket's degree days are null when one of its days is unknown).
          degreeDays: nowDays ? sumKnown(nowDays.keys.map(ddNow)) : null,
          lastYearDegreeDays:
            lastYearDays && related.has('LAST_YEAR') ? sumKnown(lastYearDays.keys.map(ddLastYear)) : null,
          normalDegreeDays: corrected ? sumKnown(normals) : null,
        });
        if (normal) {
          relatedValues.push({ type: 'DEGREE_DAYS', values: dd });
          relatedValues.push({ type: 'NORMAL_DEGREE_DAYS', values: normals });
          relatedValues.push({ type: 'CLIMATE_NORMAL_YEAR', values: normal.buckets });
          if (lastYearCorrected && ddLy) {
            relatedValues.push({ type: 'LAST_YEAR_DEGREE_DAYS', values: ddLy });
            relatedValues.push({
              type: 'CLIMATE_LAST_YEAR',
              values: normal.missing ? lastYearCorrected.buckets.map(() => null) : lastYearCorrected.buckets,
            });
          }
        }
      }
      let kwhEstimate: string | null = null;
      if (slot.estimate !== null) {
        // Each bucket at its own month's kWh per unit (a bucket across months: weighted by the unit's units).
        const allocators = allocatorMonths.get(slot.estimate)!;
        const methods = new Set<string>();
        const estimated = values.map((v, b) => {
          const from = Temporal.Instant.fromEpochMilliseconds(plan.startMs[b]!).toZonedDateTimeISO(TIME_ZONE);
          const end = Temporal.Instant.fromEpochMilliseconds(plan.startMs[b + 1] ?? plan.to.epochMilliseconds)
            .toZonedDateTimeISO(TIME_ZONE)
            .subtract({ nanoseconds: 1 });
          const factor = allocators.factorBetween(
            from.toPlainDate().toString(),
            end.toPlainDate().add({ days: 1 }).toString(),
          );
          if (v === null || factor === null) return null;
          for (const m of factor.methods) methods.add(m);
          return v * factor.kwhPerUnit;
        });
        kwhEstimate = methods.size > 0 ? [...methods].join(',') : 'none';
        relatedValues.push({ type: 'KWH_ESTIMATE', values: estimated });
      }
      return {
        quantityDescriptor: { quantity, normalized, expressedAs: input.graphType === 'CO2' ? 'co2' : null },
        values,
        relatedValues,
        climateCorrection,
        kwhEstimateMethod: kwhEstimate,
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
