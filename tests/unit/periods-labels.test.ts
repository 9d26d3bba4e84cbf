/** src/lib/periods.ts: weeks, presets, labels, server dates, daylight saving, validation and stored values. */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  dayBounds,
  defaultPeriod,
  hoursInDay,
  InvalidPeriodError,
  isoWeek,
  PERIOD_PRESETS,
  parseStoredPeriod,
  periodLabel,
  presetOf,
  presetPeriod,
  ratingBasisPeriod,
  spanDays,
  startOfWeek,
  toServerDates,
  toServerMinuteRange,
  validatePeriod,
} from '../../src/lib/periods.ts';
import { d, dateArb, p } from './periodsHelpers.ts';

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
