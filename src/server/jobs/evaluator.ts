/**
 * The alarm evaluator: a pure function over (rule, values, now). It judges one complete period and says
 * whether the alarm fires. A missing or incomplete day means "don't know", never zero.
 */

import type { AlarmReason } from '../../lib/alarmReasons.ts';
import { type AlarmFrequency, type AlarmPeriod, datesOf, startInstant } from './alarmPeriods.ts';

export type AlarmType = 'threshold' | 'comparison' | 'zero_consumption' | 'indoor_climate';

/** What an alarm watches. */
export interface AlarmRule {
  type: AlarmType;
  quantity: string;
  frequency: AlarmFrequency;
  /** Threshold amount, percent increase, or 0. */
  threshold: number | null;
  minimum: number | null;
  maximum: number | null;
  /** Zero consumption on water: also fire on use in every hour for 24 hours. */
  leakRule: boolean;
}

/** One local day's data over the alarm's measurement points. */
export interface DayTotal {
  day: string;
  /** Sum of the hourly values (consumption), or of hourly averages (climate). */
  sum: number;
  /** Number of hourly values summed. */
  count: number;
  /** True when every point has every hour of the day (23, 24 or 25). */
  complete: boolean;
}

/** The values the evaluator judges. */
export interface EvaluationValues {
  period: AlarmPeriod;
  days: DayTotal[];
  /** The period before, for the increase rule. */
  previous?: { period: AlarmPeriod; days: DayTotal[] };
  /** Leak rule: hourly totals from 23 hours before the period start to its end; null where unknown. */
  hours?: (number | null)[];
}

export type EvaluationReason = AlarmReason;

/** The verdict on one period. `pending` means the period has not ended yet at `now`. */
export interface Evaluation {
  state: 'ok' | 'fired' | 'unknown' | 'pending';
  /** Period total, or average for indoor climate; null when not known. */
  value: number | null;
  /** Threshold, previous period's total, minimum or maximum. */
  reference: number | null;
  reason: EvaluationReason | null;
}

const WATER = new Set(['cold-water-volume', 'hot-water-volume', 'total-water-volume']);

/** Whether the leak rule applies to a quantity. */
export const isWaterQuantity = (quantity: string) => WATER.has(quantity);

/** Stored values are decimals with at most a few fraction digits; compare with a tolerance so 0.1 + 0.2 is 0.3. */
function above(a: number, b: number): boolean {
  return a - b > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Total and average of a period when every day is known; null otherwise. */
function periodTotals(period: AlarmPeriod, days: DayTotal[]): { total: number; average: number } | null {
  const byDay = new Map(days.map((d) => [d.day, d]));
  let total = 0;
  let count = 0;
  for (const date of datesOf(period)) {
    const d = byDay.get(date);
    if (!d?.complete) return null;
    total += d.sum;
    count += d.count;
  }
  return { total, average: count > 0 ? total / count : 0 };
}

/** A period's total (or average) from its days, or null when a day is missing or incomplete. */
export function periodValue(period: AlarmPeriod, days: DayTotal[], average: boolean): number | null {
  const totals = periodTotals(period, days);
  return totals === null ? null : average ? totals.average : totals.total;
}

/** True when some run of 24 consecutive known hours with use ends inside the period. */
export function hasLeak(hours: (number | null)[]): boolean {
  let run = 0;
  for (let i = 0; i < hours.length; i++) {
    const v = hours[i];
    run = v !== null && v !== undefined && v > 0 ? run + 1 : 0;
    if (run >= 24 && i >= 23) return true;
  }
  return false;
}

/** Judges one period of an alarm. */
export function evaluateAlarm(rule: AlarmRule, values: EvaluationValues, now: Date): Evaluation {
  if (now.getTime() < startInstant(values.period.end).getTime())
    return { state: 'pending', value: null, reference: null, reason: null };
  const totals = periodTotals(values.period, values.days);
  const unknown = (reference: number | null): Evaluation => ({
    state: 'unknown',
    value: null,
    reference,
    reason: 'missing_data',
  });
  const verdict = (fired: boolean, value: number, reference: number | null, reason: EvaluationReason) =>
    ({ state: fired ? 'fired' : 'ok', value, reference, reason: fired ? reason : null }) satisfies Evaluation;

  switch (rule.type) {
    case 'threshold': {
      const threshold = rule.threshold ?? 0;
      if (!totals) return unknown(threshold);
      return verdict(above(totals.total, threshold), totals.total, threshold, 'above_threshold');
    }
    case 'comparison': {
      const previous = values.previous ? periodTotals(values.previous.period, values.previous.days) : null;
      if (!totals || !previous) return unknown(previous?.total ?? null);
      const limit = previous.total * (1 + (rule.threshold ?? 0) / 100);
      return verdict(above(totals.total, limit), totals.total, previous.total, 'increase');
    }
    case 'zero_consumption': {
      // A leak is positive evidence, so it counts even when another day of the period is missing.
      if (rule.leakRule && isWaterQuantity(rule.quantity) && values.hours && hasLeak(values.hours))
        return { state: 'fired', value: totals?.total ?? null, reference: 0, reason: 'leak' };
      if (!totals) return unknown(0);
      return verdict(!above(Math.abs(totals.total), 0), totals.total, 0, 'zero');
    }
    case 'indoor_climate': {
      if (!totals) return unknown(rule.minimum ?? rule.maximum);
      const avg = totals.average;
      if (rule.minimum !== null && above(rule.minimum, avg))
        return verdict(true, avg, rule.minimum, 'below_minimum');
      if (rule.maximum !== null && above(avg, rule.maximum))
        return verdict(true, avg, rule.maximum, 'above_maximum');
      return verdict(false, avg, rule.minimum ?? rule.maximum, 'below_minimum');
    }
  }
}

/** The notification kind (SPEC §3) of a fired alarm; a leak is water used where none should be: high consumption. */
export function notificationKindOf(
  type: AlarmType,
  reason: EvaluationReason | null,
): 'high_consumption' | 'zero_consumption' | 'indoor_climate' {
  if (type === 'zero_consumption') return reason === 'leak' ? 'high_consumption' : 'zero_consumption';
  if (type === 'indoor_climate') return 'indoor_climate';
  return 'high_consumption';
}
