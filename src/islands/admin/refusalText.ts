/**
 * An ingestion refusal (src/lib/refusalCodes.ts) or an untaken telegram's detail in the operator's language, from
 * its code and params: numbers and decimals in the language's format, instants as the console writes them
 * (Copenhagen time). Null when the code is unknown or missing (rows stored before codes were), so the caller shows
 * the English text it has.
 */
import { useTranslation } from 'react-i18next';
import { formatDecimalText, formatNumber, MISSING } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { isRefusalCode, isTelegramDetailCode } from '../../lib/refusalCodes.ts';
import { when } from './opsShared.tsx';

type Params = Record<string, unknown>;

const text = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');

/** The texts of a language for refusal codes and telegram details. */
export function useRefusalText(lang: Language) {
  const { t } = useTranslation(['admin-ops', 'domain']);
  /** A decimal text every digit kept, in the language's format; as sent when it is no plain decimal. */
  const decimal = (x: unknown) => {
    const shown = formatDecimalText(text(x), lang);
    return shown === MISSING ? text(x) : shown;
  };
  const number = (x: unknown) =>
    typeof x === 'number' ? formatNumber(x, lang, { maximumFractionDigits: 6 }) : text(x);
  const instant = (x: unknown) =>
    typeof x === 'string' && !Number.isNaN(Date.parse(x)) ? when(x, lang) : text(x);
  const quantity = (x: unknown) => t(quantityKey(text(x)));

  /** A refusal's text; null for a code this console does not know. */
  function refusal(code: unknown, raw: unknown): string | null {
    if (!isRefusalCode(code)) return null;
    const p = (raw && typeof raw === 'object' ? raw : {}) as Params;
    switch (code) {
      case 'null_byte':
      case 'not_written_atomic':
        return t(`admin-ops:refusals.${code}`);
      case 'unknown_meter':
        return t('admin-ops:refusals.unknown_meter', { meter: text(p.meter) });
      case 'invalid_timestamp':
      case 'timestamp_before_2000':
        // As sent: the point is the text itself (a time before 2000 UTC may be 2000 in Copenhagen).
        return t(`admin-ops:refusals.${code}`, { timestamp: text(p.timestamp) });
      case 'timestamp_in_future':
        return t('admin-ops:refusals.timestamp_in_future', { when: instant(p.timestamp) });
      case 'not_a_number':
        return t('admin-ops:refusals.not_a_number', { value: text(p.value) });
      case 'too_many_integer_digits':
      case 'too_many_fraction_digits':
        // As sent: formatting would round away the digits it is about.
        return t(`admin-ops:refusals.${code}`, { value: text(p.value), max: number(p.maxDigits) });
      case 'negative_register':
        return t('admin-ops:refusals.negative_register', { value: decimal(p.value) });
      case 'out_of_range':
        return t('admin-ops:refusals.out_of_range', {
          value: decimal(p.value),
          min: number(p.min),
          max: number(p.max),
          quantity: quantity(p.quantity),
        });
      case 'outside_installation': {
        const window =
          typeof p.removedAt === 'string'
            ? t('admin-ops:refusal_window.between', {
                from: instant(p.installedAt),
                to: instant(p.removedAt),
              })
            : t('admin-ops:refusal_window.since', { from: instant(p.installedAt) });
        return t('admin-ops:refusals.outside_installation', {
          when: instant(p.timestamp),
          meter: text(p.meter),
          window,
        });
      }
      case 'conflicting_value_in_batch':
        return t('admin-ops:refusals.conflicting_value_in_batch', {
          meter: text(p.meter),
          value: decimal(p.value),
          when: instant(p.timestamp),
          otherValue: decimal(p.otherValue),
          otherLine: number(p.otherLine),
        });
      case 'conflicts_with_stored':
        return t('admin-ops:refusals.conflicts_with_stored', {
          meter: text(p.meter),
          stored: decimal(p.storedValue),
        });
      case 'quarantine_pending':
        return t('admin-ops:refusals.quarantine_pending', { issueId: text(p.issueId) });
      case 'before_retention':
        return t('admin-ops:refusals.before_retention', {
          when: instant(p.timestamp),
          horizon: instant(p.horizon),
        });
      case 'implausible_rise':
        return t('admin-ops:refusals.implausible_rise', {
          meter: text(p.meter),
          from: decimal(p.from),
          to: decimal(p.to),
          hours: decimal(p.hours),
          when: instant(p.at),
          perHour: decimal(p.perHour),
          quantity: quantity(p.quantity),
        });
      case 'implausible_drop':
        return t('admin-ops:refusals.implausible_drop', {
          meter: text(p.meter),
          from: decimal(p.from),
          to: decimal(p.to),
          when: instant(p.at),
          percent: number(p.resetPercent),
          limit: number(p.limit),
          hours: decimal(p.hours),
        });
      case 'bad_csv_header':
        return t('admin-ops:refusals.bad_csv_header', { expected: text(p.expected), got: text(p.got) });
      case 'malformed_csv':
        return t('admin-ops:refusals.malformed_csv', { message: text(p.message) });
    }
  }

  /** An untaken telegram's detail; null for a code this console does not know. */
  function telegramDetail(code: unknown, raw: unknown): string | null {
    if (!isTelegramDetailCode(code)) return null;
    const p = (raw && typeof raw === 'object' ? raw : {}) as Params;
    if (code === 'malformed')
      return t('admin-ops:quality.untaken_detail.malformed', { message: text(p.message) });
    if (code === 'no_value') {
      const fields = Array.isArray(p.fields) ? p.fields.map(text).filter(Boolean) : [];
      const args = { meter: text(p.meter), quantity: quantity(p.quantity) };
      return fields.length > 0
        ? t('admin-ops:quality.untaken_detail.no_value', { ...args, fields: fields.join(', ') })
        : t('admin-ops:quality.untaken_detail.no_value_none', args);
    }
    return refusal(code, p);
  }

  return { refusal, telegramDetail };
}
