/** Degree days (graddage): how much colder than the heating limit each day was, summed. Pure. */

/** The heating limit used for Danish degree days: 17 °C. */
export const DEGREE_DAY_BASE_C = 17;

/** One day's mean outdoor temperature. */
export interface DailyMean {
  day: string;
  meanC: number;
}

/** Σ max(0, base − mean) over the days given, rounded to 0.1; null without any day. */
export function degreeDays(days: readonly DailyMean[], baseC = DEGREE_DAY_BASE_C): number | null {
  if (days.length === 0) return null;
  const total = days.reduce((sum, d) => sum + Math.max(0, baseC - d.meanC), 0);
  return Math.round(total * 10) / 10;
}

/**
 * Last year's heat scaled to this year's weather: heat × (degree days now / degree days then).
 * Null when either month had no heating need, where the ratio means nothing.
 */
export function climateCorrected(
  heatThen: number,
  degreeDaysThen: number,
  degreeDaysNow: number,
): number | null {
  if (degreeDaysThen <= 0 || degreeDaysNow <= 0) return null;
  return (heatThen * degreeDaysNow) / degreeDaysThen;
}
