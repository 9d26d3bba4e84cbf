/**
 * Time buckets for tenantGraph, in Europe/Copenhagen: hours (real hours, so 23 or 25 on DST days), days,
 * ISO weeks (Monday), months and years. The asked range is widened to whole buckets.
 */
import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import { startOfWeek, TIME_ZONE } from '../../../lib/periods.ts';
import type { Resolution } from '../types.generated.ts';

/**
 * The buckets of a request: their starts (epoch ms), the key of each in the series query's result, the label
 * the API returns for each, and the whole-bucket range they cover (end exclusive). Built with plain epoch
 * arithmetic; Temporal is used only for the range's ends and once per calendar year for the time zone's
 * transitions, never per bucket.
 */
export interface BucketPlan {
  resolution: Resolution;
  /** The arrays are frozen: planBuckets shares plans between requests. */
  readonly startMs: readonly number[];
  /** HOUR: epoch seconds; other resolutions: the bucket's first local date, YYYY-MM-DD. */
  readonly keys: readonly string[];
  /** ISO 8601 with the Copenhagen offset, e.g. 2025-03-30T03:00:00+02:00. */
  readonly labels: readonly string[];
  from: Temporal.ZonedDateTime;
  to: Temporal.ZonedDateTime;
  /**
   * The bucket starts as Temporal values, made on first use only: the comparisons and the degree-day
   * correction need calendar arithmetic per bucket, a plain graph does not.
   */
  readonly starts: readonly Temporal.ZonedDateTime[];
}

/** Adds the lazily made `starts` to a plan (given ones are kept). */
function withStarts(plan: Omit<BucketPlan, 'starts'>, given?: Temporal.ZonedDateTime[]): BucketPlan {
  let starts: readonly Temporal.ZonedDateTime[] | undefined = given && Object.freeze(given);
  return Object.defineProperty(plan, 'starts', {
    get: () => {
      starts ??= Object.freeze(
        plan.startMs.map((ms) => Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(TIME_ZONE)),
      );
      return starts;
    },
    enumerable: false,
  }) as BucketPlan;
}

/** Whether each bucket of a plan is still open at `nowMs` (its value is partial); plain epoch arithmetic. */
export function openBuckets(plan: BucketPlan, nowMs: number): boolean[] {
  const toMs = plan.to.epochMilliseconds;
  return plan.startMs.map((_, i) => (plan.startMs[i + 1] ?? toMs) > nowMs);
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

/** Parsed local minutes, by text: up to 4,096, the least recently used go first. */
const localMinutes = new LRUCache<string, Temporal.ZonedDateTime>({ max: 4_096 });

/**
 * Reads a Copenhagen local 'YYYY-MM-DDTHH:mm'; a time skipped by DST moves forward, as clocks do. Throws a
 * RangeError for text that is no such time. Requests name the same few period bounds again and again (this
 * hour, today, this month), so parsed values are kept (they are immutable): parsing cost about 4 % of a small
 * tenantGraph's CPU.
 */
export function localMinute(text: string): Temporal.ZonedDateTime {
  const known = localMinutes.get(text);
  if (known) return known;
  const parsed = Temporal.PlainDateTime.from(text, { overflow: 'reject' }).toZonedDateTime(TIME_ZONE, {
    disambiguation: 'compatible',
  });
  localMinutes.set(text, parsed);
  return parsed;
}

const HOUR_MS = 3_600_000;

/** Per calendar year (UTC): the offset (minutes) at its start and the time zone's transitions in it. */
const yearOffsets = new Map<number, { start: number; changes: { atMs: number; offset: number }[] }>();

function offsetsOf(year: number) {
  let entry = yearOffsets.get(year);
  if (entry) return entry;
  const first = Temporal.Instant.fromEpochMilliseconds(Date.UTC(year, 0, 1)).toZonedDateTimeISO(TIME_ZONE);
  const endMs = Date.UTC(year + 1, 0, 1);
  const changes: { atMs: number; offset: number }[] = [];
  let cursor: Temporal.ZonedDateTime | null = first;
  for (;;) {
    cursor = cursor.getTimeZoneTransition('next');
    if (!cursor || cursor.epochMilliseconds >= endMs) break;
    changes.push({ atMs: cursor.epochMilliseconds, offset: cursor.offsetNanoseconds / 60e9 });
  }
  entry = { start: first.offsetNanoseconds / 60e9, changes };
  yearOffsets.set(year, entry);
  return entry;
}

/** Copenhagen's UTC offset in minutes at an instant. */
function offsetAt(ms: number): number {
  const { start, changes } = offsetsOf(new Date(ms).getUTCFullYear());
  let offset = start;
  for (const c of changes) if (ms >= c.atMs) offset = c.offset;
  return offset;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** YYYY-MM-DD of a UTC-fields date (a local date held as Date.UTC of its fields). */
function dateText(localMs: number): string {
  const d = new Date(localMs);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The instant of local midnight of a local date (given as Date.UTC of its fields). */
function localMidnight(localMs: number): number {
  // Transitions are at 01:00 UTC, never at a local midnight, so the offset an hour earlier is the right one.
  return localMs - offsetAt(localMs - HOUR_MS) * 60_000;
}

/**
 * The plans planBuckets keeps: up to 20,000 buckets in all, the least recently used plans go first. A bucket
 * costs about 340 bytes once its `starts` are made (a 1,100-day plan about 370 KB), so the kept plans stay under
 * about 7 MB whatever ranges callers ask for.
 */
const plans = new LRUCache<string, BucketPlan>({
  maxSize: 20_000,
  sizeCalculation: (plan) => Math.max(1, plan.startMs.length),
});

/**
 * Every bucket that overlaps [begin, end); throws TooManyBucketsError past MAX_BUCKETS. Plans are kept and
 * shared, so their arrays are frozen: tenants ask for the same few periods (this day, this month, this year),
 * and building a plan's labels was the largest allocation of a small tenantGraph.
 */
export function planBuckets(
  resolution: Resolution,
  begin: Temporal.ZonedDateTime,
  end: Temporal.ZonedDateTime,
): BucketPlan {
  const key = `${resolution} ${begin.timeZoneId} ${begin.epochMilliseconds} ${end.epochMilliseconds}`;
  const known = plans.get(key);
  if (known) return known;
  const plan = computePlan(resolution, begin, end);
  Object.freeze(plan.startMs);
  Object.freeze(plan.keys);
  Object.freeze(plan.labels);
  plans.set(key, plan);
  return plan;
}

/** How many plans planBuckets keeps now, and their buckets (for tests). */
export function keptPlans(): { plans: number; buckets: number } {
  return { plans: plans.size, buckets: plans.calculatedSize };
}

function computePlan(
  resolution: Resolution,
  begin: Temporal.ZonedDateTime,
  end: Temporal.ZonedDateTime,
): BucketPlan {
  const from = bucketStart(begin, resolution);
  const endMs = end.epochMilliseconds;
  const max = MAX_BUCKETS[resolution];
  const startMs: number[] = [];
  const keys: string[] = [];
  const labels: string[] = [];
  let toMs: number;
  if (resolution === 'HOUR') {
    let ms = from.epochMilliseconds;
    for (; ms < endMs; ms += HOUR_MS) {
      if (startMs.length === max) throw new TooManyBucketsError();
      const offset = offsetAt(ms);
      const local = new Date(ms + offset * 60_000);
      startMs.push(ms);
      keys.push(String(ms / 1000));
      labels.push(
        `${dateText(local.getTime())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:00${offsetText(offset)}`,
      );
    }
    toMs = ms;
  } else {
    const first = from.toPlainDate();
    let y = first.year;
    let m = first.month - 1;
    let d = first.day;
    let ms = localMidnight(Date.UTC(y, m, d));
    while (ms < endMs) {
      if (startMs.length === max) throw new TooManyBucketsError();
      const local = Date.UTC(y, m, d);
      const date = dateText(local);
      startMs.push(ms);
      keys.push(date);
      labels.push(`${date}T00:00:00${offsetText(offsetAt(ms))}`);
      if (resolution === 'DAY') d += 1;
      else if (resolution === 'WEEK') d += 7;
      else if (resolution === 'MONTH') m += 1;
      else y += 1;
      // Date.UTC normalises day and month overflow (Jan 32 is Feb 1).
      const next = new Date(Date.UTC(y, m, d));
      y = next.getUTCFullYear();
      m = next.getUTCMonth();
      d = next.getUTCDate();
      ms = localMidnight(next.getTime());
    }
    toMs = ms;
  }
  const to = Temporal.Instant.fromEpochMilliseconds(toMs).toZonedDateTimeISO(TIME_ZONE);
  return withStarts({ resolution, startMs, keys, labels, from, to });
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
  return planBuckets(plan.resolution, from, plan.from);
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
  return withStarts(
    {
      resolution: plan.resolution,
      startMs: starts.map((s) => s.epochMilliseconds),
      keys: starts.map((s) =>
        plan.resolution === 'HOUR' ? String(s.epochMilliseconds / 1000) : s.toPlainDate().toString(),
      ),
      labels: starts.map(formatBucket),
      from: starts[0] ?? back(plan.from),
      to: last ? nextBucket(last, plan.resolution) : back(plan.to),
    },
    starts,
  );
}
