/**
 * Graph buckets clipped to the asked period: the plan widens the period to whole buckets, but the first and last
 * bucket only count the part inside the period (and are marked partial), so the bars add up to the period's total
 * (the KPI) at every resolution. Sources below HOUR are read per day, so a period that starts or ends inside a day
 * is clipped at that day's midnight for DAY and coarser resolutions.
 */
import { Temporal } from 'temporal-polyfill';
import type { BucketPlan } from './buckets.ts';

export interface Range {
  from: Temporal.ZonedDateTime;
  to: Temporal.ZonedDateTime;
}

/**
 * The range of a related plan (LAST_PERIOD, LAST_YEAR) that matches the asked part of the main plan: the same
 * cut from its first bucket's start and from its last bucket's end as the asked period has from the main plan's.
 */
export function relatedClip(main: BucketPlan, related: BucketPlan, asked: Range): Range {
  const head = asked.from.epochMilliseconds - main.from.epochMilliseconds;
  const tail = main.to.epochMilliseconds - asked.to.epochMilliseconds;
  const from = related.from.add({ milliseconds: Math.max(0, head) });
  const to = related.to.subtract({ milliseconds: Math.max(0, tail) });
  return Temporal.ZonedDateTime.compare(from, to) < 0
    ? { from, to }
    : { from: related.from, to: related.from };
}

/** Per bucket: open at `nowMs`, or cut by the asked period (the first and the last bucket). */
export function partialBuckets(plan: BucketPlan, asked: Range, open: boolean[]): boolean[] {
  const last = plan.startMs.length - 1;
  return open.map(
    (o, i) =>
      o ||
      (i === 0 && plan.startMs[0]! < asked.from.epochMilliseconds) ||
      (i === last && plan.to.epochMilliseconds > asked.to.epochMilliseconds),
  );
}
