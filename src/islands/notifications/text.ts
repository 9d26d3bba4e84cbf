/** A notification's title and sentence in the user's language (the same texts the mails use). */

import { lower } from '../../client/i18nKeys.ts';
import type { Notification } from '../../client/operations/notificationQueries.ts';
import { periodInSentence } from '../../lib/alarmPeriod.ts';
import { firedReason } from '../../lib/alarmReasons.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { type AlarmsT, amount, periodLabel } from '../alarms/shared.ts';

/** Title (kind) and text of a notification. */
export function notificationTexts(
  n: Notification,
  lang: Language,
  t: AlarmsT,
): { title: string; text: string } {
  const period = periodLabel(n.periodStart, n.frequency, lang, t);
  if (n.kind === 'CONSUMPTION_REPORT')
    return {
      title: t('alarms:notification.kind.consumption_report'),
      text: t('alarms:notification.reason.report', { period }),
    };
  const reason = firedReason(n.reason);
  // A leak fires a zero-consumption alarm's leak rule: it is filed as what it is, not by the alarm's kind.
  const title = t(`alarms:notification.kind.${reason === 'leak' ? 'leak' : lower(n.kind)}`);
  const inSentence = periodInSentence(period, n.frequency);
  const text = t(`alarms:notification.reason.${reason}`, {
    quantity: n.quantity ? t(quantityKey(n.quantity)) : '',
    period,
    when: t(`alarms:notification.when.${inSentence.key}`, { period: inSentence.period }),
    value: amount(n.value, n.quantity, lang),
    reference: amount(n.reference, n.quantity, lang),
    percent: n.percent === null ? '' : formatNumber(n.percent, lang),
  });
  return { title, text };
}

/** When it arrived, as a local date and time. */
export function receivedAt(n: Notification, lang: Language): string {
  return formatDateTime(n.createdAt, lang);
}
