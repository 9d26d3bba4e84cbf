/** POST /language: the language form of island-free pages, without scripts; sets the cookie and goes back. */
import type { APIRoute } from 'astro';
import { config } from '../client/config.ts';
import { LANGUAGE_COOKIE } from '../client/languageChoice.ts';
import { parseLanguage } from '../lib/languages.ts';

/** A same-site path to return to; anything else (another host, a protocol-relative URL) goes to /login. */
function backPath(x: FormDataEntryValue | null): string {
  return typeof x === 'string' && /^\/(?![/\\])/.test(x) ? x : '/login';
}

export const POST: APIRoute = async ({ request, cookies, redirect, url }) => {
  const form = await request.formData().catch(() => null);
  const lang = parseLanguage(form?.get('lang'));
  if (lang && config.languages.includes(lang)) {
    cookies.set(LANGUAGE_COOKIE, lang, {
      path: '/',
      maxAge: 31_536_000,
      sameSite: 'lax',
      secure: url.protocol === 'https:',
    });
  }
  return redirect(backPath(form?.get('back') ?? null), 303);
};
