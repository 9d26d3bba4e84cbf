/**
 * The i18n runtime: one i18next instance per language on the server (requests never share a mutable
 * language), one in the browser. The server holds every language; the browser loads only the page's
 * language, and of it only the namespaces in use (see docs/notes/platform-web.md).
 */
import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language, parseLanguage } from '../lib/languages.ts';
import { parallelLimit, TRANSLATION_RETRY, withRetries } from '../lib/shellRules.ts';
import { config } from './config.ts';
import type { KeysOf } from './i18nKeys.ts';
import { saveLanguageChoice } from './languageChoice.ts';

export { LANGUAGE_COOKIE } from './languageChoice.ts';

/** Every namespace (one JSON file per language under locales/). */
export const NAMESPACES = [
  'common',
  'domain',
  'alarms',
  'reports',
  'consumption',
  'account',
  'admin',
  'admin-ops',
  'admin-settings',
  'admin-props',
] as const;

/** A key a tenant page's breadcrumb may name: common's as they are, `ns:key` for the page namespaces. */
type PageKey =
  | KeysOf<'common'>
  | `domain:${KeysOf<'domain'>}`
  | `alarms:${KeysOf<'alarms'>}`
  | `consumption:${KeysOf<'consumption'>}`;

/** A breadcrumb as a page names it: a key, or a label of its own (a room's name) under a key of its choosing. */
export type PageCrumb =
  | { key: PageKey; href?: string; label?: undefined }
  | { key: string; href?: string; label: string };

/** Namespaces the browser loads before any island renders; others load when `useTranslation` asks. */
const PRELOADED_NAMESPACES = ['common', 'domain'];

// Not eager: each file is its own chunk, so the browser fetches one language's files, not all of them.
const loaders = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { import: 'default' });

/** SPEC §9: at most 10 translation reads at once. */
const limitReads = parallelLimit(TRANSLATION_RETRY.maxParallel);

/**
 * Loads one namespace of one language, retried by SPEC §9's policy (5 retries from 350 ms, doubling); a
 * missing file rejects at once, and i18next logs it.
 */
function loadNamespace(lang: string, ns: string): Promise<Record<string, unknown>> {
  const load = loaders[`../../locales/${lang}/${ns}.json`];
  if (!load) return Promise.reject(new Error(`no translations ${lang}/${ns}`));
  return limitReads(() => withRetries(load));
}

type Resources = Record<string, Record<string, Record<string, unknown>>>;

/** Every language and namespace, for the server, which translates synchronously. */
async function loadAllResources(): Promise<Resources> {
  const resources: Resources = {};
  await Promise.all(
    Object.entries(loaders).map(async ([path, load]) => {
      const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
      if (!match) return;
      const [, lang, ns] = match;
      resources[lang!] ??= {};
      resources[lang!]![ns!] = await load();
    }),
  );
  return resources;
}

/** The enabled language for any input (cookie, storage, navigator), else the configured default. */
export function resolveLanguage(x: unknown, enabled: readonly Language[] = config.languages): Language {
  const lang = parseLanguage(x);
  return lang && enabled.includes(lang) ? lang : config.defaultLanguage;
}

const baseOptions = {
  fallbackLng: FALLBACK_LANGUAGE,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
} as const;

const serverResources: Resources = import.meta.env.SSR ? await loadAllResources() : {};

/**
 * `{{quantity, lowercase}}`: a name that starts a label ("Heat energy") inside a sentence ("Åbn varmeenergi"):
 * Danish and Norwegian write common nouns in lower case there.
 */
function addFormatters(instance: I18n): I18n {
  instance.services.formatter?.add('lowercase', (value, lng) => String(value).toLocaleLowerCase(lng));
  return instance;
}

function createServerI18n(lang: Language): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...baseOptions,
    lng: lang,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(serverResources[FALLBACK_LANGUAGE] ?? {}),
    resources: serverResources,
    initAsync: false,
  });
  return addFormatters(instance);
}

/** The browser's instance, ready with the page's language before any island module finishes loading. */
async function createBrowserI18n(lang: Language): Promise<I18n> {
  const instance = i18next.createInstance().use(resourcesToBackend(loadNamespace));
  await instance.init({
    ...baseOptions,
    lng: lang,
    supportedLngs: [...LANGUAGES],
    // Keys are checked for parity across languages, so the fallback is never fetched just in case.
    fallbackLng: false,
    ns: PRELOADED_NAMESPACES,
  });
  return addFormatters(instance);
}

// The server rendered the page in <html lang>, so the browser loads that language before hydrating:
// no flash of English and no mismatch.
const browserInstance: I18n | null = import.meta.env.SSR
  ? null
  : await createBrowserI18n(resolveLanguage(document.documentElement.lang));

if (browserInstance) {
  const instance = browserInstance;
  // Soft navigation: the next page may be rendered in another language (a choice made elsewhere);
  // load it before the new page's islands hydrate, so they render what the server rendered.
  document.addEventListener('astro:before-preparation', (event) => {
    const loadPage = event.loader;
    event.loader = async () => {
      await loadPage();
      const lang = resolveLanguage(event.newDocument.documentElement.lang);
      if (lang !== instance.language) await instance.changeLanguage(lang);
    };
  });
}

const serverInstances = new Map<Language, I18n>();

/** The i18next instance for islands: per language on the server, the page's one in the browser. */
export function getI18n(lang: Language): I18n {
  if (browserInstance) return browserInstance;
  let instance = serverInstances.get(lang);
  if (!instance) {
    instance = createServerI18n(lang);
    serverInstances.set(lang, instance);
  }
  return instance;
}

/** serverT's translate function: common's keys as they are, every other namespace's as `ns:key`. */
export type ServerT = TFunction<typeof NAMESPACES>;

/** A translate function fixed to one language, for Astro layouts and pages. */
export function serverT(lang: Language): ServerT {
  // Typed with every namespace: on the server all are loaded, so `ns:key` works for each (common is the default).
  return getI18n(lang).getFixedT<typeof NAMESPACES>(lang);
}

/** Breadcrumbs with their labels in the page's language (the shell island shows them as they are). */
export function crumbLabels(
  lang: Language,
  crumbs: readonly PageCrumb[],
): { key: string; href?: string; label: string }[] {
  const t = serverT(lang);
  return crumbs.map((c) => (c.label === undefined ? { ...c, label: t(c.key) } : c));
}

/** Switches the interface language and saves it (SPEC §4 "Language change"); resolves once it is loaded. */
export async function changeLanguage(lang: Language): Promise<void> {
  saveLanguageChoice(lang);
  // i18next fetches the new language's loaded namespaces before it switches.
  await getI18n(lang).changeLanguage(lang);
}
