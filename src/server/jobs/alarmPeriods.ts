/** Alarm periods (day, week, month, year) as Europe/Copenhagen calendar dates; `end` is exclusive. */
import { Temporal } from 'temporal-polyfill';
import { startOfWeek, TIME_ZONE } from '../../lib/periods.ts';

export type AlarmFrequency = 'day' | 'week' | 'month' | 'year';

/** A calendar period: first day and the day after the last. */
export interface AlarmPeriod {
  start: string;
  end: string;
}

/** The Copenhagen calendar date at an instant. */
export function localDate(at: Date): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(TIME_ZONE).toPlainDate();
}

/** The period of a frequency that holds a date. */
export function periodContaining(date: Temporal.PlainDate, frequency: AlarmFrequency): AlarmPeriod {
  const span = (start: Temporal.PlainDate, end: Temporal.PlainDate) => ({
    start: start.toString(),
    end: end.toString(),
  });
  switch (frequency) {
    case 'day':
      return span(date, date.add({ days: 1 }));
    case 'week': {
      const monday = startOfWeek(date);
      return span(monday, monday.add({ days: 7 }));
    }
    case 'month': {
      const first = date.with({ day: 1 });
      return span(first, first.add({ months: 1 }));
    }
    case 'year': {
      const first = date.with({ month: 1, day: 1 });
      return span(first, first.add({ years: 1 }));
    }
  }
}

/** The period just before this one. */
export function previousPeriod(period: AlarmPeriod, frequency: AlarmFrequency): AlarmPeriod {
  return periodContaining(Temporal.PlainDate.from(period.start).subtract({ days: 1 }), frequency);
}

/** The latest period that has ended at `now` (complete periods only). */
export function latestCompletePeriod(now: Date, frequency: AlarmFrequency): AlarmPeriod {
  return previousPeriod(periodContaining(localDate(now), frequency), frequency);
}

/** The last `count` complete periods at `now`, oldest first. */
export function recentPeriods(now: Date, frequency: AlarmFrequency, count: number): AlarmPeriod[] {
  const out: AlarmPeriod[] = [];
  let p = latestCompletePeriod(now, frequency);
  for (let i = 0; i < count; i++) {
    out.unshift(p);
    p = previousPeriod(p, frequency);
  }
  return out;
}

/** Whether a date string is the first day of a period of this frequency. */
export function isPeriodStart(date: string, frequency: AlarmFrequency): boolean {
  return periodContaining(Temporal.PlainDate.from(date), frequency).start === date;
}

/** The UTC instant where a local date starts. */
export function startInstant(date: string): Date {
  return new Date(Temporal.PlainDate.from(date).toZonedDateTime(TIME_ZONE).epochMilliseconds);
}

/** Every date of a period, in order. */
export function datesOf(period: AlarmPeriod): string[] {
  const out: string[] = [];
  const end = Temporal.PlainDate.from(period.end);
  for (
    let d = Temporal.PlainDate.from(period.start);
    Temporal.PlainDate.compare(d, end) < 0;
    d = d.add({ days: 1 })
  )
    out.push(d.toString());
  return out;
}
