/** The interface languages of SPEC §3; English is the fallback. */
export type Language = 'en' | 'da' | 'nb';

/** Every supported language, in the order the language picker lists them. */
export const LANGUAGES: readonly Language[] = ['en', 'da', 'nb'];

/** The language used when nothing else matches (SPEC §9). */
export const FALLBACK_LANGUAGE: Language = 'en';

// Norwegian arrives as nb, no or nn (Nynorsk readers get Bokmål rather than English).
// A Map, so that 'constructor' or 'toString' cannot find Object.prototype's members.
const ALIASES: ReadonlyMap<string, Language> = new Map([
  ['en', 'en'],
  ['da', 'da'],
  ['nb', 'nb'],
  ['no', 'nb'],
  ['nn', 'nb'],
]);

/** Reads a language tag such as 'nb-NO', 'da_DK' or 'no' into a Language, or null when unsupported. */
export function parseLanguage(x: unknown): Language | null {
  if (typeof x !== 'string') return null;
  const primary = x.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return ALIASES.get(primary) ?? null;
}

/** The Intl locale used for numbers and dates: en-GB for English, da-DK for Danish and Norwegian (SPEC §9). */
export function numberLocale(lang: Language): 'en-GB' | 'da-DK' {
  return lang === 'en' ? 'en-GB' : 'da-DK';
}

const DATE_LOCALES: Record<Language, 'en-GB' | 'da-DK' | 'nb-NO'> = { en: 'en-GB', da: 'da-DK', nb: 'nb-NO' };

/** Locale for dates: SPEC §9 fixes only number formatting, so Norwegian dates get Norwegian month names. */
export function dateLocale(lang: Language): 'en-GB' | 'da-DK' | 'nb-NO' {
  return DATE_LOCALES[lang];
}
