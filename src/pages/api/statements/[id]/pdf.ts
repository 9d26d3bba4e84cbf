/** GET /api/statements/{id}/pdf: an allocation statement as PDF, for a member of its tenancy (bearer token). */
import type { APIRoute } from 'astro';
import { getApiServices } from '../../../../server/services.ts';
import { handleStatementDownload } from '../../../../server/statements/download.ts';

export const prerender = false;

export const GET: APIRoute = async ({ request, params }) =>
  handleStatementDownload(await getApiServices(), request, params.id ?? '');
