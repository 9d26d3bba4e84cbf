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

/**
 * How a period reads inside a sentence: which `notification.when.*` phrase it takes ("on 24 November 2026",
 * "in week 47, 2026"; Danish and Norwegian "den 24. november", "i uge 47") and the label as it reads mid-sentence
 * (a week's label starts with a capital on its own, not after a preposition).
 */
export function periodInSentence(
  label: string,
  frequency: string,
): { key: 'day' | 'week' | 'month' | 'year'; period: string } {
  const f = frequency.toLowerCase();
  if (f === 'week') return { key: 'week', period: label.charAt(0).toLowerCase() + label.slice(1) };
  return { key: f === 'month' || f === 'year' ? f : 'day', period: label };
}
