/**
 * GET /report/:code, the link in the mails and the app: a redirect to the prerendered report shell in the
 * visitor's language (`?lang=`, else the `lang` cookie, else Accept-Language), with the code as the URL's
 * fragment: /report/shell/<lang>#<code>. The shell fetches the report with it (/report/:code/content), so no page
 * is rendered per code and the code is never in a Referer. Nothing is looked up here.
 */
import type { APIRoute } from 'astro';
import { redirectToLanguage } from '../../layouts/languageRedirect.ts';

export const GET: APIRoute = (context) => {
  const response = redirectToLanguage(context, '/report/shell', context.params.code ?? '');
  response.headers.set('Referrer-Policy', 'no-referrer');
  response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  return response;
};
