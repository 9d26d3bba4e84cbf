/** planBuckets builds buckets with epoch arithmetic; they must equal a plain Temporal walk, DST days included. */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { TIME_ZONE } from '../../src/lib/periods.ts';
import {
  bucketStart,
  formatBucket,
  keptPlans,
  localMinute,
  MAX_BUCKETS,
  nextBucket,
  planBuckets,
  TooManyBucketsError,
} from '../../src/server/tenant/graph/buckets.ts';
import type { Resolution } from '../../src/server/tenant/types.generated.ts';

/** The reference: one Temporal step per bucket. */
function reference(resolution: Resolution, begin: Temporal.ZonedDateTime, end: Temporal.ZonedDateTime) {
  const starts: Temporal.ZonedDateTime[] = [];
  let cursor = bucketStart(begin, resolution);
  while (Temporal.ZonedDateTime.compare(cursor, end) < 0) {
    starts.push(cursor);
    cursor = nextBucket(cursor, resolution);
  }
  return { starts, to: cursor };
}

const RESOLUTIONS: Resolution[] = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'];
const SPAN_HOURS: Record<Resolution, number> = {
  HOUR: 700,
  DAY: 24 * 400,
  WEEK: 24 * 7 * 300,
  MONTH: 24 * 3000,
  YEAR: 24 * 9000,
};

describe('planBuckets', () => {
  it('gives 23 hours on the spring DST day and 25 on the autumn one', () => {
    const day = (d: string) =>
      planBuckets(
        'HOUR',
        Temporal.ZonedDateTime.from(`${d}T00:00[${TIME_ZONE}]`),
        Temporal.ZonedDateTime.from(`${d}T00:00[${TIME_ZONE}]`).add({ days: 1 }),
      );
    expect(day('2025-03-30').labels).toHaveLength(23);
    expect(day('2025-03-30').labels.slice(1, 3)).toEqual([
      '2025-03-30T01:00:00+01:00',
      '2025-03-30T03:00:00+02:00',
    ]);
    expect(day('2025-10-26').labels).toHaveLength(25);
    expect(day('2025-10-26').labels.slice(2, 4)).toEqual([
      '2025-10-26T02:00:00+02:00',
      '2025-10-26T02:00:00+01:00',
    ]);
  });

  it('equals a Temporal walk for any range and resolution', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RESOLUTIONS),
        fc.integer({ min: Date.UTC(2001, 0, 1) / 60_000, max: Date.UTC(2035, 0, 1) / 60_000 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (resolution, beginMinute, fraction) => {
          const begin = Temporal.Instant.fromEpochMilliseconds(beginMinute * 60_000).toZonedDateTimeISO(
            TIME_ZONE,
          );
          const end = begin.add({ minutes: Math.max(1, Math.round(SPAN_HOURS[resolution] * 60 * fraction)) });
          const expected = reference(resolution, begin, end);
          if (expected.starts.length > MAX_BUCKETS[resolution]) return;
          const plan = planBuckets(resolution, begin, end);
          expect(plan.labels).toEqual(expected.starts.map(formatBucket));
          expect(plan.startMs).toEqual(expected.starts.map((s) => s.epochMilliseconds));
          expect(plan.keys).toEqual(
            expected.starts.map((s) =>
              resolution === 'HOUR' ? String(s.epochMilliseconds / 1000) : s.toPlainDate().toString(),
            ),
          );
          expect(plan.to.epochMilliseconds).toBe(expected.to.epochMilliseconds);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('localMinute', () => {
  it('reads Copenhagen local minutes, the same value each time; a skipped time moves forward', () => {
    const winter = localMinute('2025-01-15T10:30');
    expect(winter.toString()).toBe('2025-01-15T10:30:00+01:00[Europe/Copenhagen]');
    expect(localMinute('2025-01-15T10:30')).toBe(winter);
    expect(localMinute('2025-07-01T00:00').offset).toBe('+02:00');
    // 02:30 does not exist on the spring-forward day: it becomes 03:30 summer time, as clocks do.
    expect(localMinute('2025-03-30T02:30').toString()).toBe('2025-03-30T03:30:00+02:00[Europe/Copenhagen]');
  });

  it('refuses what is no time, every time (refusals are not kept)', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => localMinute('2025-02-30T10:00')).toThrow(RangeError);
      expect(() => localMinute('2025-01-15T24:00')).toThrow(RangeError);
    }
  });

  it('keeps at most a bounded number of values', () => {
    const first = localMinute('2001-01-01T00:00');
    for (let m = 0; m < 5_000; m++)
      localMinute(
        Temporal.PlainDateTime.from('2002-01-01T00:00').add({ minutes: m }).toString().slice(0, 16),
      );
    const again = localMinute('2001-01-01T00:00');
    expect(again.equals(first)).toBe(true);
    expect(again).not.toBe(first);
  });
});

describe('planBuckets keeps plans', () => {
  it('returns the same frozen plan for the same range, and a new one for another range or zone', () => {
    const begin = localMinute('2025-03-29T00:00');
    const end = localMinute('2025-03-31T00:00');
    const plan = planBuckets('HOUR', begin, end);
    // Around the spring-forward night: 24 + 23 hours.
    expect(plan.labels).toHaveLength(47);
    expect(planBuckets('HOUR', localMinute('2025-03-29T00:00'), localMinute('2025-03-31T00:00'))).toBe(plan);
    expect(Object.isFrozen(plan.labels) && Object.isFrozen(plan.keys) && Object.isFrozen(plan.startMs)).toBe(
      true,
    );
    expect(() => (plan.labels as string[]).push('x')).toThrow(TypeError);
    expect(planBuckets('DAY', begin, end)).not.toBe(plan);
    expect(planBuckets('HOUR', begin, localMinute('2025-03-30T00:00')).labels).toHaveLength(24);
    // The same instants in another zone start their buckets elsewhere.
    const utc = planBuckets('DAY', begin.withTimeZone('UTC'), end.withTimeZone('UTC'));
    expect(utc).not.toBe(planBuckets('DAY', begin, end));
    expect(utc.labels[0]).not.toBe(planBuckets('DAY', begin, end).labels[0]);
  });

  it('refuses too many buckets every time', () => {
    const begin = localMinute('2020-01-01T00:00');
    const end = localMinute('2024-01-01T00:00');
    for (let i = 0; i < 2; i++) expect(() => planBuckets('HOUR', begin, end)).toThrow(TooManyBucketsError);
  });
});

describe('planBuckets keeps a bounded number of buckets', () => {
  it('drops the oldest plans past 20,000 buckets in all, and keeps the newest', () => {
    const begin = localMinute('2020-01-01T00:00');
    let last = planBuckets('DAY', begin, localMinute('2023-01-01T00:00'));
    for (let m = 1; m <= 40; m++) {
      // 40 different ranges of about 1,096 days each: about 44,000 buckets asked for.
      last = planBuckets('DAY', begin, localMinute('2023-01-01T00:00').add({ minutes: m }));
      expect(keptPlans().buckets).toBeLessThanOrEqual(20_000);
    }
    expect(keptPlans().buckets).toBeGreaterThan(15_000);
    expect(planBuckets('DAY', begin, localMinute('2023-01-01T00:00').add({ minutes: 40 }))).toBe(last);
    // Of the 41 plans asked for here, at most 18 fit.
    expect(keptPlans().plans).toBeLessThanOrEqual(18);
  });
});
