/** GET /cookie-policy: a redirect to the prerendered /cookie-policy/<lang> in the visitor's language (languageRedirect.ts). */
import type { APIRoute } from 'astro';
import { redirectToLanguage } from '../../layouts/languageRedirect.ts';

export const GET: APIRoute = (context) => redirectToLanguage(context, '/cookie-policy');
