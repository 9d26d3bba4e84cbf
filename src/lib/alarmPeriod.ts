/** Labels for an alarm or notification period (a day, an ISO week, a month or a year) in the user's language. */
import { Temporal } from 'temporal-polyfill';
import { dateLocale, type Language } from './languages.ts';
import { isoWeek } from './periods.ts';

/** The parts a translation template needs: `{{week}}`/`{{year}}` for weeks, otherwise a formatted date text. */
export function alarmPeriodText(
  start: string,
  frequency: string,
  lang: Language,
  weekLabel: (week: number, year: number) => string,
): string {
  const date = Temporal.PlainDate.from(start);
  const locale = dateLocale(lang);
  switch (frequency) {
    case 'week': {
      const { week, year } = isoWeek(date);
      return weekLabel(week, year);
    }
    case 'month':
      return date.toLocaleString(locale, { month: 'long', year: 'numeric' });
    case 'year':
      return String(date.year);
    default:
      return date.toLocaleString(locale, { day: 'numeric', month: 'long', year: 'numeric' });
  }
}
