/**
 * tenantGraph's climate correction of one series: its values corrected to a normal year's and to this period's
 * weather for last year, the degree days beside them, and the ClimateCorrection report. The correction is made
 * day by day (src/server/tenant/consumption/climate.ts), so the corrected buckets add up whatever the resolution.
 */
import { Temporal } from 'temporal-polyfill';
import {
  type ClimateSeries,
  correctIntoBuckets,
  degreeDaysIntoBuckets,
  fineDay,
  lastYearDayOf,
  normalOn,
  sumKnown,
} from '../consumption/climate.ts';
import { climateReport, isClimateCorrected } from '../consumption/common.ts';
import type { Consumption, RelatedValues } from '../types.generated.ts';
import type { BucketPlan } from './buckets.ts';
import type { Range } from './clip.ts';

type Values = (number | null)[];
type DegreeDaysOf = (day: string) => number | null;

/** The graph's plans, the same for each of its series. */
export interface GraphPlans {
  plan: BucketPlan;
  lastYear: BucketPlan | null;
  /** The days of the asked period (null when degree days are not wanted or the period is too long). */
  nowDays: BucketPlan | null;
  /** The days of last year's match of the asked period. */
  lastYearDays: BucketPlan | null;
  /** Each plan's part that is asked for. */
  clips: Map<BucketPlan, Range>;
  /** LAST_YEAR was asked for. */
  wantsLastYear: boolean;
  nowMs: number;
}

/** One series: its values (per bucket and, above DAY, per day) and the degree days of its property. */
export interface ClimateInputs {
  quantity: string;
  hotWaterShare: number;
  values: Values;
  /** The series per day of `nowDays`, read above DAY for correction only. */
  dayValues: Values | null;
  lastYearValues: Values | null;
  /** Last year's series per day of `lastYearDays`, read above DAY for correction only. */
  lastYearDayValues: Values | null;
  ddNow: DegreeDaysOf;
  ddLastYear: DegreeDaysOf;
}

export function climateOfSeries(
  g: GraphPlans,
  s: ClimateInputs,
): { climateCorrection: NonNullable<Consumption['climateCorrection']>; related: RelatedValues[] } {
  const { plan, lastYear, nowDays, lastYearDays, clips } = g;
  const { hotWaterShare, ddNow, ddLastYear, values, lastYearValues } = s;
  const related: RelatedValues[] = [];
  const corrected = isClimateCorrected(s.quantity) && nowDays !== null;
  const lyDayOf = lastYearDayOf(plan, lastYear);
  // The fine values (hours or days) and their plan.
  const fine = plan.resolution === 'HOUR' || plan.resolution === 'DAY' ? plan : nowDays;
  const fineValues = fine === plan ? values : (s.dayValues ?? []);
  const normal: ClimateSeries | null =
    corrected && fine
      ? correctIntoBuckets({
          plan,
          fine,
          values: fineValues,
          actual: (_, day) => ddNow(day),
          target: (_, day) => normalOn(Temporal.PlainDate.from(day)),
          hotWaterShare,
          nowMs: g.nowMs,
        })
      : null;
  let lastYearCorrected: ClimateSeries | null = null;
  if (corrected && fine && lastYear && lastYearValues && g.wantsLastYear) {
    const lyFine = fine === plan ? lastYear : lastYearDays;
    const lyFineValues = fine === plan ? lastYearValues : (s.lastYearDayValues ?? []);
    const lyIndex = lyFine ? new Map(lyFine.keys.map((k, i) => [k, i])) : new Map<string, number>();
    const lyDayKeys =
      lyFine?.resolution === 'HOUR' ? lyFine.starts.map((t) => t.toPlainDate().toString()) : null;
    // Last year's value of each fine slot of this period: the same hour (HOUR), else the matching day.
    lastYearCorrected = correctIntoBuckets({
      plan,
      fine,
      values: fine.keys.map((_, i) => {
        const j = lyDayKeys ? i : lyIndex.get(lyDayOf(fineDay(fine, i)));
        return j === undefined ? null : (lyFineValues[j] ?? null);
      }),
      actual: (i, day) => ddLastYear(lyDayKeys ? lyDayKeys[i]! : lyDayOf(day)),
      target: (_, day) => ddNow(day),
      hotWaterShare,
      nowMs: Number.POSITIVE_INFINITY,
    });
  }
  const dd = degreeDaysIntoBuckets(plan, ddNow, clips.get(plan)!);
  const normals = degreeDaysIntoBuckets(
    plan,
    (day) => normalOn(Temporal.PlainDate.from(day)),
    clips.get(plan)!,
  );
  const ddLy = lastYear ? degreeDaysIntoBuckets(lastYear, ddLastYear, clips.get(lastYear)!) : null;
  const climateCorrection = climateReport({
    quantity: s.quantity,
    hotWaterShare,
    tooLong: nowDays === null,
    missing: normal?.missing ?? false,
    // Over the known days (a bucket's degree days are null when one of its days is unknown).
    degreeDays: nowDays ? sumKnown(nowDays.keys.map(ddNow)) : null,
    lastYearDegreeDays: lastYearDays && g.wantsLastYear ? sumKnown(lastYearDays.keys.map(ddLastYear)) : null,
    normalDegreeDays: corrected ? sumKnown(normals) : null,
  });
  if (normal) {
    related.push({ type: 'DEGREE_DAYS', values: dd });
    related.push({ type: 'NORMAL_DEGREE_DAYS', values: normals });
    related.push({ type: 'CLIMATE_NORMAL_YEAR', values: normal.buckets });
    if (lastYearCorrected && ddLy) {
      related.push({ type: 'LAST_YEAR_DEGREE_DAYS', values: ddLy });
      related.push({
        type: 'CLIMATE_LAST_YEAR',
        values: normal.missing ? lastYearCorrected.buckets.map(() => null) : lastYearCorrected.buckets,
      });
    }
  }
  return { climateCorrection, related };
}
