/**
 * The figures of `unitQuantityKpis`, split so one request can ask for several KPI sets of one unit in one SQL
 * statement (`tenancyDashboard` asks for three): `kpiInput` checks an input, `planKpis` adds its series to a
 * request's `seriesCollector` and returns what turns the statement's result into the QuantityKpi list. Reading the
 * unit's access, points and meters is the caller's (once per request).
 */
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { allocatorKwh } from '../../../lib/allocators.ts';
import { correctDays } from '../../../lib/degreeDays.ts';
import { GRAPH_TYPES, QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import type { readAllocatorMonths } from '../../allocators/months.ts';
import { parseInput } from '../../graphql/errors.ts';
import { clipToTenancies, type UnitAccess } from '../access.ts';
import { planBuckets } from '../graph/buckets.ts';
import type { seriesTotalsAndValues } from '../graph/series.ts';
import { pointObject } from '../objects.ts';
import type { QuantityKpi } from '../types.generated.ts';
import { normalOn, sumKnown } from './climate.ts';
import { climateInput, climateReport, dbId, isClimateCorrected, isoDate, quantityId } from './common.ts';
import {
  checkedPeriod,
  checkGraphType,
  isOpen,
  type PointRow,
  previousPeriodOf,
  previousYearOf,
  type seriesCollector,
  totalQuery,
} from './unitData.ts';

const inputSchema = z.object({
  unitId: dbId,
  quantities: z.array(quantityId).min(1).max(10),
  periodBegin: isoDate,
  periodEnd: isoDate,
  graphType: z.enum(GRAPH_TYPES).nullish(),
  normalized: z.boolean().nullish(),
  climateCorrection: climateInput,
  hcaKwhEstimate: z.boolean().nullish(),
});

/** A checked `UnitQuantityKpisInput`: BAD_USER_INPUT for bad input, before anything is read. */
export function kpiInput(raw: unknown) {
  const input = parseInput(inputSchema, raw);
  const quantities = [...new Set(input.quantities)] as QuantityId[];
  const graphType = input.graphType ?? 'HOURLY_VALUES';
  checkGraphType(graphType, quantities);
  const period = checkedPeriod(input.periodBegin, input.periodEnd);
  return {
    unitId: input.unitId,
    quantities,
    graphType,
    period,
    normalized: Boolean(input.normalized),
    climate: input.climateCorrection,
    /** The hca kWh estimate: the property's kWh per allocator unit month by month (one statement, any period). */
    wantsEstimate:
      Boolean(input.hcaKwhEstimate) && graphType === 'HOURLY_VALUES' && quantities.includes('hca'),
  };
}

export type KpiInput = ReturnType<typeof kpiInput>;
type Collector = ReturnType<typeof seriesCollector>;
type SeriesResult = Awaited<ReturnType<typeof seriesTotalsAndValues>>;
type Allocators = Awaited<ReturnType<typeof readAllocatorMonths>>;
type Meter = Parameters<typeof pointObject>[4];

/**
 * Adds the series of one KPI set of the unit (`access`, its `points` of at least the input's quantities) to the
 * request's collector. The returned function makes the KPIs from the statement's result, the points' current
 * meters and, with `wantsEstimate`, the property's allocator months.
 */
export function planKpis(
  input: KpiInput,
  access: UnitAccess,
  allPoints: readonly PointRow[],
  { add }: Pick<Collector, 'add'>,
) {
  const { quantities, graphType, period, climate } = input;
  const previous = previousPeriodOf(period);
  const lastYear = previousYearOf(period);
  const propertyId = access.property.id;
  const points = allPoints.filter((p) => quantities.includes(p.quantity as QuantityId));
  const estimateDays = input.wantsEstimate ? planBuckets('DAY', period.from, period.to) : null;
  // The climate correction is made day by day (src/lib/degreeDays.ts correctDays), as in tenantGraph and the
  // report: the days of the period and of the same dates a year earlier, with their values and degree days.
  const wantsDegreeDays = climate !== null && quantities.some(isClimateCorrected);
  const days = wantsDegreeDays
    ? {
        now: planBuckets('DAY', period.from, period.to),
        lastYear: planBuckets('DAY', lastYear.from, lastYear.to),
      }
    : null;
  const slots = quantities.map((quantity) => {
    const own = points.filter((p) => p.quantity === quantity);
    const ids = { pointIds: own.map((p) => p.id) };
    const rooms = [...new Set(own.flatMap((p) => (p.room ? [p.room] : [])))];
    // The unit's allocator units day by day (within its tenancies), priced month by month below.
    const estimate =
      estimateDays && quantity === 'hca'
        ? add({
            ...totalQuery(period, access, quantity, graphType, ids),
            plan: estimateDays,
            windows: clipToTenancies(estimateDays, access),
          })
        : null;
    return {
      quantity,
      total: add(totalQuery(period, access, quantity, graphType, ids)),
      previous: add(totalQuery(previous, access, quantity, graphType, ids)),
      lastYear: add(totalQuery(lastYear, access, quantity, graphType, ids)),
      property: add(
        totalQuery(period, access, quantity, graphType, {
          pointIds: [],
          property: { propertyId, quantity, measure: 'perM2' },
        }),
      ),
      rooms: rooms.map((room) => ({
        room,
        slot: add(
          totalQuery(period, access, quantity, graphType, {
            pointIds: own.filter((p) => p.room === room).map((p) => p.id),
          }),
        ),
      })),
      meters: own.map((point) => ({
        point,
        slot: add(totalQuery(period, access, quantity, graphType, { pointIds: [point.id] })),
      })),
      estimate,
      days:
        days && isClimateCorrected(quantity)
          ? {
              now: add({
                ...totalQuery(period, access, quantity, graphType, ids),
                plan: days.now,
                windows: clipToTenancies(days.now, access),
              }),
              lastYear: add({
                ...totalQuery(lastYear, access, quantity, graphType, ids),
                plan: days.lastYear,
                windows: clipToTenancies(days.lastYear, access),
              }),
            }
          : null,
    };
  });
  // Degree days per day of the period and of the same dates a year earlier, in the same query.
  const degreeDaysOf = (plan: NonNullable<typeof days>['now']) =>
    add({
      plan,
      pointIds: [],
      aggregation: 'sum',
      windows: [{ from: plan.from, to: plan.to }],
      degreeDays: { propertyId },
    });
  const degreeDaySlots = days ? { now: degreeDaysOf(days.now), lastYear: degreeDaysOf(days.lastYear) } : null;

  return (
    { totals, values: dayValues, estimatedHours }: SeriesResult,
    meters: Map<number, Meter>,
    allocators: Allocators | null,
  ): QuantityKpi[] => {
    const area = Number(access.apartment.areaM2);
    return slots.map((s): QuantityKpi => {
      const info = QUANTITIES[s.quantity];
      const normalized = input.normalized && info.normalizable;
      // CO2 series are in grams already: each day's value times that day's factor (totalQuery).
      const own = (slot: number) => {
        const v = totals[slot] ?? null;
        if (v === null) return null;
        return normalized ? v / area : v;
      };
      const propertyValue = (() => {
        const v = totals[s.property] ?? null;
        if (v === null) return null;
        return info.aggregation === 'sum' && !normalized ? v * area : v;
      })();
      const total = own(s.total);
      const previousYear = own(s.lastYear);
      const kpi: QuantityKpi = {
        quantityDescriptor: {
          quantity: s.quantity,
          normalized,
          expressedAs: graphType === 'CO2' ? 'co2' : null,
        },
        total,
        previousPeriod: own(s.previous),
        previousYear,
        propertyComparison: propertyValue,
        rooms: s.rooms.map((r) => ({ label: r.room, value: own(r.slot) })),
        meters: s.meters.map((m) => ({
          object: pointObject(
            m.point,
            access.apartment,
            access.property,
            access.tenant,
            meters.get(m.point.id),
          ),
          value: own(m.slot),
        })),
        partial: isOpen(period),
        previousYearClimateCorrected: null,
        totalNormalYear: null,
        climateCorrection: null,
        kwhEstimate: null,
        kwhEstimateMethod: null,
        estimatedHours: estimatedHours[s.total] ?? 0,
      };
      if (climate && days && degreeDaySlots) {
        const hotWaterShare = climate.hotWaterShare ?? access.settings.hotWaterShare;
        const applies = isClimateCorrected(s.quantity) && s.days !== null;
        const ddNow = dayValues[degreeDaySlots.now]!;
        const ddLastYear = dayValues[degreeDaySlots.lastYear]!;
        const nowMs = Date.now();
        const scale = (v: number | null) => (v === null ? null : normalized ? v / area : v);
        const lyIndex = new Map(days.lastYear.keys.map((k, i) => [k, i]));
        const lyOf = (i: number) =>
          lyIndex.get(Temporal.PlainDate.from(days.now.keys[i]!).subtract({ years: 1 }).toString());
        const open = days.now.startMs.map(
          (_, i) => (days.now.startMs[i + 1] ?? days.now.to.epochMilliseconds) > nowMs,
        );
        const normal = s.days
          ? correctDays(
              days.now.keys.map((k, i) => ({
                value: scale(dayValues[s.days!.now]![i] ?? null),
                actual: ddNow[i] ?? null,
                target: normalOn(Temporal.PlainDate.from(k)),
                open: open[i]!,
              })),
              hotWaterShare,
            )
          : null;
        const lastYearCorrected = s.days
          ? correctDays(
              days.now.keys.map((_, i) => {
                const j = lyOf(i);
                return {
                  value: j === undefined ? null : scale(dayValues[s.days!.lastYear]![j] ?? null),
                  actual: j === undefined ? null : (ddLastYear[j] ?? null),
                  target: ddNow[i] ?? null,
                  open: open[i]!,
                };
              }),
              hotWaterShare,
            )
          : null;
        kpi.climateCorrection = climateReport({
          quantity: s.quantity,
          hotWaterShare,
          missing: normal?.missing ?? false,
          degreeDays: applies ? sumKnown(ddNow) : null,
          lastYearDegreeDays: applies ? sumKnown(ddLastYear) : null,
          normalDegreeDays: applies
            ? sumKnown(days.now.keys.map((k) => normalOn(Temporal.PlainDate.from(k))))
            : null,
        });
        if (applies && normal && !normal.missing) {
          kpi.totalNormalYear = normal.value;
          kpi.previousYearClimateCorrected = lastYearCorrected?.missing
            ? null
            : (lastYearCorrected?.value ?? null);
        }
      }
      if (s.estimate !== null && estimateDays && allocators) {
        const unitsByMonth: Record<string, number> = {};
        estimateDays.keys.forEach((day, i) => {
          const v = dayValues[s.estimate!]![i];
          if (v != null)
            unitsByMonth[`${day.slice(0, 7)}-01`] = (unitsByMonth[`${day.slice(0, 7)}-01`] ?? 0) + v;
        });
        const estimate = allocatorKwh(unitsByMonth, allocators.factorOf);
        kpi.kwhEstimate = total === null ? null : estimate.kwh;
        kpi.kwhEstimateMethod = estimate.kwh === null ? 'none' : estimate.methods.join(',') || null;
        kpi.kwhPerUnit = total === null ? null : estimate.kwhPerUnit;
      }
      return kpi;
    });
  };
}
