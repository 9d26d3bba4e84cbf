import { Temporal } from 'temporal-polyfill';
import { dateLocale, type Language } from './languages.ts';

/** All dates and buckets are in this zone (SPEC §7, §9). */
export const TIME_ZONE = 'Europe/Copenhagen';

/** A range of whole days; ISO dates (YYYY-MM-DD), both inclusive. */
export interface Period {
  startDate: string;
  endDate: string;
}

/** The chart bucket size (SPEC §3 stored span type). */
export type SpanType = 'hour' | 'day' | 'week' | 'month';
/** The kind of a period, from its length and calendar alignment (SPEC §4). */
export type PeriodKind = 'day' | 'week' | 'month' | 'quarter' | 'half-year' | 'year' | 'custom';
/** Every resolution of SPEC §4, finest first. */
export const RESOLUTIONS = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
/** A resolution of SPEC §4. */
export type Resolution = (typeof RESOLUTIONS)[number];
/** The resolution as the tenantGraph query takes it (uppercased). */
export type ServerResolution = 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
/** Every preset of SPEC §4, in picker order. */
export const PERIOD_PRESETS = [
  'today',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_year',
  'last_year',
  'last_7_days',
  'last_30_days',
  'last_365_days',
  'custom',
] as const;
/** A preset of SPEC §4. */
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
/** Stepping direction. */
export type StepDirection = 'previous' | 'next';

/** Why a period was refused; the message says which field and why. */
export class InvalidPeriodError extends Error {
  constructor(
    readonly reason: 'period_invalid_date' | 'period_start_after_end',
    message: string,
  ) {
    super(message);
    this.name = 'InvalidPeriodError';
  }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses a strict ISO date (YYYY-MM-DD, a real calendar day), or null. */
export function parseIsoDate(x: unknown): Temporal.PlainDate | null {
  if (typeof x !== 'string' || !ISO_DATE.test(x)) return null;
  try {
    return Temporal.PlainDate.from(x, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/** Checks a custom period: both dates valid and the start not after the end; null when fine. */
export function validatePeriod(p: {
  startDate: unknown;
  endDate: unknown;
}): 'period_invalid_date' | 'period_start_after_end' | null {
  const start = parseIsoDate(p.startDate);
  const end = parseIsoDate(p.endDate);
  if (!start || !end) return 'period_invalid_date';
  return Temporal.PlainDate.compare(start, end) > 0 ? 'period_start_after_end' : null;
}

/** The start and end of a period as dates; throws InvalidPeriodError saying what is wrong. */
function periodDates(p: Period): { start: Temporal.PlainDate; end: Temporal.PlainDate } {
  const start = parseIsoDate(p?.startDate);
  const end = parseIsoDate(p?.endDate);
  if (!start) {
    throw new InvalidPeriodError(
      'period_invalid_date',
      `Invalid period: startDate ${JSON.stringify(p?.startDate)} is not a date (YYYY-MM-DD)`,
    );
  }
  if (!end) {
    throw new InvalidPeriodError(
      'period_invalid_date',
      `Invalid period: endDate ${JSON.stringify(p?.endDate)} is not a date (YYYY-MM-DD)`,
    );
  }
  if (Temporal.PlainDate.compare(start, end) > 0) {
    throw new InvalidPeriodError(
      'period_start_after_end',
      `Invalid period: startDate ${p.startDate} is after endDate ${p.endDate}`,
    );
  }
  return { start, end };
}

function toPeriod(start: Temporal.PlainDate, end: Temporal.PlainDate): Period {
  return { startDate: start.toString(), endDate: end.toString() };
}

/** Today's date in Europe/Copenhagen. */
export function todayInCopenhagen(): Temporal.PlainDate {
  return Temporal.Now.plainDateISO(TIME_ZONE);
}

/** SPEC §4 default: the last 30 days up to and including today. */
export function defaultPeriod(today: Temporal.PlainDate = todayInCopenhagen()): Period {
  return toPeriod(today.subtract({ days: 29 }), today);
}

/** The number of calendar days in a period, counting both ends (a single day is 1). */
export function spanDays(p: Period): number {
  const { start, end } = periodDates(p);
  return start.until(end, { largestUnit: 'days' }).days + 1;
}

/** SPEC §4 span type: ≤1 day with hourly data → hour; >31 and <363 → week; >363 → month; else day. */
export function spanType(p: Period, hasHourlyData: boolean): SpanType {
  const days = spanDays(p);
  if (days <= 1 && hasHourlyData) return 'hour';
  if (days > 31 && days < 363) return 'week';
  if (days > 363) return 'month';
  return 'day';
}

const RESOLUTION_OF_SPAN: Record<SpanType, Resolution> = {
  hour: 'hourly',
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
};

/** The resolution a span type is charted at. */
export function resolutionOfSpan(span: SpanType): Resolution {
  return RESOLUTION_OF_SPAN[span];
}

const SERVER_RESOLUTION: Record<Resolution, ServerResolution> = {
  hourly: 'HOUR',
  daily: 'DAY',
  weekly: 'WEEK',
  monthly: 'MONTH',
  yearly: 'YEAR',
};

/** The uppercased resolution tenantGraph expects (SPEC §7). */
export function serverResolution(resolution: Resolution): ServerResolution {
  return SERVER_RESOLUTION[resolution];
}

type Aligned = 'month' | 'quarter' | 'half-year' | 'year';

/** Which whole calendar unit a period covers exactly, if any (months by the calendar, not by length). */
export function calendarAlignment(p: Period): Aligned | null {
  const { start, end } = periodDates(p);
  if (start.day !== 1) return null;
  const months = [12, 6, 3, 1] as const;
  for (const n of months) {
    if ((start.month - 1) % n !== 0) continue;
    const last = start.add({ months: n }).subtract({ days: 1 });
    if (last.equals(end)) return n === 12 ? 'year' : n === 6 ? 'half-year' : n === 3 ? 'quarter' : 'month';
  }
  return null;
}

/**
 * SPEC §4 period kind from the span in days (≤1 day, 7 week, 28–31 month, 90–93 quarter, 180–183 half-year,
 * 364–366 year, else custom). An exact calendar unit wins over the table, so July–December (184 days) is a
 * half-year and a 31-day range from the 15th is a month by length only.
 */
export function periodKind(p: Period): PeriodKind {
  const aligned = calendarAlignment(p);
  if (aligned) return aligned;
  const days = spanDays(p);
  if (days <= 1) return 'day';
  if (days === 7) return 'week';
  if (days >= 28 && days <= 31) return 'month';
  if (days >= 90 && days <= 93) return 'quarter';
  if (days >= 180 && days <= 183) return 'half-year';
  if (days >= 364 && days <= 366) return 'year';
  return 'custom';
}

const MONTHS_OF: Record<Aligned, number> = { month: 1, quarter: 3, 'half-year': 6, year: 12 };

/**
 * SPEC §4 stepping: a whole calendar month, quarter, half-year or year moves by the calendar; anything else
 * (a day, a week, a custom range, a month-long range off the calendar) shifts by its own length in days.
 * Throws InvalidPeriodError for an invalid period.
 */
export function stepPeriod(p: Period, direction: StepDirection): Period {
  const { start, end } = periodDates(p);
  const sign = direction === 'next' ? 1 : -1;
  const aligned = calendarAlignment(p);
  if (aligned) {
    const months = MONTHS_OF[aligned];
    const newStart = start.add({ months: sign * months });
    return toPeriod(newStart, newStart.add({ months }).subtract({ days: 1 }));
  }
  const days = spanDays(p);
  return toPeriod(start.add({ days: sign * days }), end.add({ days: sign * days }));
}

/** Monday of the ISO week that holds a date (weeks start on Monday, SPEC §9). */
export function startOfWeek(date: Temporal.PlainDate): Temporal.PlainDate {
  return date.subtract({ days: date.dayOfWeek - 1 });
}

/** ISO week number and week-year: week 1 is the week with 4 January. */
export function isoWeek(date: Temporal.PlainDate): { year: number; week: number } {
  // Thursday of the same ISO week decides the week-year, which gives "the week containing 4 January".
  const thursday = startOfWeek(date).add({ days: 3 });
  const jan1 = Temporal.PlainDate.from({ year: thursday.year, month: 1, day: 1 });
  const week = Math.floor(jan1.until(thursday, { largestUnit: 'days' }).days / 7) + 1;
  return { year: thursday.year, week };
}

/** The period a preset stands for on a given day; null for 'custom' (the user picks the dates). */
export function presetPeriod(
  preset: PeriodPreset,
  today: Temporal.PlainDate = todayInCopenhagen(),
): Period | null {
  const monday = startOfWeek(today);
  const firstOfMonth = today.with({ day: 1 });
  const firstOfYear = today.with({ month: 1, day: 1 });
  switch (preset) {
    case 'today':
      return toPeriod(today, today);
    case 'this_week':
      return toPeriod(monday, monday.add({ days: 6 }));
    case 'last_week':
      return toPeriod(monday.subtract({ days: 7 }), monday.subtract({ days: 1 }));
    case 'this_month':
      return toPeriod(firstOfMonth, firstOfMonth.add({ months: 1 }).subtract({ days: 1 }));
    case 'last_month':
      return toPeriod(firstOfMonth.subtract({ months: 1 }), firstOfMonth.subtract({ days: 1 }));
    case 'this_year':
      return toPeriod(firstOfYear, firstOfYear.add({ years: 1 }).subtract({ days: 1 }));
    case 'last_year':
      return toPeriod(firstOfYear.subtract({ years: 1 }), firstOfYear.subtract({ days: 1 }));
    case 'last_7_days':
      return toPeriod(today.subtract({ days: 6 }), today);
    case 'last_30_days':
      return defaultPeriod(today);
    case 'last_365_days':
      return toPeriod(today.subtract({ days: 364 }), today);
    case 'custom':
      return null;
  }
}

/** The preset a period equals on a given day, else 'custom'. */
export function presetOf(p: Period, today: Temporal.PlainDate = todayInCopenhagen()): PeriodPreset {
  for (const preset of PERIOD_PRESETS) {
    const q = presetPeriod(preset, today);
    if (q && q.startDate === p.startDate && q.endDate === p.endDate) return preset;
  }
  return 'custom';
}

/** True when x is a preset name. */
export function isPeriodPreset(x: unknown): x is PeriodPreset {
  return typeof x === 'string' && (PERIOD_PRESETS as readonly string[]).includes(x);
}

/** A label as an i18n key in the domain namespace plus its interpolation values. */
export interface PeriodLabel {
  key:
    | 'periods.label.today'
    | 'periods.label.day'
    | 'periods.label.last_7_days'
    | 'periods.label.last_30_days'
    | 'periods.label.last_365_days'
    | 'periods.label.month'
    | 'periods.label.year'
    | 'periods.label.custom';
  /** The label's variables: day (day), month (month), year (year), start and end (custom). */
  values: { day?: string; month?: string; year?: string; start?: string; end?: string };
}

/** Formats an ISO date for display in a language, e.g. "5 Mar 2025" / "5. mar. 2025". */
export function formatDate(date: Temporal.PlainDate, lang: Language): string {
  return date.toLocaleString(dateLocale(lang), { day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * SPEC §4 labels: today, last 7 days, last 30 days (and last 365 days) when the period ends today,
 * a named month, a year, otherwise the custom range "start - end".
 */
export function periodLabel(
  p: Period,
  lang: Language,
  today: Temporal.PlainDate = todayInCopenhagen(),
): PeriodLabel {
  const { start, end } = periodDates(p);
  const days = spanDays(p);
  if (end.equals(today)) {
    if (days === 1) return { key: 'periods.label.today', values: {} };
    if (days === 7) return { key: 'periods.label.last_7_days', values: {} };
    if (days === 30) return { key: 'periods.label.last_30_days', values: {} };
    if (days === 365) return { key: 'periods.label.last_365_days', values: {} };
  }
  if (days === 1) return { key: 'periods.label.day', values: { day: formatDate(start, lang) } };
  const aligned = calendarAlignment(p);
  if (aligned === 'month') {
    const month = start.toLocaleString(dateLocale(lang), { month: 'long', year: 'numeric' });
    return { key: 'periods.label.month', values: { month } };
  }
  if (aligned === 'year') return { key: 'periods.label.year', values: { year: String(start.year) } };
  return {
    key: 'periods.label.custom',
    values: { start: formatDate(start, lang), end: formatDate(end, lang) },
  };
}

/** SPEC §7: tenantGraph takes Copenhagen local timestamps to the minute; the end is the next midnight (exclusive). */
export function toServerMinuteRange(p: Period): { periodBegin: string; periodEnd: string } {
  const { start, end } = periodDates(p);
  return { periodBegin: `${start.toString()}T00:00`, periodEnd: `${end.add({ days: 1 }).toString()}T00:00` };
}

/** SPEC §7: the other data queries take plain Copenhagen dates; both ends inclusive, like Period. */
export function toServerDates(p: Period): { periodBegin: string; periodEnd: string } {
  const { start, end } = periodDates(p);
  return { periodBegin: start.toString(), periodEnd: end.toString() };
}

/** The UTC instants where a Copenhagen local day starts and ends (end exclusive); 23, 24 or 25 hours apart. */
export function dayBounds(date: string): { start: Temporal.Instant; end: Temporal.Instant } {
  const day = parseIsoDate(date);
  if (!day)
    throw new InvalidPeriodError('period_invalid_date', `Invalid date ${JSON.stringify(date)} (YYYY-MM-DD)`);
  return {
    start: day.toZonedDateTime(TIME_ZONE).toInstant(),
    end: day.add({ days: 1 }).toZonedDateTime(TIME_ZONE).toInstant(),
  };
}

/** The number of hours in a Copenhagen local day: 23 on the spring change, 25 on the autumn one. */
export function hoursInDay(date: string): number {
  const { start, end } = dayBounds(date);
  return start.until(end, { largestUnit: 'hours' }).hours;
}

/** Reads a stored period back (object or JSON string); null when it is missing or garbled. */
export function parseStoredPeriod(x: unknown): Period | null {
  let value = x;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const { startDate, endDate } = value as Record<string, unknown>;
  if (validatePeriod({ startDate, endDate }) !== null) return null;
  return { startDate: startDate as string, endDate: endDate as string };
}

/** The 365 days a consumption rating is based on (SPEC §9), ending yesterday so the last day is complete. */
export function ratingBasisPeriod(today: Temporal.PlainDate = todayInCopenhagen()): Period {
  const end = today.subtract({ days: 1 });
  return toPeriod(end.subtract({ days: 364 }), end);
}
