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

export { MAX_HOT_WATER_SHARE } from './reportSettings.ts';

/**
 * Degree days below which a bucket is left as it is: with almost no space heating the ratio DD'/DD is noise
 * (a summer day with 0.2 degree days against a normal 2 would grow tenfold), and the heat there is mostly hot water.
 */
const MIN_DEGREE_DAYS_TO_CORRECT = 0.5;

/** Quantities whose space-heating part follows the weather. */
export const CLIMATE_CORRECTED_QUANTITIES: readonly string[] = ['heat-energy', 'heat-volume', 'hca'];

/**
 * Degree days of a normal year per month (January first), base 17 °C, counting every day of the year as we do
 * (June–August are not zero): the normal year Danish district-heating utilities publish from Teknologisk
 * Institut's degree-day figures (e.g. Auning Fjernvarme, https://www.auningfjernvarme.dk/gode-raad/graddage, and
 * Kredsløb, https://www.kredslob.dk/produkter-og-services/fjernvarme/din-varme-og-forbrug/graddage), 3,009 in all.
 * Choice and source: docs/domain.md, "Degree days".
 */
export const NORMAL_YEAR_DEGREE_DAYS: readonly number[] = [
  468, 421, 421, 307, 180, 69, 40, 40, 111, 214, 328, 410,
];

/** Where NORMAL_YEAR_DEGREE_DAYS comes from, as shown beside corrected figures. */
export const NORMAL_YEAR_SOURCE = {
  name: 'Teknologisk Institut, normal year as published by Danish district-heating utilities',
  url: 'https://www.auningfjernvarme.dk/gode-raad/graddage',
} as const;

/** Degree days of a day with this mean outdoor temperature. */
export function degreeDaysOfMean(meanCelsius: number): number {
  return Math.max(0, DEGREE_DAY_BASE - meanCelsius);
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

/**
 * The correction factor of one day: a day's value v becomes v × factor. The space-heating share (1 − h) follows
 * DD'/DD; below MIN_DEGREE_DAYS_TO_CORRECT actual degree days the day stays as measured. Null when either degree
 * day figure is unknown.
 */
function dayFactor(actual: number | null, target: number | null, hotWaterShare: number): number | null {
  if (actual === null || target === null) return null;
  if (actual < MIN_DEGREE_DAYS_TO_CORRECT) return 1;
  return hotWaterShare + (1 - hotWaterShare) * (target / actual);
}

/** One day of a series to correct: its value, and the degree days it was measured under and is restated for. */
export interface CorrectionDay {
  value: number | null;
  actual: number | null;
  target: number | null;
  /** The day is not over yet (today): it is left as measured, as its degree days are not known yet. */
  open?: boolean;
}

/**
 * The one climate correction of the app, the report and the statement: each day is corrected by its own degree
 * days (dayFactor) and the days are summed, so any split of a period (hours, days, weeks, months) adds up to the
 * corrected total of the period. An hour takes its day's factor, so a day's hours add up to the day. A day that
 * is not over yet stays as measured. Null when no day has a value, or when a complete day with a value has no
 * degree days (`missing` is then true).
 */
export function correctDays(
  days: readonly CorrectionDay[],
  hotWaterShare: number,
): {
  value: number | null;
  missing: boolean;
} {
  let total: number | null = null;
  for (const d of days) {
    if (d.value === null) continue;
    const factor =
      d.open && (d.actual === null || d.target === null) ? 1 : dayFactor(d.actual, d.target, hotWaterShare);
    if (factor === null) return { value: null, missing: true };
    total = (total ?? 0) + d.value * factor;
  }
  return { value: total, missing: false };
}
