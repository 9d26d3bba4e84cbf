/**
 * GET /report/{code}.pdf: the public monthly report as a PDF, by the same code, throttle and expiry as the
 * page (unknown or expired: 404; too many look-ups: 429), in the page's language (?lang=, else the report's).
 */
import type { APIRoute } from 'astro';
import { config } from '../../client/config.ts';
import { serverT } from '../../client/i18n.ts';
import { parseLanguage } from '../../lib/languages.ts';
import { clientAddressFrom } from '../../server/graphql/context.ts';
import { lookUpReport } from '../../server/reports/lookup.ts';
import { renderReportPdf } from '../../server/reports/pdf.ts';
import { getServices } from '../../server/runtime.ts';

export const prerender = false;

const PRIVATE = {
  'cache-control': 'private, no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
};

export const GET: APIRoute = async ({ params, request, url, clientAddress }) => {
  const { database, config: serverConfig } = await getServices();
  const visitor = clientAddressFrom(
    serverConfig.TRUST_PROXY,
    request.headers.get('x-forwarded-for'),
    clientAddress,
  );
  const lookup = await lookUpReport(database.db, params.code ?? '', visitor ?? 'unknown');
  if (lookup.status === 'throttled')
    return new Response('Too many report look-ups', {
      status: 429,
      headers: { ...PRIVATE, 'retry-after': String(lookup.retryAfterSeconds), 'content-type': 'text/plain' },
    });
  if (lookup.status === 'unavailable')
    return new Response('This report is no longer available; contact landlord.', {
      status: 404,
      headers: { ...PRIVATE, 'content-type': 'text/plain; charset=utf-8' },
    });
  const asked = parseLanguage(url.searchParams.get('lang'));
  const lang =
    [asked, parseLanguage(lookup.language)].find((l) => l && config.languages.includes(l)) ??
    config.defaultLanguage;
  const t = serverT(lang);
  const bytes = await renderReportPdf(lookup.report, lang, t);
  return new Response(new Uint8Array(bytes), {
    headers: {
      ...PRIVATE,
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="report-${lookup.report.month.slice(0, 7)}.pdf"`,
      'content-length': String(bytes.byteLength),
    },
  });
};
