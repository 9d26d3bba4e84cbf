/** What the alarm and notification islands share: the tenancy in view, texts of rules, periods and values. */
import type { TFunction } from 'i18next';
import type { Alarm } from '../../client/operations/alarmQueries.ts';
import { alarmPeriodText } from '../../lib/alarmPeriod.ts';
import { formatNumber, formatQuantity, unitSymbol } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import {
  CONSUMPTION_QUANTITIES,
  isQuantityId,
  type QuantityId,
  quantityFromLegacyKind,
} from '../../lib/quantities.ts';
import { useSession } from '../shared/useSession.ts';

/** The translate function of the alarm and notification islands. */
export type AlarmsT = TFunction<readonly ['alarms', 'domain']>;

/** The selected tenancy's id once the session is ready (the shell keeps the URL and the selection in step). */
export function useTenancyInView(): string | null {
  const ready = useSession((s) => s.matches({ loggedIn: { tenancy: 'withTenancies' } }));
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  return ready ? selectedId : null;
}

/** The quantities the tenancy measures, from its meter kinds; total water when it has hot or cold water. */
export function useOwnQuantities(tenancyId: string | null): QuantityId[] {
  const kinds = useSession(
    (s) =>
      s.context.tenancies
        .find((x) => x.id === tenancyId)
        ?.meterUnits.map((m) => m.kind)
        .join(',') ?? '',
  );
  const own = new Set(
    kinds
      .split(',')
      .map(quantityFromLegacyKind)
      .filter((q): q is QuantityId => q !== null),
  );
  if (own.has('hot-water-volume') || own.has('cold-water-volume')) own.add('total-water-volume');
  return [...own];
}

/** Whether a quantity is a consumption (summed) one. */
const isConsumption = (q: string) => (CONSUMPTION_QUANTITIES as readonly string[]).includes(q);

/** A value in the quantity's unit; indoor-climate averages get one decimal. */
export function amount(value: number | null, quantity: string | null, lang: Language): string {
  if (value === null) return '–';
  if (!quantity || !isQuantityId(quantity)) return formatNumber(value, lang);
  if (quantity === 'indoor-temperature' || quantity === 'indoor-relative-humidity')
    return `${formatNumber(value, lang, { maximumFractionDigits: 1 })} ${unitSymbol(quantity, value, lang)}`;
  return formatQuantity(value, quantity, lang);
}

/** The unit symbol of a quantity, for field labels. */
export function unitOf(quantity: string | null, lang: Language): string {
  return quantity && isQuantityId(quantity) ? unitSymbol(quantity, 2, lang) : '';
}

/** A period's label: "21 November 2026", "Week 47, 2026", "November 2026", "2026". */
export function periodLabel(start: string, frequency: string, lang: Language, t: AlarmsT): string {
  return alarmPeriodText(start, frequency.toLowerCase(), lang, (week, year) =>
    t('domain:periods.week_number', { week, year }),
  );
}

/** What an alarm watches, in a sentence: "More than 2,000 kWh", "Average below 18 °C or above 25 °C". */
export function ruleText(alarm: Alarm, lang: Language, t: AlarmsT): string {
  const a = (v: number | null) => amount(v, alarm.quantity, lang);
  switch (alarm.type) {
    case 'THRESHOLD':
      return t('alarms:rule.threshold', { value: a(alarm.threshold) });
    case 'COMPARISON':
      return t('alarms:rule.comparison', { percent: formatNumber(alarm.threshold ?? 0, lang) });
    case 'ZERO_CONSUMPTION':
      return t(alarm.leakRule ? 'alarms:rule.zero_leak' : 'alarms:rule.zero');
    case 'INDOOR_CLIMATE':
      if (alarm.minimum !== null && alarm.maximum !== null)
        return t('alarms:rule.min_max', { min: a(alarm.minimum), max: a(alarm.maximum) });
      return alarm.minimum !== null
        ? t('alarms:rule.min', { value: a(alarm.minimum) })
        : t('alarms:rule.max', { value: a(alarm.maximum) });
  }
}

/** The consumption page showing a period, for links from notifications and alarms. */
export function graphHref(tenancyId: string, quantity: string | null, start: string, end: string): string {
  const base = `/t/${encodeURIComponent(tenancyId)}/consumption/`;
  const page = !quantity || isConsumption(quantity) ? (quantity ?? '') : 'indoor-climate';
  // The period ends on the day before `end` (exclusive in the API, inclusive on pages).
  const last = new Date(`${end}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() - 1);
  const params = new URLSearchParams({ startDate: start, endDate: last.toISOString().slice(0, 10) });
  return `${base}${page}?${params.toString()}`;
}
