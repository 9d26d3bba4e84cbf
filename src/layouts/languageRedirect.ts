/**
 * The public documents (help, data policy, cookie policy) are prerendered once per language at /<page>/<lang>
 * (docs/decisions.md "Prerendered public documents"). Their language-free URLs answer with a redirect to the
 * visitor's language: `?lang=` (remembered in the cookie), else the `lang` cookie, else Accept-Language, else the
 * default. The redirect varies by those headers and is not shared; the documents themselves are cacheable.
 */
import type { APIContext } from 'astro';
import { config } from '../client/config.ts';
import { LANGUAGE_COOKIE } from '../client/i18n.ts';
import { type Language, parseLanguage } from '../lib/languages.ts';
import { requestLanguage } from './requestLanguage.ts';

/** getStaticPaths of a prerendered document: one page per enabled language. */
export function languagePaths(): { params: { lang: Language } }[] {
  return config.languages.map((lang) => ({ params: { lang } }));
}

/** The first enabled language of an Accept-Language header, by quality; null when none is enabled. */
function acceptedLanguage(header: string | null): Language | null {
  const ranked = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: parseLanguage(tag), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((x) => x.lang && config.languages.includes(x.lang) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.lang ?? null;
}

/**
 * 302 to `${base}/${lang}` in the visitor's language (with `#fragment` when given: the public report's code, which
 * its shell reads and browsers never send); `Vary` names what chose it.
 */
export function redirectToLanguage(
  { url, cookies, request }: APIContext,
  base: string,
  fragment?: string,
): Response {
  const chosen = url.searchParams.has('lang') || cookies.has(LANGUAGE_COOKIE);
  const lang = chosen
    ? requestLanguage(url, cookies)
    : (acceptedLanguage(request.headers.get('accept-language')) ?? requestLanguage(url, cookies));
  return new Response(null, {
    status: 302,
    headers: {
      Location: `${base}/${lang}${fragment ? `#${encodeURIComponent(fragment)}` : ''}`,
      'Cache-Control': 'private, no-cache',
      Vary: 'Cookie, Accept-Language',
    },
  });
}
