/**
 * Heating degree days and the climate correction of heat (docs/domain.md, "Degree days").
 *
 * A day's heating degree days are max(0, 17 − the day's mean outdoor temperature), base 17 °C, the Danish
 * convention. Heat for space heating is taken as proportional to degree days; heat for hot water is not.
 * So a value v measured under DD degree days, with a hot-water share h, becomes under DD' degree days:
 *
 *     v' = v × (h + (1 − h) × DD' / DD)
 *
 * which leaves v unchanged when DD' = DD, whatever h is.
 */
import type { Temporal } from 'temporal-polyfill';

/** Base temperature of heating degree days, °C. */
export const DEGREE_DAY_BASE = 17;

/** Default share of heat that goes to hot water (not weather dependent). Typical Danish flats: 20–30 %. */
export const DEFAULT_HOT_WATER_SHARE = 0.25;

/** Highest hot-water share accepted; at 1 nothing would be corrected. */
export const MAX_HOT_WATER_SHARE = 0.9;

/**
 * Degree days below which a bucket is left as it is: with almost no space heating the ratio DD'/DD is noise
 * (a summer day with 0.2 degree days against a normal 2 would grow tenfold), and the heat there is mostly hot water.
 */
export const MIN_DEGREE_DAYS_TO_CORRECT = 0.5;

/** Quantities whose space-heating part follows the weather. */
export const CLIMATE_CORRECTED_QUANTITIES: readonly string[] = ['heat-energy', 'heat-volume', 'hca'];

/**
 * Degree days of a normal year per month (January first), base 17 °C. The total, 2906, is the Danish
 * normal year that district-heating utilities have long corrected to; the split over the months is our
 * approximation from the Danish seasonal temperature curve. Replace it with the utility's own table when one is
 * known: only this constant changes.
 */
export const NORMAL_YEAR_DEGREE_DAYS: readonly number[] = [
  506, 462, 430, 306, 158, 40, 6, 8, 58, 196, 323, 413,
];

/** Degree days of a day with this mean outdoor temperature. */
export function degreeDaysOfMean(meanCelsius: number): number {
  return Math.max(0, DEGREE_DAY_BASE - meanCelsius);
}

/** A normal year's degree days on one day: the month's normal spread evenly over its days. */
export function normalDegreeDaysOn(day: Temporal.PlainDate): number {
  return NORMAL_YEAR_DEGREE_DAYS[day.month - 1]! / day.daysInMonth;
}

/** Days since 1970-01-01 of a calendar date (cheap integer day arithmetic for long ranges). */
export function epochDay(day: Temporal.PlainDate): number {
  return Date.UTC(day.year, day.month - 1, day.day) / 86_400_000;
}

/** A normal year's degree days over the days [from, to). */
export function normalDegreeDaysBetween(from: Temporal.PlainDate, to: Temporal.PlainDate): number {
  let total = 0;
  const end = epochDay(to);
  for (let n = epochDay(from); n < end; n++) {
    const date = new Date(n * 86_400_000);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth();
    const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    total += NORMAL_YEAR_DEGREE_DAYS[month]! / daysInMonth;
  }
  return total;
}

/**
 * A heat value measured under `actual` degree days, restated for `target` degree days; only the space-heating
 * share (1 − hotWaterShare) is scaled. Null when there is no value or the degree days are unknown; unchanged
 * when `actual` is below MIN_DEGREE_DAYS_TO_CORRECT.
 */
export function climateCorrect(
  value: number | null,
  actual: number | null,
  target: number | null,
  hotWaterShare: number,
): number | null {
  if (value === null || actual === null || target === null) return null;
  if (actual < MIN_DEGREE_DAYS_TO_CORRECT) return value;
  return value * (hotWaterShare + (1 - hotWaterShare) * (target / actual));
}
