/**
 * The climate correction of a series, day by day (src/lib/degreeDays.ts `correctDays`), grouped into the buckets
 * of a plan: every bucket is the sum of its corrected days (or hours, each with its day's factor), so the
 * corrected buckets add up to the corrected total whatever the resolution. Used by tenantGraph and
 * unitQuantityKpis; the monthly report and the statement call `correctDays` on the same days.
 */
import { Temporal } from 'temporal-polyfill';
import { type CorrectionDay, correctDays, NORMAL_YEAR_DEGREE_DAYS } from '../../../lib/degreeDays.ts';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { type BucketPlan, bucketStart, MAX_BUCKETS, nextBucket, planBuckets } from '../graph/buckets.ts';

/** The days of a plan's range as a DAY plan, or null when they are more than a DAY plan may have. */
export function daysOfPlan(plan: BucketPlan): BucketPlan | null {
  const from = plan.from.toPlainDate().toZonedDateTime(TIME_ZONE);
  // To the midnight at or after the plan's end, so an HOUR plan inside one day has that day.
  const endDate = plan.to.toPlainDate();
  const to = plan.to.hour === 0 && plan.to.minute === 0 ? endDate : endDate.add({ days: 1 });
  const days = from.toPlainDate().until(to, { largestUnit: 'days' }).days;
  if (days > MAX_BUCKETS.DAY) return null;
  return planBuckets('DAY', from, to.toZonedDateTime(TIME_ZONE));
}

/** A normal year's degree days of one date. */
export function normalOn(date: Temporal.PlainDate): number {
  return NORMAL_YEAR_DEGREE_DAYS[date.month - 1]! / date.daysInMonth;
}

/** Day key (YYYY-MM-DD) of each slot of a fine plan (its hours or days). */
function dayKeys(fine: BucketPlan): string[] {
  return fine.resolution === 'DAY' ? [...fine.keys] : fine.starts.map((s) => s.toPlainDate().toString());
}

/** Index of each fine slot's bucket in `plan` (-1 outside it). */
function bucketIndexOf(plan: BucketPlan, fine: BucketPlan): number[] {
  if (fine === plan || fine.resolution === plan.resolution) return fine.keys.map((_, i) => i);
  const index = new Map(plan.keys.map((k, i) => [k, i]));
  return fine.starts.map((s) => index.get(bucketStart(s, plan.resolution).toPlainDate().toString()) ?? -1);
}

/** Hours of a local day (23, 24 or 25). */
function hoursOfDay(day: string): number {
  const start = Temporal.PlainDate.from(day).toZonedDateTime(TIME_ZONE);
  return (start.add({ days: 1 }).epochMilliseconds - start.epochMilliseconds) / 3_600_000;
}

export interface ClimateSeries {
  /** Corrected value per bucket of the plan; all null when `missing`. */
  buckets: (number | null)[];
  total: number | null;
  /** A complete day with a value had no degree days: the correction is refused for the whole series. */
  missing: boolean;
}

/**
 * Corrects the values of a fine plan (the plan itself at HOUR and DAY, else its days) and groups them into the
 * plan's buckets. `actual(i)` and `target(i)` give the degree days of fine slot i's day; a day that has not ended
 * at `nowMs` stays as measured when its degree days are not known yet.
 */
export function correctIntoBuckets(args: {
  plan: BucketPlan;
  fine: BucketPlan;
  values: (number | null)[];
  actual: (i: number, day: string) => number | null;
  target: (i: number, day: string) => number | null;
  hotWaterShare: number;
  nowMs: number;
}): ClimateSeries {
  const { plan, fine } = args;
  const days = dayKeys(fine);
  const bucketOf = bucketIndexOf(plan, fine);
  const perBucket: CorrectionDay[][] = plan.keys.map(() => []);
  const all: CorrectionDay[] = [];
  const dayEnds = new Map<string, number>();
  fine.startMs.forEach((_, i) => {
    const day = days[i]!;
    let end = dayEnds.get(day);
    if (end === undefined) {
      end = Temporal.PlainDate.from(day).add({ days: 1 }).toZonedDateTime(TIME_ZONE).epochMilliseconds;
      dayEnds.set(day, end);
    }
    const entry: CorrectionDay = {
      value: args.values[i] ?? null,
      actual: args.actual(i, day),
      target: args.target(i, day),
      open: end > args.nowMs,
    };
    all.push(entry);
    const b = bucketOf[i]!;
    if (b >= 0) perBucket[b]!.push(entry);
  });
  const total = correctDays(all, args.hotWaterShare);
  if (total.missing) return { buckets: plan.keys.map(() => null), total: null, missing: true };
  return {
    buckets: perBucket.map((d) => correctDays(d, args.hotWaterShare).value),
    total: total.value,
    missing: false,
  };
}

/**
 * Degree days per bucket from per-day degree days: a bucket's days summed (null if one is unknown); an hour gets
 * its day's degree days ÷ the day's hours (23 or 25 on DST days), so a day's hours add up to the day.
 */
export function degreeDaysIntoBuckets(
  plan: BucketPlan,
  byDay: (day: string) => number | null,
  clip: { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime },
): (number | null)[] {
  if (plan.resolution === 'HOUR') {
    return dayKeys(plan).map((k) => {
      const v = byDay(k);
      return v === null ? null : v / hoursOfDay(k);
    });
  }
  // Only the days inside the clip (the asked period): the first and last bucket may be cut.
  const first = clip.from.toPlainDate();
  const endDate = clip.to.toPlainDate();
  const last = clip.to.hour === 0 && clip.to.minute === 0 ? endDate : endDate.add({ days: 1 });
  const later = (a: Temporal.PlainDate, b: Temporal.PlainDate) =>
    Temporal.PlainDate.compare(a, b) >= 0 ? a : b;
  const earlier = (a: Temporal.PlainDate, b: Temporal.PlainDate) =>
    Temporal.PlainDate.compare(a, b) <= 0 ? a : b;
  return plan.starts.map((start) => {
    let sum = 0;
    const end = earlier(nextBucket(start, plan.resolution).toPlainDate(), last);
    for (
      let d = later(start.toPlainDate(), first);
      Temporal.PlainDate.compare(d, end) < 0;
      d = d.add({ days: 1 })
    ) {
      const v = byDay(d.toString());
      if (v === null) return null;
      sum += v;
    }
    return sum;
  });
}

/** The day key of a fine plan's slot i. */
export function fineDay(fine: BucketPlan, i: number): string {
  return fine.resolution === 'DAY' ? fine.keys[i]! : fine.starts[i]!.toPlainDate().toString();
}

/**
 * The day of last year's plan that matches a day of this period: 52 weeks back under WEEK (ISO weeks stay
 * weeks, as lastYearPlan does), else the same date a year back (29 February takes the 28th).
 */
export function lastYearDayOf(plan: BucketPlan, lastYear: BucketPlan | null): (day: string) => string {
  const weeks = plan.resolution === 'WEEK';
  return (day) => {
    const d = Temporal.PlainDate.from(day);
    return (weeks || !lastYear ? d.subtract({ weeks: 52 }) : d.subtract({ years: 1 })).toString();
  };
}

/** Sum of the known values; null when none is known. */
export function sumKnown(values: readonly (number | null)[]): number | null {
  let sum: number | null = null;
  for (const v of values) if (v !== null) sum = (sum ?? 0) + v;
  return sum;
}
