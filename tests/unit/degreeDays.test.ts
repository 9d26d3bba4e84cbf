import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  climateCorrect,
  degreeDaysOfMean,
  NORMAL_YEAR_DEGREE_DAYS,
  normalDegreeDaysBetween,
} from '../../src/lib/degreeDays.ts';

describe('degree days', () => {
  it('are 17 minus the daily mean, never negative', () => {
    expect(degreeDaysOfMean(3)).toBe(14);
    expect(degreeDaysOfMean(17)).toBe(0);
    expect(degreeDaysOfMean(22.5)).toBe(0);
    expect(degreeDaysOfMean(-4.5)).toBe(21.5);
  });

  it('a normal year is the published one counting every day (3009, summer months not zero), spread evenly over each month', () => {
    expect(NORMAL_YEAR_DEGREE_DAYS.reduce((a, b) => a + b, 0)).toBe(3009);
    expect(NORMAL_YEAR_DEGREE_DAYS[6]).toBeGreaterThan(0);
    // February spread evenly: one day of it is 421/28 in 2025 and 421/29 in 2024.
    const day = (d: string) =>
      normalDegreeDaysBetween(Temporal.PlainDate.from(d), Temporal.PlainDate.from(d).add({ days: 1 }));
    expect(day('2025-02-10')).toBeCloseTo(421 / 28, 12);
    expect(day('2024-02-10')).toBeCloseTo(421 / 29, 12);
    const year = normalDegreeDaysBetween(
      Temporal.PlainDate.from('2025-01-01'),
      Temporal.PlainDate.from('2026-01-01'),
    );
    expect(year).toBeCloseTo(3009, 9);
  });
});

describe('climateCorrect', () => {
  it('leaves a value unchanged when the degree days equal the target, whatever the hot-water share', () => {
    for (const share of [0, 0.25, 0.9]) expect(climateCorrect(123.4, 300, 300, share)).toBeCloseTo(123.4, 12);
  });
  it('scales only the space-heating share', () => {
    // Twice the degree days: the 75 % space-heating part doubles, the 25 % hot water stays.
    expect(climateCorrect(100, 200, 400, 0.25)).toBeCloseTo(175, 12);
    expect(climateCorrect(100, 400, 200, 0)).toBeCloseTo(50, 12);
  });
  it('gives null for unknown values or degree days, and leaves near-zero degree days as measured', () => {
    expect(climateCorrect(null, 10, 10, 0.25)).toBeNull();
    expect(climateCorrect(10, null, 10, 0.25)).toBeNull();
    expect(climateCorrect(10, 10, null, 0.25)).toBeNull();
    expect(climateCorrect(10, 0.2, 5, 0.25)).toBe(10);
  });
});
