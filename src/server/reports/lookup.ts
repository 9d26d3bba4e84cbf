/**
 * Reading a public report by its code: the code is the only key, expired and unknown codes look the same,
 * and lookups are throttled per client address (rate-limiter-flexible on our own database). Each lookup takes
 * its point before the code is checked (a burst cannot slip past), and a found report gives it back.
 */
import { eq } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/client.ts';
import { monthlyReports, reportLookupLimits } from '../db/schema.ts';
import type { MonthlyReport } from './model.ts';

/** Codes are 43 base64url characters; anything else is unknown without a query. */
const REPORT_CODE = /^[A-Za-z0-9_-]{43}$/;

/** Lookups per address per window, and the cost of a miss (an unknown or expired code). */
export const LOOKUP_POINTS = 60;
export const LOOKUP_WINDOW_SECONDS = 600;
export const MISS_COST = 5;

export type ReportLookup =
  | { status: 'found'; report: MonthlyReport; language: string; expiresAt: Date }
  | { status: 'unavailable' }
  | { status: 'throttled'; retryAfterSeconds: number };

const limiters = new WeakMap<Db, RateLimiterDrizzle>();
function limiterFor(db: Db): RateLimiterDrizzle {
  let limiter = limiters.get(db);
  if (!limiter) {
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: reportLookupLimits,
      keyPrefix: 'report',
      points: LOOKUP_POINTS,
      duration: LOOKUP_WINDOW_SECONDS,
      // No background timer: expired rows are overwritten on the key's next use.
      clearExpiredByTimeout: false,
    });
    limiters.set(db, limiter);
  }
  return limiter;
}

async function spend(db: Db, client: string, points: number): Promise<number | null> {
  try {
    await limiterFor(db).consume(client, points);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw rejection;
  }
}

/** Looks a report up by code for a client address; `now` decides expiry. */
export async function lookUpReport(
  db: Db,
  code: string,
  client: string,
  now = new Date(),
): Promise<ReportLookup> {
  const wait = await spend(db, client, 1);
  if (wait !== null) return { status: 'throttled', retryAfterSeconds: wait };
  const [row] = REPORT_CODE.test(code)
    ? await db
        .select({
          content: monthlyReports.content,
          language: monthlyReports.language,
          expiresAt: monthlyReports.expiresAt,
        })
        .from(monthlyReports)
        .where(eq(monthlyReports.code, code))
    : [];
  if (!row || row.expiresAt.getTime() <= now.getTime()) {
    // Misses cost more, so walking the code space runs dry fast.
    await spend(db, client, MISS_COST - 1);
    return { status: 'unavailable' };
  }
  // A found report gives its point back: reading it again, or in another language, costs nothing.
  await limiterFor(db).reward(client, 1);
  return {
    status: 'found',
    report: row.content as MonthlyReport,
    language: row.language,
    expiresAt: row.expiresAt,
  };
}
