/**
 * The user's language choice: kept in localStorage and mirrored in the `lang` cookie (SPEC §3, §4).
 * No i18n runtime here, so pages without an island can switch language with a few hundred bytes.
 */
import { type Language, parseLanguage } from '../lib/languages.ts';
import { config } from './config.ts';
import { browserStorage, readString, STORAGE_KEYS, writeString } from './storage.ts';

/** The cookie that mirrors the chosen language so server-rendered shells use it. */
export const LANGUAGE_COOKIE = 'lang';

/** The language the user chose earlier in this browser, if any. */
export function storedLanguage(): Language | null {
  const lang = parseLanguage(readString(browserStorage(), STORAGE_KEYS.language));
  return lang && config.languages.includes(lang) ? lang : null;
}

/** The `lang` cookie string: one year, like SPEC's cookies; Secure when the page came over TLS. */
export function languageCookie(lang: Language, protocol: string): string {
  const secure = protocol === 'https:' ? '; Secure' : '';
  return `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax${secure}`;
}

/** Mirrors the language into the cookie, so the next server render is in it. */
function writeLanguageCookie(lang: Language): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party preference cookie, read by the server
  document.cookie = languageCookie(lang, globalThis.location?.protocol ?? 'http:');
}

/** Saves the choice in storage and cookie, and marks the document with it. */
export function saveLanguageChoice(lang: Language): void {
  // Where storage is refused, the cookie still carries the choice.
  writeString(browserStorage(), STORAGE_KEYS.language, lang);
  writeLanguageCookie(lang);
  document.documentElement.lang = lang;
}

/**
 * The language stored in this browser when the page was rendered in another one (the cookie was
 * cleared, or set on another subdomain); the caller saves it and re-renders the page.
 */
export function storedLanguageMismatch(): Language | null {
  const stored = storedLanguage();
  if (!stored || stored === parseLanguage(document.documentElement.lang)) return null;
  // The cookie already says so: the server chose another language on purpose (a public report is shown in its
  // own language), and rendering it again would only loop.
  return cookieLanguage(document.cookie) === stored ? null : stored;
}

/** The language the `lang` cookie carries, if any. */
function cookieLanguage(cookies: string): Language | null {
  const pair = cookies.split(';').find((c) => c.trim().startsWith(`${LANGUAGE_COOKIE}=`));
  return parseLanguage(pair?.trim().slice(LANGUAGE_COOKIE.length + 1));
}
