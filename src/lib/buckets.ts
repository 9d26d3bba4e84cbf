/** Labels and states of graph buckets, from the timestamps tenantGraph returns (Copenhagen offset included). */
import { Temporal } from 'temporal-polyfill';
import { dateLocale, type Language } from './languages.ts';
import { isoWeek, type ServerResolution } from './periods.ts';

/** The local date and time of a bucket start, "YYYY-MM-DD HH:mm", as written in its own Copenhagen offset. */
export function localTimestamp(timestamp: string): string {
  return `${timestamp.slice(0, 10)} ${timestamp.slice(11, 16)}`;
}

function plainDate(timestamp: string): Temporal.PlainDate | null {
  try {
    return Temporal.PlainDate.from(timestamp.slice(0, 10));
  } catch {
    return null;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function fmt(lang: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(dateLocale(lang), { ...options, timeZone: 'UTC' });
    formats.set(key, f);
  }
  return f;
}

function utcOf(date: Temporal.PlainDate, hour = 0, minute = 0): number {
  return Date.UTC(date.year, date.month - 1, date.day, hour, minute);
}

/**
 * A bucket's label: "14:00" (hour; with the day when the graph spans days), "5 Mar" (day), "Week 12" (week),
 * "Mar 2025" (month), "2025" (year). `long` adds what a table row needs to stand alone (year, weekday).
 */
export function bucketLabel(
  timestamp: string,
  resolution: ServerResolution,
  lang: Language,
  opts: { long?: boolean; withDay?: boolean; weekWord?: string } = {},
): string {
  const date = plainDate(timestamp);
  if (!date) return timestamp;
  const hour = Number(timestamp.slice(11, 13)) || 0;
  const minute = Number(timestamp.slice(14, 16)) || 0;
  switch (resolution) {
    case 'HOUR': {
      const time = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      if (!opts.long && !opts.withDay) return time;
      return `${fmt(lang, { day: 'numeric', month: 'short', ...(opts.long ? { year: 'numeric' } : {}) }).format(utcOf(date))} ${time}`;
    }
    case 'DAY':
      return fmt(
        lang,
        opts.long
          ? { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }
          : { day: 'numeric', month: 'short' },
      ).format(utcOf(date));
    case 'WEEK': {
      const { week, year } = isoWeek(date);
      const word = opts.weekWord ?? 'W';
      return opts.long ? `${word} ${week}, ${year}` : `${word} ${week}`;
    }
    case 'MONTH':
      return fmt(lang, { month: opts.long ? 'long' : 'short', year: 'numeric' }).format(utcOf(date));
    case 'YEAR':
      return String(date.year);
  }
}
