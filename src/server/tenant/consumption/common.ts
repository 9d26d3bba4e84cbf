/**
 * Shared pieces of the consumption operations: input checks, the per-series scaling (CO2 factor, per m²), climate
 * correction per bucket, and the heat-cost-allocator kWh estimate.
 */
import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import {
  CLIMATE_CORRECTED_QUANTITIES,
  DEGREE_DAY_BASE,
  MAX_HOT_WATER_SHARE,
} from '../../../lib/degreeDays.ts';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { isQuantityId } from '../../../lib/quantities.ts';
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

/** The climate-correction input; without a hot-water share, the property's setting (property_report_settings). */
export const climateInput = z
  .object({ hotWaterShare: z.number().min(0).max(MAX_HOT_WATER_SHARE).nullish() })
  .nullish()
  .transform((c) => (c ? { hotWaterShare: c.hotWaterShare ?? null } : null));

interface DateRange {
  readonly fromDate: Temporal.PlainDate;
  readonly toDate: Temporal.PlainDate;
  readonly from: Temporal.ZonedDateTime;
  readonly to: Temporal.ZonedDateTime;
}

/**
 * Periods made so far: the same few (this month, the last 30 days, the last year) come on every dashboard, and
 * Temporal values are immutable, so they can be shared. Up to 10,000, least recently used out.
 */
const ranges = new LRUCache<string, DateRange>({ max: 10_000 });

/** An inclusive date period as a [from, to) pair of Copenhagen midnights. */
export function dateRange(begin: string, endInclusive: string): DateRange {
  const key = `${begin}/${endInclusive}`;
  let range = ranges.get(key);
  if (!range) {
    const from = Temporal.PlainDate.from(begin);
    const to = Temporal.PlainDate.from(endInclusive).add({ days: 1 });
    range = Object.freeze({
      fromDate: from,
      toDate: to,
      from: from.toZonedDateTime(TIME_ZONE),
      to: to.toZonedDateTime(TIME_ZONE),
    });
    ranges.set(key, range);
  }
  return range;
}

/** Whether degree-day correction applies to a quantity. */
export function isClimateCorrected(quantity: string): boolean {
  return CLIMATE_CORRECTED_QUANTITIES.includes(quantity);
}

/**
 * The ClimateCorrection report of a series. Reasons are codes the clients translate: not_heating_quantity,
 * period_too_long (more days than a DAY graph may have), degree_days_missing (a complete day with consumption
 * has no outdoor temperature; the day not over yet never counts as missing).
 */
export function climateReport(args: {
  quantity: string;
  hotWaterShare: number;
  tooLong?: boolean;
  missing: boolean;
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
  if (!isClimateCorrected(args.quantity)) return { ...base, applied: 'NONE', reason: 'not_heating_quantity' };
  if (args.tooLong) return { ...base, applied: 'NONE', reason: 'period_too_long' };
  if (args.missing || args.degreeDays === null)
    return { ...base, applied: 'NONE', reason: 'degree_days_missing' };
  return { ...base, applied: 'DEGREE_DAYS', reason: null };
}
