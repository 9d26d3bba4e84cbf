/** A month against another in the monthly notice (issue 22): the change in percent, formatted once. Pure. */
import type { Language } from './languages.ts';

const LOCALE: Record<Language, string> = { en: 'en-GB', da: 'da-DK', nb: 'nb-NO' };

/** (value − reference) / reference in percent; null when either is unknown or the reference is 0. */
export function changePercent(value: number | null, reference: number | null): number | null {
  if (value === null || reference === null || reference === 0) return null;
  return ((value - reference) / reference) * 100;
}

/** A change in percent with its sign, e.g. "+8 %" (da, nb) or "+8%" (en); "–" when unknown. */
export function formatChange(percent: number | null, lang: Language): string {
  if (percent === null) return '–';
  return new Intl.NumberFormat(LOCALE[lang], {
    style: 'percent',
    maximumFractionDigits: 0,
    signDisplay: 'exceptZero',
  }).format(percent / 100);
}
