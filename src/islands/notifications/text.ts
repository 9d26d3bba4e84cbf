/** A notification's title and sentence in the user's language (the same texts the mails use). */
import type { TFunction } from 'i18next';
import type { Notification } from '../../client/operations/notificationQueries.ts';
import { formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { amount, periodLabel } from '../alarms/shared.ts';

/** Title (kind) and text of a notification. */
export function notificationTexts(
  n: Notification,
  lang: Language,
  t: TFunction,
): { title: string; text: string } {
  const period = periodLabel(n.periodStart, n.frequency, lang, t);
  const title = t(`alarms:notification.kind.${n.kind.toLowerCase()}`);
  if (n.kind === 'CONSUMPTION_REPORT')
    return { title, text: t('alarms:notification.reason.report', { period }) };
  const text = t(`alarms:notification.reason.${n.reason ?? 'above_threshold'}`, {
    quantity: n.quantity ? t(`domain:quantities.${n.quantity}`) : '',
    period,
    value: amount(n.value, n.quantity, lang),
    reference: amount(n.reference, n.quantity, lang),
    percent: n.percent === null ? '' : formatNumber(n.percent, lang),
  });
  return { title, text };
}

/** When it arrived, as a local date and time. */
export function receivedAt(n: Notification, lang: Language): string {
  const locale = lang === 'en' ? 'en-GB' : lang === 'da' ? 'da-DK' : 'nb-NO';
  return new Date(n.createdAt).toLocaleString(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Copenhagen',
  });
}
