import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  calendarAlignment,
  dayBounds,
  defaultPeriod,
  hoursInDay,
  InvalidPeriodError,
  isoWeek,
  PERIOD_PRESETS,
  type Period,
  parseStoredPeriod,
  periodKind,
  periodLabel,
  presetOf,
  presetPeriod,
  ratingBasisPeriod,
  resolutionOfSpan,
  serverResolution,
  spanDays,
  spanType,
  startOfWeek,
  stepPeriod,
  toServerDates,
  toServerMinuteRange,
  validatePeriod,
} from '../../src/lib/periods.ts';

const d = (s: string) => Temporal.PlainDate.from(s);
const p = (startDate: string, endDate: string): Period => ({ startDate, endDate });
// A range of n days (inclusive) starting at a date.
const ofDays = (start: string, n: number): Period =>
  p(
    start,
    d(start)
      .add({ days: n - 1 })
      .toString(),
  );

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

const dateArb = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true })
  .map((x) => Temporal.PlainDate.from(x.toISOString().slice(0, 10)));

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

describe('weeks', () => {
  it('start on Monday', () => {
    expect(startOfWeek(d('2025-03-30')).toString()).toBe('2025-03-24'); // Sunday
    expect(startOfWeek(d('2025-03-24')).toString()).toBe('2025-03-24'); // Monday
  });

  it('number week 1 as the week with 4 January', () => {
    expect(isoWeek(d('2021-01-03'))).toEqual({ year: 2020, week: 53 });
    expect(isoWeek(d('2021-01-04'))).toEqual({ year: 2021, week: 1 });
    expect(isoWeek(d('2024-12-30'))).toEqual({ year: 2025, week: 1 });
    expect(isoWeek(d('2026-01-01'))).toEqual({ year: 2026, week: 1 });
    expect(isoWeek(d('2027-01-03'))).toEqual({ year: 2026, week: 53 });
  });

  it('agrees with Temporal on ISO weeks (property)', () => {
    fc.assert(
      fc.property(dateArb, (date) => {
        expect(isoWeek(date)).toEqual({ year: date.yearOfWeek, week: date.weekOfYear });
        const jan4 = Temporal.PlainDate.from({ year: isoWeek(date).year, month: 1, day: 4 });
        expect(isoWeek(jan4).week).toBe(1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('presets', () => {
  const today = d('2025-03-19'); // a Wednesday

  it.each([
    ['today', p('2025-03-19', '2025-03-19')],
    ['this_week', p('2025-03-17', '2025-03-23')],
    ['last_week', p('2025-03-10', '2025-03-16')],
    ['this_month', p('2025-03-01', '2025-03-31')],
    ['last_month', p('2025-02-01', '2025-02-28')],
    ['this_year', p('2025-01-01', '2025-12-31')],
    ['last_year', p('2024-01-01', '2024-12-31')],
    ['last_7_days', p('2025-03-13', '2025-03-19')],
    ['last_30_days', p('2025-02-18', '2025-03-19')],
    ['last_365_days', p('2024-03-20', '2025-03-19')],
  ] as const)('%s', (preset, expected) => {
    expect(presetPeriod(preset, today)).toEqual(expected);
    expect(presetOf(expected, today)).toBe(preset);
  });

  it('has no period for custom, and calls any other range custom', () => {
    expect(presetPeriod('custom', today)).toBeNull();
    expect(presetOf(p('2025-03-02', '2025-03-05'), today)).toBe('custom');
    expect(PERIOD_PRESETS).toHaveLength(11);
  });

  it('defaults to the last 30 days up to today', () => {
    expect(defaultPeriod(today)).toEqual(p('2025-02-18', '2025-03-19'));
    expect(spanDays(defaultPeriod(today))).toBe(30);
  });

  it('bases ratings on the 365 days up to yesterday', () => {
    expect(ratingBasisPeriod(today)).toEqual(p('2024-03-19', '2025-03-18'));
  });
});

describe('periodLabel', () => {
  const today = d('2025-05-20');

  it('names today and the last 7, 30 and 365 days', () => {
    expect(periodLabel(p('2025-05-20', '2025-05-20'), 'en', today).key).toBe('periods.label.today');
    expect(periodLabel(p('2025-05-14', '2025-05-20'), 'en', today).key).toBe('periods.label.last_7_days');
    expect(periodLabel(p('2025-04-21', '2025-05-20'), 'en', today).key).toBe('periods.label.last_30_days');
    expect(periodLabel(p('2024-05-21', '2025-05-20'), 'en', today).key).toBe('periods.label.last_365_days');
  });

  it('names a month in each language', () => {
    const may = p('2025-05-01', '2025-05-31');
    expect(periodLabel(may, 'en', today)).toEqual({
      key: 'periods.label.month',
      values: { month: 'May 2025' },
    });
    expect(periodLabel(may, 'da', today).values.month).toBe('maj 2025');
    expect(periodLabel(may, 'nb', today).values.month).toBe('mai 2025');
  });

  it('names a year', () => {
    expect(periodLabel(p('2024-01-01', '2024-12-31'), 'da', today)).toEqual({
      key: 'periods.label.year',
      values: { year: '2024' },
    });
  });

  it('names a single day that is not today as that day', () => {
    expect(periodLabel(p('2025-03-03', '2025-03-03'), 'en', today)).toEqual({
      key: 'periods.label.day',
      values: { day: '3 Mar 2025' },
    });
  });

  it('shows anything else as start - end', () => {
    const label = periodLabel(p('2025-03-03', '2025-03-09'), 'en', today);
    expect(label).toEqual({
      key: 'periods.label.custom',
      values: { start: '3 Mar 2025', end: '9 Mar 2025' },
    });
    expect(periodLabel(p('2025-03-03', '2025-03-09'), 'da', today).values.start).toMatch(/^3\. mar/);
  });

  it('throws for an invalid period rather than showing Invalid Date', () => {
    expect(() => periodLabel(p('2025-13-01', '2025-13-02'), 'en', today)).toThrow(InvalidPeriodError);
  });
});

describe('server dates (SPEC §7)', () => {
  it('gives tenantGraph local minutes with an exclusive end', () => {
    expect(toServerMinuteRange(p('2025-03-01', '2025-03-31'))).toEqual({
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    expect(toServerMinuteRange(p('2025-12-31', '2025-12-31'))).toEqual({
      periodBegin: '2025-12-31T00:00',
      periodEnd: '2026-01-01T00:00',
    });
  });

  it('gives the other queries plain inclusive dates', () => {
    expect(toServerDates(p('2025-03-01', '2025-03-31'))).toEqual({
      periodBegin: '2025-03-01',
      periodEnd: '2025-03-31',
    });
  });
});

describe('daylight saving in Europe/Copenhagen', () => {
  it('has 23 hours on 2025-03-30 and 25 on 2025-10-26', () => {
    expect(hoursInDay('2025-03-30')).toBe(23);
    expect(hoursInDay('2025-10-26')).toBe(25);
    expect(hoursInDay('2025-06-01')).toBe(24);
  });

  it('starts the days at local midnight', () => {
    expect(dayBounds('2025-03-30').start.toString()).toBe('2025-03-29T23:00:00Z');
    expect(dayBounds('2025-03-30').end.toString()).toBe('2025-03-30T22:00:00Z');
    expect(dayBounds('2025-10-26').start.toString()).toBe('2025-10-25T22:00:00Z');
    expect(dayBounds('2025-10-26').end.toString()).toBe('2025-10-26T23:00:00Z');
  });
});

describe('validation and stored values', () => {
  it('validates a custom period', () => {
    expect(validatePeriod(p('2025-03-01', '2025-03-01'))).toBeNull();
    expect(validatePeriod(p('2025-03-02', '2025-03-01'))).toBe('period_start_after_end');
    expect(validatePeriod(p('2025-02-29', '2025-03-01'))).toBe('period_invalid_date');
    expect(validatePeriod(p('2025-3-1', '2025-03-01'))).toBe('period_invalid_date');
    expect(validatePeriod({ startDate: 20250301, endDate: '2025-03-01' })).toBe('period_invalid_date');
  });

  it('reads a stored period back, as an object or as JSON', () => {
    expect(parseStoredPeriod({ startDate: '2025-03-01', endDate: '2025-03-31' })).toEqual(
      p('2025-03-01', '2025-03-31'),
    );
    expect(parseStoredPeriod('{"startDate":"2025-03-01","endDate":"2025-03-31","x":1}')).toEqual(
      p('2025-03-01', '2025-03-31'),
    );
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['{not json'],
    ['"2025-03-01"'],
    [42],
    [{ startDate: '2025-03-31', endDate: '2025-03-01' }],
    [{ startDate: 'Invalid Date', endDate: '2025-03-01' }],
    [{ startDate: '2025-03-01' }],
    [[]],
  ])('refuses the garbled stored value %j', (value) => {
    expect(parseStoredPeriod(value)).toBeNull();
  });

  it('throws a clear error for an invalid day', () => {
    expect(() => hoursInDay('2025-02-30')).toThrow(/Invalid date "2025-02-30"/);
  });
});
