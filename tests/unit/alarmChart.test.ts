import { describe, expect, it } from 'vitest';
import { type AlarmRuleShape, alarmBreaches, alarmLimitLines } from '../../src/lib/alarmChart.ts';

const rule = (overrides: Partial<AlarmRuleShape>): AlarmRuleShape => ({
  type: 'THRESHOLD',
  threshold: null,
  minimum: null,
  maximum: null,
  ...overrides,
});
const periods = (...values: (number | null)[]) =>
  values.map((value, i) => ({ periodStart: `2026-11-${String(10 + i).padStart(2, '0')}`, value }));

describe('alarmBreaches', () => {
  it('marks only the periods below a minimum, never the ones above it', () => {
    const below18 = rule({ type: 'INDOOR_CLIMATE', minimum: 18 });
    expect(alarmBreaches(below18, periods(21, 17.5, 18, null))).toEqual([false, true, false, false]);
  });
  it('marks periods above a maximum, and either side of a band', () => {
    expect(alarmBreaches(rule({ type: 'INDOOR_CLIMATE', maximum: 60 }), periods(61, 59))).toEqual([
      true,
      false,
    ]);
    const band = rule({ type: 'INDOOR_CLIMATE', minimum: 19, maximum: 23 });
    expect(alarmBreaches(band, periods(18, 21, 24))).toEqual([true, false, true]);
  });
  it('marks a threshold only when the total is over it', () => {
    expect(alarmBreaches(rule({ threshold: 100 }), periods(100, 100.5, 20))).toEqual([false, true, false]);
  });
  it('judges an increase against the period before it, and the first period not at all', () => {
    const up20 = rule({ type: 'COMPARISON', threshold: 20 });
    expect(alarmBreaches(up20, periods(10, 12, 15, null, 30))).toEqual([false, false, true, false, false]);
    expect(alarmLimitLines(up20, periods(10, 15, null, 5))[0]?.values).toEqual([null, 12, 18, null]);
  });
  it('marks zero consumption, and periods the alarm fired for (a leak)', () => {
    const zero = rule({ type: 'ZERO_CONSUMPTION', threshold: 0 });
    expect(alarmBreaches(zero, periods(0, 3, 4), new Set(['2026-11-12']))).toEqual([true, false, true]);
    expect(alarmLimitLines(zero, periods(0, 3))).toEqual([]);
  });
  it('draws one flat line per limit', () => {
    const band = rule({ type: 'INDOOR_CLIMATE', minimum: 19, maximum: 23 });
    expect(alarmLimitLines(band, periods(1, 2)).map((l) => [l.key, l.values])).toEqual([
      ['minimum', [19, 19]],
      ['maximum', [23, 23]],
    ]);
  });
});
