/**
 * GET /api/health: for load balancers and uptime checks. 200 with the database engine when a query
 * answers, 503 when it does not. No data, no auth.
 */
import type { APIRoute } from 'astro';
import { sql } from 'drizzle-orm';
import { getServices } from '../../server/runtime.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  try {
    const { database } = await getServices();
    await database.db.execute(sql`SELECT 1`);
    return new Response(JSON.stringify({ status: 'ok', database: database.engine }), { headers });
  } catch {
    return new Response(JSON.stringify({ status: 'unavailable' }), { status: 503, headers });
  }
};
