/**
 * The i18n runtime: one i18next instance per language on the server (requests never share a mutable
 * language), one in the browser. Namespaces: common (app shell) and domain (lib's texts).
 */
import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import { FALLBACK_LANGUAGE, type Language, parseLanguage } from '../lib/languages.ts';
import { config } from './config.ts';
import { browserStorage, readString, STORAGE_KEYS, writeString } from './storage.ts';

export const NAMESPACES = ['common', 'domain', 'account'] as const;

/** The cookie that mirrors the chosen language so server-rendered shells use it. */
export const LANGUAGE_COOKIE = 'lang';

const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** Every translation, as { [lang]: { [namespace]: json } }, bundled at build time. */
export const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, json] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lang, ns] = match;
  resources[lang!] ??= {};
  resources[lang!]![ns!] = json;
}

/** The enabled language for any input (cookie, storage, navigator), else the configured default. */
export function resolveLanguage(x: unknown, enabled: readonly Language[] = config.languages): Language {
  const lang = parseLanguage(x);
  return lang && enabled.includes(lang) ? lang : config.defaultLanguage;
}

function createI18n(lang: Language): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: [...NAMESPACES],
    defaultNS: 'common',
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

const serverInstances = new Map<Language, I18n>();
let browserInstance: I18n | null = null;

/** The i18next instance for islands: per language on the server, the page's one in the browser. */
export function getI18n(lang: Language): I18n {
  if (typeof window === 'undefined') {
    let instance = serverInstances.get(lang);
    if (!instance) {
      instance = createI18n(lang);
      serverInstances.set(lang, instance);
    }
    return instance;
  }
  browserInstance ??= createI18n(lang);
  return browserInstance;
}

/** A translate function fixed to one language, for Astro layouts and pages. */
export function serverT(lang: Language): TFunction {
  return getI18n(lang).getFixedT(lang);
}

/** The language the user chose earlier in this browser, if any. */
export function storedLanguage(): Language | null {
  const lang = parseLanguage(readString(browserStorage(), STORAGE_KEYS.language));
  return lang && config.languages.includes(lang) ? lang : null;
}

/** Mirrors the language into the cookie, so the next server render is in it (one year, like SPEC's cookies). */
export function writeLanguageCookie(lang: Language): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party preference cookie, read by the server
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax`;
}

/** Switches the interface language and saves it (SPEC §4 "Language change"). */
export async function changeLanguage(lang: Language): Promise<void> {
  // Where storage is refused, the cookie still carries the choice.
  writeString(browserStorage(), STORAGE_KEYS.language, lang);
  writeLanguageCookie(lang);
  document.documentElement.lang = lang;
  await getI18n(lang).changeLanguage(lang);
}
