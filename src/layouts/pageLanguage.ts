/** Reads the page language on the server from the `lang` cookie, so shells render in it without a flash. */
import type { AstroCookies } from 'astro';
import { LANGUAGE_COOKIE, resolveLanguage } from '../client/i18n.ts';
import type { Language } from '../lib/languages.ts';

/** The enabled language named by the cookie, else the configured default. */
export function languageFromCookies(cookies: AstroCookies): Language {
  return resolveLanguage(cookies.get(LANGUAGE_COOKIE)?.value);
}
