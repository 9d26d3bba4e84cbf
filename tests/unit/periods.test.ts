/** src/lib/periods.ts: span lengths and kinds, calendar alignment, stepping (with properties). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calendarAlignment,
  InvalidPeriodError,
  type Period,
  periodKind,
  resolutionOfSpan,
  serverResolution,
  spanDays,
  spanType,
  stepPeriod,
} from '../../src/lib/periods.ts';
import { d, dateArb, ofDays, p } from './periodsHelpers.ts';

describe('spanDays', () => {
  it('counts both ends', () => {
    expect(spanDays(p('2025-01-01', '2025-01-01'))).toBe(1);
    expect(spanDays(p('2025-01-01', '2025-01-31'))).toBe(31);
    expect(spanDays(p('2024-01-01', '2024-12-31'))).toBe(366);
  });

  it('counts a DST day as one day', () => {
    expect(spanDays(p('2025-03-29', '2025-03-31'))).toBe(3);
  });
});

describe('spanType (SPEC §4)', () => {
  it('gives hour only for at most 1 day with hourly data', () => {
    expect(spanType(ofDays('2025-05-01', 1), true)).toBe('hour');
    expect(spanType(ofDays('2025-05-01', 1), false)).toBe('day');
    expect(spanType(ofDays('2025-05-01', 2), true)).toBe('day');
  });

  it.each([
    [31, 'day'],
    [32, 'week'],
    [362, 'week'],
    [363, 'day'],
    [364, 'month'],
    [366, 'month'],
    [7, 'day'],
  ])('a %i-day range gives %s', (days, expected) => {
    expect(spanType(ofDays('2024-01-01', days), false)).toBe(expected);
    expect(spanType(ofDays('2024-01-01', days), true)).toBe(expected);
  });

  it('maps span types to resolutions and server resolutions', () => {
    expect(resolutionOfSpan('hour')).toBe('hourly');
    expect(resolutionOfSpan('week')).toBe('weekly');
    expect(serverResolution('monthly')).toBe('MONTH');
    expect(serverResolution('yearly')).toBe('YEAR');
  });
});

describe('periodKind (SPEC §4)', () => {
  it.each([
    [1, 'day'],
    [2, 'custom'],
    [6, 'custom'],
    [7, 'week'],
    [8, 'custom'],
    [27, 'custom'],
    [28, 'month'],
    [31, 'month'],
    [32, 'custom'],
    [89, 'custom'],
    [90, 'quarter'],
    [93, 'quarter'],
    [94, 'custom'],
    [179, 'custom'],
    [180, 'half-year'],
    [183, 'half-year'],
    [184, 'custom'],
    [363, 'custom'],
    [364, 'year'],
    [366, 'year'],
    [367, 'custom'],
  ])('a %i-day range from the 3rd is %s', (days, kind) => {
    expect(periodKind(ofDays('2025-03-03', days))).toBe(kind);
  });

  it('takes whole calendar units by the calendar', () => {
    expect(periodKind(p('2025-07-01', '2025-12-31'))).toBe('half-year'); // 184 days
    expect(periodKind(p('2025-02-01', '2025-02-28'))).toBe('month');
    expect(periodKind(p('2025-10-01', '2025-12-31'))).toBe('quarter');
    expect(periodKind(p('2024-01-01', '2024-12-31'))).toBe('year');
  });
});

describe('calendarAlignment', () => {
  it('recognises months, quarters, half-years and years', () => {
    expect(calendarAlignment(p('2024-02-01', '2024-02-29'))).toBe('month');
    expect(calendarAlignment(p('2025-04-01', '2025-06-30'))).toBe('quarter');
    expect(calendarAlignment(p('2025-01-01', '2025-06-30'))).toBe('half-year');
    expect(calendarAlignment(p('2025-01-01', '2025-12-31'))).toBe('year');
  });

  it('refuses ranges off the calendar', () => {
    expect(calendarAlignment(p('2025-02-01', '2025-03-01'))).toBeNull();
    expect(calendarAlignment(p('2025-02-15', '2025-03-14'))).toBeNull();
    expect(calendarAlignment(p('2025-02-01', '2025-04-30'))).toBeNull(); // 3 months, not a quarter
    expect(calendarAlignment(p('2025-04-01', '2025-09-30'))).toBeNull(); // 6 months, not a half-year
  });
});

describe('stepPeriod (SPEC §4)', () => {
  it('steps a day by 1 day and a week by 7', () => {
    expect(stepPeriod(p('2025-03-01', '2025-03-01'), 'next')).toEqual(p('2025-03-02', '2025-03-02'));
    expect(stepPeriod(p('2025-03-01', '2025-03-01'), 'previous')).toEqual(p('2025-02-28', '2025-02-28'));
    expect(stepPeriod(p('2025-03-03', '2025-03-09'), 'next')).toEqual(p('2025-03-10', '2025-03-16'));
    expect(stepPeriod(p('2025-03-03', '2025-03-09'), 'previous')).toEqual(p('2025-02-24', '2025-03-02'));
  });

  it('steps a full calendar month by the calendar', () => {
    expect(stepPeriod(p('2025-01-01', '2025-01-31'), 'next')).toEqual(p('2025-02-01', '2025-02-28'));
    expect(stepPeriod(p('2024-03-01', '2024-03-31'), 'previous')).toEqual(p('2024-02-01', '2024-02-29'));
    expect(stepPeriod(p('2025-12-01', '2025-12-31'), 'next')).toEqual(p('2026-01-01', '2026-01-31'));
  });

  it('steps a month-long range off the calendar by its length in days', () => {
    expect(stepPeriod(p('2025-01-15', '2025-02-14'), 'next')).toEqual(p('2025-02-15', '2025-03-17'));
  });

  it('steps quarters, half-years and years by the calendar', () => {
    expect(stepPeriod(p('2025-01-01', '2025-03-31'), 'next')).toEqual(p('2025-04-01', '2025-06-30'));
    expect(stepPeriod(p('2025-01-01', '2025-03-31'), 'previous')).toEqual(p('2024-10-01', '2024-12-31'));
    expect(stepPeriod(p('2025-01-01', '2025-06-30'), 'next')).toEqual(p('2025-07-01', '2025-12-31'));
    expect(stepPeriod(p('2024-01-01', '2024-12-31'), 'next')).toEqual(p('2025-01-01', '2025-12-31'));
  });

  it('shifts a custom range by its own length', () => {
    expect(stepPeriod(p('2025-03-10', '2025-03-19'), 'next')).toEqual(p('2025-03-20', '2025-03-29'));
    expect(stepPeriod(p('2025-03-10', '2025-03-19'), 'previous')).toEqual(p('2025-02-28', '2025-03-09'));
  });

  it('throws a clear error for an invalid period', () => {
    expect(() => stepPeriod(p('2025-02-30', '2025-03-01'), 'next')).toThrow(InvalidPeriodError);
    expect(() => stepPeriod(p('2025-02-30', '2025-03-01'), 'next')).toThrow(
      /startDate "2025-02-30" is not a date/,
    );
    expect(() => stepPeriod(p('2025-03-02', '2025-03-01'), 'next')).toThrow(/is after endDate/);
    expect(() => stepPeriod(p('2025-03-01', 'soon'), 'next')).toThrow(/endDate "soon"/);
    expect(() => stepPeriod(null as unknown as Period, 'next')).toThrow(InvalidPeriodError);
  });
});

const alignedArb = fc.tuple(dateArb, fc.constantFrom(1, 3, 6, 12)).map(([date, months]) => {
  const startMonth = Math.floor((date.month - 1) / months) * months + 1;
  const start = date.with({ month: startMonth, day: 1 });
  return { startDate: start.toString(), endDate: start.add({ months }).subtract({ days: 1 }).toString() };
});

const anyArb = fc
  .tuple(dateArb, fc.integer({ min: 1, max: 800 }))
  .map(([start, n]) => ({ startDate: start.toString(), endDate: start.add({ days: n - 1 }).toString() }));

describe('stepPeriod properties', () => {
  it('next then previous returns an aligned period', () => {
    fc.assert(
      fc.property(alignedArb, (period) => {
        expect(stepPeriod(stepPeriod(period, 'next'), 'previous')).toEqual(period);
        expect(stepPeriod(stepPeriod(period, 'previous'), 'next')).toEqual(period);
      }),
      { numRuns: 500 },
    );
  });

  it('next then previous returns any valid period, unless next lands on a calendar unit', () => {
    fc.assert(
      fc.property(anyArb, (period) => {
        const next = stepPeriod(period, 'next');
        // A period is kept as its dates, so one that steps onto a whole month, quarter, half or year is that
        // unit from then on, and steps by it (the example below).
        fc.pre(calendarAlignment(period) !== null || calendarAlignment(next) === null);
        expect(stepPeriod(next, 'previous')).toEqual(period);
      }),
      { numRuns: 500 },
    );
  });

  it('a custom period that steps onto a quarter is a quarter from then on', () => {
    const custom = { startDate: '2023-10-02', endDate: '2023-12-31' };
    const next = stepPeriod(custom, 'next');
    expect(next).toEqual({ startDate: '2024-01-01', endDate: '2024-03-31' });
    expect(calendarAlignment(next)).toBe('quarter');
    expect(stepPeriod(next, 'previous')).toEqual({ startDate: '2023-10-01', endDate: '2023-12-31' });
  });

  it('never changes the kind of a calendar-aligned period', () => {
    fc.assert(
      fc.property(alignedArb, fc.constantFrom('next' as const, 'previous' as const), (period, dir) => {
        const stepped = stepPeriod(period, dir);
        expect(calendarAlignment(stepped)).toBe(calendarAlignment(period));
        expect(periodKind(stepped)).toBe(periodKind(period));
      }),
      { numRuns: 500 },
    );
  });

  it('never changes the length of a period that is not calendar-aligned, and moves it next to itself', () => {
    fc.assert(
      fc.property(anyArb, (period) => {
        fc.pre(calendarAlignment(period) === null);
        const next = stepPeriod(period, 'next');
        expect(spanDays(next)).toBe(spanDays(period));
        expect(d(period.endDate).add({ days: 1 }).toString()).toBe(next.startDate);
      }),
      { numRuns: 500 },
    );
  });
});
