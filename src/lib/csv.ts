/** CSV export of what a graph or table shows: header in the user's language, local timestamps, shown values. */
import { roundTo } from './format.ts';
import { type Language, numberLocale } from './languages.ts';

/** The field separator: ';' where the decimal mark is a comma (da, nb), so spreadsheets split columns right. */
export function csvSeparator(lang: Language): ',' | ';' {
  return numberLocale(lang) === 'en-GB' ? ',' : ';';
}

/** A number as the screen shows it (same rounding), without grouping, with the language's decimal mark; '' when missing. */
export function csvNumber(value: number | null | undefined, lang: Language, decimals: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  const shown = roundTo(value, decimals);
  const text = (shown === 0 ? 0 : shown).toFixed(decimals);
  return numberLocale(lang) === 'en-GB' ? text : text.replace('.', ',');
}

function quote(field: string, separator: string): string {
  return /["\r\n]/.test(field) || field.includes(separator) ? `"${field.replaceAll('"', '""')}"` : field;
}

/** RFC 4180 text of a header and rows, CRLF line ends; fields are quoted only when they need it. */
export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  lang: Language,
): string {
  const separator = csvSeparator(lang);
  const lines = [header, ...rows].map((row) => row.map((f) => quote(f, separator)).join(separator));
  return `${lines.join('\r\n')}\r\n`;
}

/** A file name safe on every OS from parts such as the quantity and period, e.g. "heat-energy_2025-03-01_2025-03-31.csv". */
export function csvFileName(...parts: string[]): string {
  const stem = parts
    .map((p) => p.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, ''))
    .filter(Boolean)
    .join('_');
  return `${stem || 'export'}.csv`;
}
