/**
 * Shared pieces of the consumption operations: input checks, the per-series scaling (CO2 factor, per m²), climate
 * correction per bucket, and the heat-cost-allocator kWh estimate.
 */
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import {
  CLIMATE_CORRECTED_QUANTITIES,
  climateCorrect,
  DEFAULT_HOT_WATER_SHARE,
  DEGREE_DAY_BASE,
  MAX_HOT_WATER_SHARE,
  normalDegreeDaysBetween,
} from '../../../lib/degreeDays.ts';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { isQuantityId } from '../../../lib/quantities.ts';
import { type BucketPlan, nextBucket } from '../graph/buckets.ts';
import type { ClimateCorrection } from '../types.generated.ts';

/** A database id as GraphQL sends it (ID is a string). */
export const dbId = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a numeric id')
  .transform(Number);

/** A quantity identifier of SPEC §3. */
export const quantityId = z
  .string()
  .refine(isQuantityId, { error: (issue) => `unknown quantity ${JSON.stringify(issue.input)}` });

/** A Copenhagen calendar date YYYY-MM-DD between 2000 and 2100. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((text) => {
    try {
      const d = Temporal.PlainDate.from(text, { overflow: 'reject' });
      return d.year >= 2000 && d.year <= 2100;
    } catch {
      return false;
    }
  }, 'must be a real date between the years 2000 and 2100');

/** The climate-correction input; the hot-water share defaults to DEFAULT_HOT_WATER_SHARE. */
export const climateInput = z
  .object({ hotWaterShare: z.number().min(0).max(MAX_HOT_WATER_SHARE).nullish() })
  .nullish()
  .transform((c) => (c ? { hotWaterShare: c.hotWaterShare ?? DEFAULT_HOT_WATER_SHARE } : null));

/** An inclusive date period as a [from, to) pair of Copenhagen midnights. */
export function dateRange(begin: string, endInclusive: string) {
  const from = Temporal.PlainDate.from(begin);
  const to = Temporal.PlainDate.from(endInclusive).add({ days: 1 });
  return {
    fromDate: from,
    toDate: to,
    from: from.toZonedDateTime(TIME_ZONE),
    to: to.toZonedDateTime(TIME_ZONE),
  };
}

/**
 * Degree days per bucket of a plan, from the degree-day series read with `dayPlan` (the plan itself, or its days
 * when the plan is HOUR: an hour then gets 1/24 of its day).
 */
export function degreeDaysPerBucket(
  plan: BucketPlan,
  dayPlan: BucketPlan,
  values: (number | null)[],
): (number | null)[] {
  if (plan.resolution !== 'HOUR') return values;
  const byDay = new Map(
    dayPlan.starts.map((start, i) => [start.toPlainDate().toString(), values[i] ?? null]),
  );
  return plan.starts.map((start) => {
    const v = byDay.get(start.toPlainDate().toString());
    return v == null ? null : v / 24;
  });
}

/** A normal year's degree days per bucket of a plan. */
export function bucketNormalDegreeDays(plan: BucketPlan): number[] {
  return plan.starts.map((start) => {
    const day = start.toPlainDate();
    if (plan.resolution === 'HOUR') return normalDegreeDaysBetween(day, day.add({ days: 1 })) / 24;
    return normalDegreeDaysBetween(day, nextBucket(start, plan.resolution).toPlainDate());
  });
}

/** Sum of a list, null if any entry is null (or the list is empty). */
export function sumOrNull(values: (number | null)[]): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return (values as number[]).reduce((a, b) => a + b, 0);
}

/** Whether degree-day correction applies to a quantity. */
export function isClimateCorrected(quantity: string): boolean {
  return CLIMATE_CORRECTED_QUANTITIES.includes(quantity);
}

/** The ClimateCorrection report of a series. */
export function climateReport(args: {
  quantity: string;
  hotWaterShare: number;
  degreeDays: number | null;
  lastYearDegreeDays: number | null;
  normalDegreeDays: number | null;
}): ClimateCorrection {
  const base = {
    baseTemperature: DEGREE_DAY_BASE,
    hotWaterShare: args.hotWaterShare,
    degreeDays: args.degreeDays,
    lastYearDegreeDays: args.lastYearDegreeDays,
    normalDegreeDays: args.normalDegreeDays,
  };
  if (!isClimateCorrected(args.quantity))
    return { ...base, applied: 'NONE', reason: `not a heating quantity (${args.quantity})` };
  if (args.degreeDays === null)
    return {
      ...base,
      applied: 'NONE',
      reason: 'no outdoor temperature (degree days) for all of the period',
    };
  return { ...base, applied: 'DEGREE_DAYS', reason: null };
}

/** Values restated for other degree days, bucket by bucket (see climateCorrect). */
export function correctSeries(
  values: (number | null)[],
  actual: (number | null)[],
  target: (number | null)[],
  hotWaterShare: number,
): (number | null)[] {
  return values.map((v, i) => climateCorrect(v, actual[i] ?? null, target[i] ?? null, hotWaterShare));
}

/** The description of the hca kWh estimate, with the factor used. */
export function kwhEstimateMethod(kwhPerUnit: number | null): string {
  if (kwhPerUnit === null)
    return 'not possible: the property has no heat-energy and allocator totals for this period';
  return `allocator units × property heat (kWh) ÷ property allocator units in the period = ${kwhPerUnit.toFixed(4)} kWh per unit (docs/domain.md)`;
}

/** The kWh per allocator unit over a period, from the property's heat and allocator totals. */
export function kwhPerUnit(propertyHeat: number | null, propertyUnits: number | null): number | null {
  if (propertyHeat === null || propertyUnits === null || propertyUnits <= 0) return null;
  return propertyHeat / propertyUnits;
}
