/**
 * Time buckets for tenantGraph, in Europe/Copenhagen: hours (real hours, so 23 or 25 on DST days), days,
 * ISO weeks (Monday), months and years. The asked range is widened to whole buckets.
 */
import { Temporal } from 'temporal-polyfill';
import { startOfWeek, TIME_ZONE } from '../../../lib/periods.ts';
import type { Resolution } from '../types.generated.ts';

/** The buckets of a request: their starts, and the whole-bucket range they cover (end exclusive). */
export interface BucketPlan {
  resolution: Resolution;
  starts: Temporal.ZonedDateTime[];
  from: Temporal.ZonedDateTime;
  to: Temporal.ZonedDateTime;
}

/** Most buckets one series may have per resolution; keeps responses (and queries) small. */
export const MAX_BUCKETS: Record<Resolution, number> = {
  HOUR: 24 * 32,
  DAY: 1100,
  WEEK: 600,
  MONTH: 600,
  YEAR: 100,
};

/** Thrown when a range has more buckets than MAX_BUCKETS allows. */
export class TooManyBucketsError extends Error {}

/** The start of the bucket holding a moment. */
export function bucketStart(at: Temporal.ZonedDateTime, resolution: Resolution): Temporal.ZonedDateTime {
  if (resolution === 'HOUR') return at.round({ smallestUnit: 'hour', roundingMode: 'floor' });
  const date = at.toPlainDate();
  const first =
    resolution === 'DAY'
      ? date
      : resolution === 'WEEK'
        ? startOfWeek(date)
        : resolution === 'MONTH'
          ? date.with({ day: 1 })
          : date.with({ month: 1, day: 1 });
  return first.toZonedDateTime(TIME_ZONE);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: Temporal.ZonedDateTime, resolution: Resolution): Temporal.ZonedDateTime {
  switch (resolution) {
    case 'HOUR':
      return start.add({ hours: 1 });
    case 'DAY':
      return start.toPlainDate().add({ days: 1 }).toZonedDateTime(TIME_ZONE);
    case 'WEEK':
      return start.toPlainDate().add({ weeks: 1 }).toZonedDateTime(TIME_ZONE);
    case 'MONTH':
      return start.toPlainDate().add({ months: 1 }).toZonedDateTime(TIME_ZONE);
    case 'YEAR':
      return start.toPlainDate().add({ years: 1 }).toZonedDateTime(TIME_ZONE);
  }
}

/** Reads a Copenhagen local 'YYYY-MM-DDTHH:mm'; a time skipped by DST moves forward, as clocks do. */
export function localMinute(text: string): Temporal.ZonedDateTime {
  return Temporal.PlainDateTime.from(text, { overflow: 'reject' }).toZonedDateTime(TIME_ZONE, {
    disambiguation: 'compatible',
  });
}

/** Every bucket that overlaps [begin, end); throws TooManyBucketsError past MAX_BUCKETS. */
export function planBuckets(
  resolution: Resolution,
  begin: Temporal.ZonedDateTime,
  end: Temporal.ZonedDateTime,
): BucketPlan {
  const starts: Temporal.ZonedDateTime[] = [];
  const from = bucketStart(begin, resolution);
  let cursor = from;
  while (Temporal.ZonedDateTime.compare(cursor, end) < 0) {
    if (starts.length === MAX_BUCKETS[resolution]) throw new TooManyBucketsError();
    starts.push(cursor);
    cursor = nextBucket(cursor, resolution);
  }
  return { resolution, starts, from, to: cursor };
}

/** A bucket start as the API returns it: ISO 8601 with the Copenhagen offset, e.g. 2025-03-30T03:00:00+02:00. */
export function formatBucket(start: Temporal.ZonedDateTime): string {
  return start.toString({ timeZoneName: 'never', smallestUnit: 'second' });
}

/** The same number of buckets right before the plan (the LAST_PERIOD comparison), bucket i ↔ bucket i. */
export function previousPlan(plan: BucketPlan): BucketPlan {
  const n = plan.starts.length;
  const from =
    plan.resolution === 'HOUR'
      ? plan.from.subtract({ hours: n })
      : plan.from
          .toPlainDate()
          .subtract(
            plan.resolution === 'DAY'
              ? { days: n }
              : plan.resolution === 'WEEK'
                ? { weeks: n }
                : plan.resolution === 'MONTH'
                  ? { months: n }
                  : { years: n },
          )
          .toZonedDateTime(TIME_ZONE);
  return { ...planBuckets(plan.resolution, from, plan.from), resolution: plan.resolution };
}

/**
 * The plan's buckets one year earlier (the LAST_YEAR comparison), bucket i ↔ bucket i: the same local time a
 * calendar year back, except weeks, which go back 52 weeks so they stay ISO weeks (Monday starts).
 */
export function lastYearPlan(plan: BucketPlan): BucketPlan {
  const back = (t: Temporal.ZonedDateTime) =>
    plan.resolution === 'WEEK'
      ? t.toPlainDate().subtract({ weeks: 52 }).toZonedDateTime(TIME_ZONE)
      : plan.resolution === 'HOUR'
        ? t.subtract({ years: 1 }).round({ smallestUnit: 'hour', roundingMode: 'floor' })
        : t.toPlainDate().subtract({ years: 1 }).toZonedDateTime(TIME_ZONE);
  const starts = plan.starts.map(back);
  const last = starts.at(-1);
  return {
    resolution: plan.resolution,
    starts,
    from: starts[0] ?? back(plan.from),
    to: last ? nextBucket(last, plan.resolution) : back(plan.to),
  };
}

/** Whether a bucket has not ended yet at `now` (its value is partial). */
export function isOpenBucket(
  start: Temporal.ZonedDateTime,
  resolution: Resolution,
  now: Temporal.Instant,
): boolean {
  return Temporal.Instant.compare(nextBucket(start, resolution).toInstant(), now) > 0;
}
