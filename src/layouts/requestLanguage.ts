/** The language of a public page: `?lang=` (the page's language picker) first, then the `lang` cookie. */
import type { AstroCookies } from 'astro';
import { config } from '../client/config.ts';
import { LANGUAGE_COOKIE, resolveLanguage } from '../client/i18n.ts';
import { type Language, parseLanguage } from '../lib/languages.ts';

/** Resolves the language; a valid `?lang=` is also remembered in the cookie, like the app's picker does. */
export function requestLanguage(url: URL, cookies: AstroCookies): Language {
  const asked = parseLanguage(url.searchParams.get('lang'));
  if (asked && config.languages.includes(asked)) {
    cookies.set(LANGUAGE_COOKIE, asked, { path: '/', maxAge: 31_536_000, sameSite: 'lax' });
    return asked;
  }
  return resolveLanguage(cookies.get(LANGUAGE_COOKIE)?.value);
}
