/** Parsing of the text fields of a reading row: ISO 8601 timestamps with an offset, and decimal values. */

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** A decimal in canonical form: no `+`, no leading zeros, no trailing fraction zeros or bare point. */
const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Parses an ISO 8601 timestamp that carries `Z` or an offset; returns epoch milliseconds, or null.
 * Local times without an offset are refused, because a DST night makes them ambiguous.
 */
export function parseTimestamp(text: string): number | null {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', offset = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  // Readings are kept to the millisecond; finer digits must be zero so that two readings never merge.
  if (/[1-9]/.test(frac.slice(3))) return null;
  const millis = Number(frac.slice(0, 3).padEnd(3, '0'));
  let offsetMinutes = 0;
  if (offset.toUpperCase() !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 14 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

/**
 * Checks a decimal value (digits, optional sign and point; no exponent, no thousands separator)
 * and returns it in canonical form (no `+`, no superfluous zeros), or null.
 */
export function parseDecimal(text: string): string | null {
  const t = text.trim();
  // Most values arrive canonical already (the demo's, and most meters'): one test, no new strings.
  if (CANONICAL.test(t)) return t === '-0' ? '0' : t;
  if (!DECIMAL.test(t)) return null;
  const negative = t.startsWith('-');
  const unsigned = t.replace(/^[+-]/, '');
  const [intPart = '', fracPart = ''] = unsigned.split('.');
  const int = intPart.replace(/^0+(?=\d)/, '') || '0';
  const frac = fracPart.replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}
