import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  datesOf,
  latestCompletePeriod,
  periodContaining,
  previousPeriod,
} from '../../src/server/jobs/alarmPeriods.ts';
import {
  type AlarmRule,
  type DayTotal,
  evaluateAlarm,
  hasLeak,
  notificationKindOf,
} from '../../src/server/jobs/evaluator.ts';

const makeRule = (overrides: Partial<AlarmRule> = {}): AlarmRule => ({
  type: 'threshold',
  quantity: 'heat-energy',
  frequency: 'day',
  threshold: 10,
  minimum: null,
  maximum: null,
  leakRule: false,
  ...overrides,
});

const DAY = { start: '2025-11-20', end: '2025-11-21' };
const AFTER = new Date('2025-11-21T12:00:00Z');
const day = (d: string, sum: number, overrides: Partial<DayTotal> = {}): DayTotal => ({
  day: d,
  sum,
  count: 24,
  complete: true,
  ...overrides,
});

describe('alarm periods (Europe/Copenhagen)', () => {
  it('takes the latest complete period of each frequency', () => {
    // 2025-11-21 00:30 local is 2025-11-20 23:30 UTC: the 20th has just ended.
    const now = new Date('2025-11-20T23:30:00Z');
    expect(latestCompletePeriod(now, 'day')).toEqual({ start: '2025-11-20', end: '2025-11-21' });
    expect(latestCompletePeriod(now, 'week')).toEqual({ start: '2025-11-10', end: '2025-11-17' });
    expect(latestCompletePeriod(now, 'month')).toEqual({ start: '2025-10-01', end: '2025-11-01' });
    expect(latestCompletePeriod(now, 'year')).toEqual({ start: '2024-01-01', end: '2025-01-01' });
  });

  it('steps back over month and year ends', () => {
    expect(previousPeriod({ start: '2025-03-01', end: '2025-04-01' }, 'month')).toEqual({
      start: '2025-02-01',
      end: '2025-03-01',
    });
    expect(periodContaining(Temporal.PlainDate.from('2026-01-01'), 'week')).toEqual({
      start: '2025-12-29',
      end: '2026-01-05',
    });
    expect(datesOf({ start: '2024-02-27', end: '2024-03-02' })).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
  });
});

describe('evaluateAlarm', () => {
  it('does not judge a period that has not ended', () => {
    const r = evaluateAlarm(
      makeRule(),
      { period: DAY, days: [day(DAY.start, 50)] },
      new Date('2025-11-20T22:59:59Z'),
    );
    expect(r.state).toBe('pending');
  });

  it('threshold: equal does not fire, above fires', () => {
    expect(evaluateAlarm(makeRule(), { period: DAY, days: [day(DAY.start, 10)] }, AFTER).state).toBe('ok');
    const r = evaluateAlarm(makeRule(), { period: DAY, days: [day(DAY.start, 11)] }, AFTER);
    expect(r).toEqual({ state: 'fired', value: 11, reference: 10, reason: 'above_threshold' });
  });

  it('threshold: decimals add up exactly enough (0.1 + 0.2 equals a 0.3 threshold)', () => {
    const week = { start: '2025-11-10', end: '2025-11-17' };
    const days = datesOf(week).map((d, i) => day(d, i === 0 ? 0.1 : i === 1 ? 0.2 : 0));
    expect(
      evaluateAlarm(makeRule({ frequency: 'week', threshold: 0.3 }), { period: week, days }, AFTER).state,
    ).toBe('ok');
  });

  it('a missing day is unknown, never zero', () => {
    const week = { start: '2025-11-10', end: '2025-11-17' };
    const days = datesOf(week)
      .slice(1)
      .map((d) => day(d, 100));
    const r = evaluateAlarm(makeRule({ frequency: 'week' }), { period: week, days }, AFTER);
    expect(r).toMatchObject({ state: 'unknown', value: null, reason: 'missing_data' });
    const zero = evaluateAlarm(
      makeRule({ type: 'zero_consumption', threshold: 0, frequency: 'week' }),
      {
        period: week,
        days: [],
      },
      AFTER,
    );
    expect(zero.state).toBe('unknown');
  });

  it('an incomplete day (missing hours) is unknown', () => {
    const r = evaluateAlarm(
      makeRule(),
      { period: DAY, days: [day(DAY.start, 50, { complete: false })] },
      AFTER,
    );
    expect(r.state).toBe('unknown');
  });

  it('comparison: more than N % above the previous period fires; exactly N % does not', () => {
    const rule = makeRule({ type: 'comparison', threshold: 10 });
    const previous = { period: { start: '2025-11-19', end: '2025-11-20' }, days: [day('2025-11-19', 100)] };
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 110)], previous }, AFTER).state).toBe(
      'ok',
    );
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 111)], previous }, AFTER)).toEqual({
      state: 'fired',
      value: 111,
      reference: 100,
      reason: 'increase',
    });
  });

  it('comparison: an unknown previous period is unknown', () => {
    const rule = makeRule({ type: 'comparison', threshold: 10 });
    const previous = { period: { start: '2025-11-19', end: '2025-11-20' }, days: [] };
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 500)], previous }, AFTER).state).toBe(
      'unknown',
    );
  });

  it('zero consumption fires on nothing used, not on a little', () => {
    const rule = makeRule({ type: 'zero_consumption', threshold: 0 });
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 0)] }, AFTER)).toMatchObject({
      state: 'fired',
      reason: 'zero',
    });
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 0.001)] }, AFTER).state).toBe('ok');
  });

  it('leak rule: water in every hour for 24 hours fires, one dry hour does not', () => {
    const rule = makeRule({
      type: 'zero_consumption',
      quantity: 'cold-water-volume',
      threshold: 0,
      leakRule: true,
    });
    const wet = Array.from({ length: 47 }, () => 0.004);
    expect(
      evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 0.096)], hours: wet }, AFTER),
    ).toMatchObject({ state: 'fired', reason: 'leak' });
    const dry = wet.map((v, i) => (i % 20 === 5 ? 0 : v));
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 0.09)], hours: dry }, AFTER).state).toBe(
      'ok',
    );
    // An unknown hour breaks the run: no leak is claimed from missing data.
    const gap = wet.map((v, i) => (i === 12 || i === 35 ? null : v));
    expect(hasLeak(gap)).toBe(false);
  });

  it('leak rule is only for water', () => {
    const rule = makeRule({
      type: 'zero_consumption',
      quantity: 'heat-energy',
      threshold: 0,
      leakRule: true,
    });
    const wet = Array.from({ length: 47 }, () => 1);
    expect(evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, 24)], hours: wet }, AFTER).state).toBe(
      'ok',
    );
  });

  it('leak rule on a 23-hour DST day counts the run into the day from the evening before', () => {
    // 2025-03-30 has 23 hours; with 23 hours before it the window is 46 hours.
    const period = { start: '2025-03-30', end: '2025-03-31' };
    const hours = [...Array.from({ length: 23 }, () => 0), ...Array.from({ length: 23 }, () => 0.004)];
    const rule = makeRule({
      type: 'zero_consumption',
      quantity: 'cold-water-volume',
      threshold: 0,
      leakRule: true,
    });
    const now = new Date('2025-03-31T10:00:00Z');
    expect(
      evaluateAlarm(rule, { period, days: [day(period.start, 0.092, { count: 23 })], hours }, now).state,
    ).toBe('ok');
    hours[22] = 0.004;
    expect(
      evaluateAlarm(rule, { period, days: [day(period.start, 0.092, { count: 23 })], hours }, now).reason,
    ).toBe('leak');
  });

  it('indoor climate: the period average below the minimum or above the maximum fires; equal does not', () => {
    const rule = makeRule({
      type: 'indoor_climate',
      quantity: 'indoor-temperature',
      threshold: null,
      minimum: 18,
      maximum: 24,
    });
    const at = (avg: number) => evaluateAlarm(rule, { period: DAY, days: [day(DAY.start, avg * 24)] }, AFTER);
    expect(at(18).state).toBe('ok');
    expect(at(24).state).toBe('ok');
    expect(at(17.5)).toMatchObject({ state: 'fired', reason: 'below_minimum', reference: 18 });
    expect(at(24.5)).toMatchObject({ state: 'fired', reason: 'above_maximum', reference: 24 });
  });

  it('maps fired alarms to SPEC §3 notification kinds', () => {
    expect(notificationKindOf('threshold', 'above_threshold')).toBe('high_consumption');
    expect(notificationKindOf('comparison', 'increase')).toBe('high_consumption');
    expect(notificationKindOf('zero_consumption', 'zero')).toBe('zero_consumption');
    expect(notificationKindOf('zero_consumption', 'leak')).toBe('high_consumption');
    expect(notificationKindOf('indoor_climate', 'below_minimum')).toBe('indoor_climate');
  });
});
