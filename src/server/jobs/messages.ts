/**
 * Notification and mail texts in the user's language, from locales/<lang>/alarms.json and domain.json, and the
 * operators' feed alerts from admin-ops.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import i18next, { type TFunction } from 'i18next';
import { alarmPeriodText, periodInSentence } from '../../lib/alarmPeriod.ts';
import { firedReason } from '../../lib/alarmReasons.ts';
import { formatDateTime, formatNumber, formatQuantity, unitSymbol } from '../../lib/format.ts';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language, parseLanguage } from '../../lib/languages.ts';
import { changePercent, formatChange } from '../../lib/monthComparison.ts';
import { isQuantityId, quantityKey } from '../../lib/quantities.ts';
import { appRoot } from '../paths.ts';
import type { ReportNotice } from '../reports/notice.ts';

const localesDir = pathToFileURL(join(appRoot, 'locales/'));
const read = (lang: string, ns: string) =>
  JSON.parse(readFileSync(new URL(`${lang}/${ns}.json`, localesDir), 'utf8')) as Record<string, unknown>;

const instance = i18next.createInstance();
void instance.init({
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  ns: ['alarms', 'domain', 'admin-ops'],
  defaultNS: 'alarms',
  resources: Object.fromEntries(
    LANGUAGES.map((l) => [
      l,
      { alarms: read(l, 'alarms'), domain: read(l, 'domain'), 'admin-ops': read(l, 'admin-ops') },
    ]),
  ),
  initAsync: false,
  interpolation: { escapeValue: false },
});

/** A translate function for a language (unknown languages fall back to en). */
function mailT(lang: unknown): { t: TFunction<readonly ['alarms', 'domain']>; lang: Language } {
  const language = parseLanguage(lang) ?? FALLBACK_LANGUAGE;
  return { t: instance.getFixedT<readonly ['alarms', 'domain']>(language), lang: language };
}

/** The fields of a notification that its text needs. */
export interface NotificationText {
  kind: 'high_consumption' | 'zero_consumption' | 'indoor_climate' | 'consumption_report';
  quantity: string | null;
  periodStart: string;
  frequency: string;
  value: string | number | null;
  reference: string | number | null;
  reason: string | null;
  details: unknown;
}

function amount(value: string | number | null, quantity: string | null, lang: Language): string {
  if (value === null) return '–';
  const n = Number(value);
  if (!quantity || !isQuantityId(quantity)) return formatNumber(n, lang);
  // Climate averages get one decimal: 22.5 against a maximum of 22.4 must not read "23 over 22".
  if (quantity === 'indoor-temperature' || quantity === 'indoor-relative-humidity')
    return `${formatNumber(n, lang, { maximumFractionDigits: 1 })} ${unitSymbol(quantity, n, lang)}`;
  return formatQuantity(n, quantity, lang);
}

/** The period's label, e.g. "21 November 2026", "Week 47, 2026", "November 2026". */
function periodText(n: Pick<NotificationText, 'periodStart' | 'frequency'>, lang: Language): string {
  const { t } = mailT(lang);
  return alarmPeriodText(n.periodStart, n.frequency, lang, (week, year) =>
    t('domain:periods.week_number', { week, year }),
  );
}

/** The consumption report's comparison lines and its link (issue 22), from the notification's details. */
function reportLines(n: NotificationText, lang: Language, baseUrl: string | undefined): string[] {
  const { t } = mailT(lang);
  const report = (n.details as { report?: ReportNotice } | null)?.report;
  if (!report) return [];
  const lines = report.comparison.map((c) => {
    const parts = [
      t('notification.report.line', {
        quantity: t(quantityKey(c.quantity)),
        value: amount(c.value, c.quantity, lang),
      }),
    ];
    if (c.previousMonth !== null)
      parts.push(
        t('notification.report.previous', {
          value: amount(c.previousMonth, c.quantity, lang),
          change: formatChange(changePercent(c.value, c.previousMonth), lang),
        }),
      );
    if (c.sameMonthLastYear !== null)
      parts.push(
        t('notification.report.last_year', {
          value: amount(c.sameMonthLastYear, c.quantity, lang),
          change: formatChange(changePercent(c.value, c.sameMonthLastYear), lang),
        }),
      );
    return `  ${parts.join(' · ')}`;
  });
  if (report.correctedChangePercent !== null)
    lines.push(
      t('notification.report.corrected', { change: formatChange(report.correctedChangePercent, lang) }),
    );
  const period = periodText(n, lang);
  // The link opens the report in the mail's language, as the app's link opens it in the app's.
  if (baseUrl)
    lines.push(
      t('notification.report.report_link', { period, url: `${baseUrl}/report/${report.code}?lang=${lang}` }),
    );
  return lines;
}

/** The one-paragraph text of a notification, and the mail subject for it alone. */
function notificationText(
  n: NotificationText,
  lang: Language,
  baseUrl?: string,
): { subject: string; text: string } {
  const { t } = mailT(lang);
  const quantity = n.quantity ? t(quantityKey(n.quantity)) : '';
  const period = periodText(n, lang);
  const percent = (n.details as { percent?: number } | null)?.percent;
  const subject = t(`mail.subject.${n.kind}`, { quantity, period });
  if (n.kind === 'consumption_report') {
    const withReport = reportLines(n, lang, baseUrl);
    if (withReport.length > 0)
      return { subject, text: [t('notification.reason.report', { period }), ...withReport].join('\n') };
    const totals = (
      (n.details as { totals?: { quantity: string; value: string }[] } | null)?.totals ?? []
    ).map((x) => `  ${t(quantityKey(x.quantity))}: ${amount(x.value, x.quantity, lang)}`);
    return { subject, text: [t('notification.reason.report', { period }), ...totals].join('\n') };
  }
  const inSentence = periodInSentence(period, n.frequency);
  const text = t(`notification.reason.${firedReason(n.reason)}`, {
    quantity,
    period,
    when: t(`notification.when.${inSentence.key}`, { period: inSentence.period }),
    value: amount(n.value, n.quantity, lang),
    reference: amount(n.reference, n.quantity, lang),
    percent: percent === undefined ? '' : formatNumber(percent, lang),
  });
  return { subject, text };
}

/** One mail for one or more notifications: a single one is told in full, several become one summary. */
export function notificationMail(
  user: { name: string; language: string },
  items: NotificationText[],
  appUrl: string | undefined,
  /** The app's origin (APP_URL, else http://HOST:PORT), for links to public pages such as the monthly report. */
  baseUrl?: string,
): { subject: string; text: string } {
  const { t, lang } = mailT(user.language);
  const texts = items.map((n) => notificationText(n, lang, baseUrl));
  const greeting = user.name ? t('mail.greeting', { name: user.name }) : t('mail.greeting_anonymous');
  const link = appUrl ? [t('mail.open_app', { url: appUrl })] : [];
  if (texts.length === 1) {
    const only = texts[0]!;
    return {
      subject: only.subject,
      text: [greeting, '', only.text, '', ...link, t('mail.footer')].join('\n'),
    };
  }
  const lines = texts.map((x) => `- ${x.subject}\n  ${x.text.replace(/\n/g, '\n  ')}`);
  return {
    subject: t('mail.subject.summary', { count: texts.length }),
    text: [
      greeting,
      '',
      t('mail.summary_intro', { count: texts.length }),
      '',
      ...lines,
      '',
      ...link,
      t('mail.footer'),
    ].join('\n'),
  };
}

/** What a feed alert tells (src/server/mqtt/alert.ts). */
export interface FeedAlert {
  clientId: string;
  url: string;
  /** Down: not connected since, or (not running) no report since; up: connected since. */
  since: Date;
  running: boolean;
  lastError: string | null;
}

/** The mail to an organisation admin that the MQTT feed is down, or (`up`) back. */
export function feedAlertMail(
  user: { name: string; language: string },
  feed: FeedAlert,
  up: boolean,
  /** The console's data-quality page, when the app's address is known. */
  pageUrl: string | undefined,
): { subject: string; text: string } {
  const language = parseLanguage(user.language) ?? FALLBACK_LANGUAGE;
  const t = instance.getFixedT(language, 'admin-ops');
  const at = formatDateTime(feed.since, language);
  const greeting = user.name
    ? t('feed_mail.greeting', { name: user.name })
    : t('feed_mail.greeting_anonymous');
  const what = up
    ? t('feed_mail.up_text', { clientId: feed.clientId, url: feed.url, at })
    : feed.running
      ? t('feed_mail.down_text', { clientId: feed.clientId, url: feed.url, at })
      : t('feed_mail.silent_text', { clientId: feed.clientId, url: feed.url, at });
  const lines = [greeting, '', what];
  if (!up && feed.lastError) lines.push(t('feed_mail.error', { error: feed.lastError }));
  if (!up) lines.push('', t('feed_mail.kept'));
  if (pageUrl) lines.push('', t('feed_mail.open', { url: pageUrl }));
  lines.push('', t('feed_mail.footer'));
  return {
    subject: t(up ? 'feed_mail.up_subject' : 'feed_mail.down_subject', { at }),
    text: lines.join('\n'),
  };
}
