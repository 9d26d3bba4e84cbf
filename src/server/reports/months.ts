/** Calendar months as 'YYYY-MM-01' strings (Europe/Copenhagen dates). Pure. */
import { Temporal } from 'temporal-polyfill';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])(-01)?$/;

/** Parses 'YYYY-MM' or 'YYYY-MM-01' into 'YYYY-MM-01'; null otherwise. */
export function parseMonth(x: unknown): string | null {
  if (typeof x !== 'string' || !MONTH.test(x)) return null;
  return `${x.slice(0, 7)}-01`;
}

/** The month `n` months after `month` (negative for before). */
export function addMonths(month: string, n: number): string {
  return Temporal.PlainDate.from(month).add({ months: n }).toString();
}

/** The last day of the month. */
export function lastDayOf(month: string): string {
  const d = Temporal.PlainDate.from(month);
  return d.with({ day: d.daysInMonth }).toString();
}

/** The last complete month before the instant, in Copenhagen. */
export function lastCompleteMonth(now: Date): string {
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime())
    .toZonedDateTimeISO('Europe/Copenhagen')
    .toPlainDate();
  return today.with({ day: 1 }).subtract({ months: 1 }).toString();
}

/** Months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}
