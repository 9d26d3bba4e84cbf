/**
 * GET /api/statements/{id}/pdf: the statement rendered as a PDF for a member of its tenancy. Authorised by
 * the account backend's bearer token, never a public file URL, checked as the GraphQL backends check theirs
 * (`authenticateRequest`: a deactivated user, or a token issued before a password change, is refused);
 * another tenant's id and an unknown id get the same FORBIDDEN refusal ("Adgang ikke tilladt") as the
 * GraphQL backends give.
 */
import { eq } from 'drizzle-orm';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { consumerOrganisation, disputeBodies } from '../../lib/reportSettings.ts';
import { users } from '../db/schema.ts';
import { authenticateRequest } from '../graphql/context.ts';
import { readReportSettings } from '../reports/settings.ts';
import type { ApiServices } from '../services.ts';
import { previousStatement, statementDocument, statementFileName } from './access.ts';
import { statementExtras } from './extras.ts';
import { scaleFactors, statementMeterReadings } from './meters.ts';
import { renderStatementPdf } from './pdf.ts';

const json = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/** Answers one download request. */
export async function handleStatementDownload(
  services: ApiServices,
  request: Request,
  rawId: string,
): Promise<Response> {
  const caller = await authenticateRequest(services, 'account', request);
  if (caller.userId === null) {
    return caller.reason === 'expired'
      ? json(401, 'TOKEN_EXPIRED', 'Signature has expired')
      : json(401, 'UNAUTHENTICATED', 'login required');
  }
  const { userId } = caller;
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : null;
  const { db } = services.database;
  const document = id === null ? null : await statementDocument(db, userId, id);
  if (!document) return json(403, 'FORBIDDEN', 'Adgang ikke tilladt');

  const asked = parseLanguage(new URL(request.url).searchParams.get('lang'));
  const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  const lang: Language = asked ?? parseLanguage(user?.language) ?? 'en';
  const settings = await readReportSettings(db, document.propertyId);
  const extras = statementExtras(
    document,
    await previousStatement(db, document.tenancyId, document.periodStart),
    settings,
    {
      dispute: disputeBodies(settings, document.country),
      consumer: consumerOrganisation(settings, document.country),
    },
    await statementMeterReadings(db, document.apartmentId, document, scaleFactors(document.details)),
  );
  const bytes = await renderStatementPdf(document, lang, new Date(), extras);
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${statementFileName(document)}"`,
      'cache-control': 'private, no-store',
      'content-length': String(bytes.byteLength),
    },
  });
}
