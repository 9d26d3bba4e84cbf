/**
 * GET /report/shell: the report shell's language picker links here with `?lang=` (remembered in the cookie) and the
 * report's code as the fragment, which the browser keeps across this redirect to /report/shell/<lang>.
 */
import type { APIRoute } from 'astro';
import { redirectToLanguage } from '../../../layouts/languageRedirect.ts';

export const GET: APIRoute = (context) => redirectToLanguage(context, '/report/shell');
