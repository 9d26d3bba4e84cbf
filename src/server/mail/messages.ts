/** The mails the app sends, rendered in the recipient's language from locales/<lang>/account.json (mail.*). */
import i18next from 'i18next';
import da from '../../../locales/da/account.json' with { type: 'json' };
import en from '../../../locales/en/account.json' with { type: 'json' };
import nb from '../../../locales/nb/account.json' with { type: 'json' };
import { FALLBACK_LANGUAGE, type Language, parseLanguage } from '../../lib/languages.ts';

/** A rendered mail: subject, plain-text part and HTML part. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Each mail kind and the values its text needs. */
export interface MailParams {
  reset: { email: string; link: string; minutes: number };
  invite: { inviter: string; address: string; link: string; code: string; expires: string };
  emailChange: { newEmail: string; link: string; hours: number };
  emailChangeNotice: { newEmail: string };
  passwordChanged: { email: string };
}

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { account: en }, da: { account: da }, nb: { account: nb } },
  ns: ['account'],
  defaultNS: 'account',
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  initAsync: false,
  interpolation: { escapeValue: false },
});

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Paragraphs from blank lines; the link (when there is one) becomes an anchor. */
function toHtml(text: string, footer: string, link: string | undefined, lang: Language): string {
  const paragraphs = text.split(/\n{2,}/).map((p) => {
    if (link && p.trim() === link) return `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
    return `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`;
  });
  return `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">${paragraphs.join('')}<hr><p style="color:#555;font-size:0.85em">${escapeHtml(footer)}</p></body></html>`;
}

/** Renders a mail in the given language (falls back to English for anything unsupported). */
export function renderMail<K extends keyof MailParams>(
  kind: K,
  language: string,
  params: MailParams[K],
): MailContent {
  const lang = parseLanguage(language) ?? FALLBACK_LANGUAGE;
  const t = i18n.getFixedT(lang, 'account');
  const mail: keyof MailParams = kind;
  const values: MailParams[keyof MailParams] = params;
  const subject = t(`mail.${mail}.subject`, values);
  const body = t(`mail.${mail}.text`, values);
  const footer = t('mail.footer');
  const link = 'link' in params ? String(params.link) : undefined;
  return { subject, text: `${body}\n\n-- \n${footer}\n`, html: toHtml(body, footer, link, lang) };
}
