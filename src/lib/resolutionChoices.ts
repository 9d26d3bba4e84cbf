/** Which resolutions a user may pick for a period, beside the one the span-type rule gives (SPEC §4). */
import { type Period, RESOLUTIONS, type Resolution, spanDays } from './periods.ts';

// Where it makes sense: hourly up to a week (≤ 168 points), daily up to about a year, weekly from two weeks,
// monthly from two months, yearly from a year. The span-type rule's own choice is always allowed.
const BOUNDS: Record<Resolution, { min: number; max: number }> = {
  hourly: { min: 1, max: 7 },
  daily: { min: 1, max: 366 },
  weekly: { min: 14, max: Number.POSITIVE_INFINITY },
  monthly: { min: 60, max: Number.POSITIVE_INFINITY },
  yearly: { min: 365, max: Number.POSITIVE_INFINITY },
};

/** The resolutions that make sense for a period, finest first; hourly only with hourly data. */
export function resolutionChoices(period: Period, hasHourlyData: boolean, ruled: Resolution): Resolution[] {
  const days = spanDays(period);
  return RESOLUTIONS.filter((r) => {
    if (r === ruled) return true;
    if (r === 'hourly' && !hasHourlyData) return false;
    return days >= BOUNDS[r].min && days <= BOUNDS[r].max;
  });
}
