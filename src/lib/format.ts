import { dateLocale, type Language, numberLocale } from './languages.ts';
import { type Decimals, type QuantityId, quantityInfo, type UnitId } from './quantities.ts';

/** Shown instead of a number that is missing or not finite, so NaN never reaches the screen. */
export const MISSING = '–';

/** Options for formatNumber; SPEC §9's default is at most 2 fraction digits. */
export interface NumberOptions {
  minimumFractionDigits?: number;
  maximumFractionDigits?: number;
}

const cache = new Map<string, Intl.NumberFormat>();

function formatter(lang: Language, min: number, max: number): Intl.NumberFormat {
  const key = `${lang}|${min}|${max}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(numberLocale(lang), { minimumFractionDigits: min, maximumFractionDigits: max });
    cache.set(key, f);
  }
  return f;
}

/**
 * The money format of a language: 2 decimals and the ISO code, never a symbol. "kr." would read as Norwegian
 * kroner to a Norwegian, so DKK is written out in every language ("DKK 12.50", "12,50 DKK").
 */
export function moneyFormat(currency: string, lang: Language): Intl.NumberFormat {
  // Kept per language and currency: building one is slow (its locale and currency data load on first use, a
  // long task on a phone), and a price page formats with it on every render.
  const key = `${lang}|${currency}`;
  let f = moneyCache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(numberLocale(lang), {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    moneyCache.set(key, f);
  }
  return f;
}
const moneyCache = new Map<string, Intl.NumberFormat>();

/** Formats a number in the language's locale (en-GB or da-DK); '–' when it is not finite. */
export function formatNumber(value: number, lang: Language, opts: NumberOptions = {}): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return MISSING;
  const min = opts.minimumFractionDigits ?? 0;
  const max = Math.max(min, opts.maximumFractionDigits ?? 2);
  // Avoid "-0" for tiny negatives that round to zero.
  const shown = roundTo(value, max) === 0 ? 0 : value;
  return formatter(lang, min, max).format(shown);
}

/**
 * A stored decimal's text (a register reading, up to 12 integer and 6 fraction digits) in the language's locale,
 * every digit kept: Intl formats the text as an exact decimal, where a number would round beyond 15 digits and
 * formatNumber's default would drop fraction digits. MISSING when it is not a decimal.
 */
export function formatDecimalText(text: string, lang: Language): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return MISSING;
  return formatter(lang, 0, 6).format(text as `${number}`);
}

const plain = new Map<number, Intl.NumberFormat>();

/** Rounding through Intl itself, for the values whose shortest form has an exponent. */
function intlRound(value: number, digits: number): number {
  let f = plain.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, useGrouping: false });
    plain.set(digits, f);
  }
  return Number(f.format(value));
}

/**
 * Rounds to a number of fraction digits exactly as the display does: Intl.NumberFormat rounds the number's
 * shortest decimal form (String(value)), half away from zero. Done here on that string, which
 * tests/unit/format.test.ts checks against Intl: in the browser, the first en-US formatter of a page costs
 * its locale data (about 70 ms of a phone's main thread in the dashboard's first render).
 */
export function roundTo(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const text = String(Math.abs(value));
  if (text.includes('e')) return intlRound(value, digits);
  const dot = text.indexOf('.');
  if (dot < 0 || text.length - dot - 1 <= digits) return value;
  let kept = BigInt(text.slice(0, dot) + text.slice(dot + 1, dot + 1 + digits));
  if (text.charCodeAt(dot + 1 + digits) >= 53 /* '5' */) kept += 1n;
  const abs = Number(`${kept}e-${digits}`);
  return value < 0 ? -abs : abs;
}

/** The display decimals of a quantity, plain or per m². */
export function quantityDecimals(quantity: QuantityId, normalized = false): Decimals {
  const info = quantityInfo(quantity);
  return normalized ? info.normalizedDecimals : info.decimals;
}

const SYMBOLS: Record<Exclude<UnitId, 'hca-unit' | 'count'>, string> = {
  'degree-celsius': '°C',
  'degree-kelvin': 'K',
  'cubic-meter': 'm³',
  'kilo-watt-hour': 'kWh',
  percent: '%',
  hertz: 'Hz',
  'cubic-meter-per-hour': 'm³/h',
  bar: 'bar',
};

/** The symbol of a unit for a displayed value; the hca unit is worded per language (SPEC §9). */
function unitIdSymbol(unit: UnitId, value: number, lang: Language): string {
  if (unit === 'count') return '';
  if (unit !== 'hca-unit') return SYMBOLS[unit];
  if (lang === 'da') return 'enh';
  // SPEC §9 gives "enhet"; Norwegian says "enheter" for every amount but exactly 1 (docs/glossary.md).
  if (lang === 'nb') return value === 1 ? 'enhet' : 'enheter';
  // English plural when the value is above 1 or is 0: "0 units", "1 unit", "0.5 unit", "2 units".
  return value > 1 || value === 0 ? 'units' : 'unit';
}

/** The unit symbol of a quantity for a displayed value, e.g. 'kWh', '°C', 'units'. */
export function unitSymbol(quantity: QuantityId, value: number, lang: Language): string {
  return unitIdSymbol(quantityInfo(quantity).unit, value, lang);
}

/** Suffix for values normalised per square metre. */
export const PER_M2 = '/ m²';

/** Formats a value with its quantity's decimals and unit, e.g. "1,234 kWh" (en), "1.234 kWh" (da), "0.52 units / m²". */
export function formatQuantity(
  value: number,
  quantity: QuantityId,
  lang: Language,
  opts: { normalized?: boolean } = {},
): string {
  const normalized = opts.normalized ?? false;
  const decimals = quantityDecimals(quantity, normalized);
  if (typeof value !== 'number' || !Number.isFinite(value)) return MISSING;
  const shown = roundTo(value, decimals.max);
  const number = formatNumber(value, lang, {
    minimumFractionDigits: decimals.min,
    maximumFractionDigits: decimals.max,
  });
  const unit = unitSymbol(quantity, shown, lang);
  const parts = [number];
  if (unit) parts.push(unit);
  if (normalized) parts.push(PER_M2);
  return parts.join(' ');
}

/**
 * From this many grams a CO₂ figure is written in kg: five-digit gram figures and longer are hard to read, and
 * the public report writes every CO₂ figure in kg with one decimal.
 */
export const CO2_KG_FROM_GRAMS = 10_000;

/** Formats grams of CO₂ as kg with one decimal, as the report does, e.g. "12.3 kg CO₂"; '–' when not finite. */
export function formatCo2Kg(grams: number, lang: Language): string {
  if (typeof grams !== 'number' || !Number.isFinite(grams)) return MISSING;
  return `${formatNumber(grams / 1000, lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} kg CO₂`;
}

/** A CO₂ figure standing alone: whole grams below CO2_KG_FROM_GRAMS, kg from there. */
export function formatCo2(grams: number, lang: Language): string {
  return Math.abs(grams) >= CO2_KG_FROM_GRAMS ? formatCo2Kg(grams, lang) : formatCo2Grams(grams, lang);
}

/** Formats grams of CO2 as whole grams, e.g. "1,234 g CO₂"; '–' when not finite. */
export function formatCo2Grams(grams: number, lang: Language): string {
  if (typeof grams !== 'number' || !Number.isFinite(grams)) return MISSING;
  return `${formatNumber(grams, lang, { maximumFractionDigits: 0 })} g CO₂`;
}

/** An instant as a date and time in Copenhagen, in the language's style ("28 Nov 2026, 11:30"). */
export function formatDateTime(at: Date | string, lang: Language): string {
  return new Intl.DateTimeFormat(dateLocale(lang), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Copenhagen',
  }).format(new Date(at));
}
