/**
 * The console's portfolio overview: one row per property the operator may see, with its data freshness (the
 * newest reading, and the share of active meters that reported in the last 24 hours, from
 * `meters.last_reading_at`, which a trigger on register_readings keeps), its open data issues, and its current
 * tenancies' invitations and activated tenants. The figures are stored per property (property_summaries, kept
 * by triggers and brought up to date before each read: portfolioSummary.ts), so filtering, sorting and paging
 * reads one row per property (tests/bench/portfolio.ts: 1,000 properties).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { refreshSummaries, staleCondition } from './portfolioSummary.ts';
import type { OperatorScope } from './scope.ts';

type PortfolioSortKey =
  | 'NUMBER'
  | 'NAME'
  | 'CITY'
  | 'LAST_READING'
  | 'REPORTING_SHARE'
  | 'OPEN_ISSUES'
  | 'INVITED'
  | 'ACTIVATED';

export interface PortfolioQuery {
  search?: string | null;
  freshness?: 'ALL' | 'INCOMPLETE' | 'SILENT' | null;
  withOpenIssues?: boolean | null;
  sort: PortfolioSortKey;
  descending: boolean;
  limit: number;
  offset: number;
  now: Date;
}

export type PortfolioRow = {
  id: number;
  number: string;
  name: string;
  address: string;
  zipcode: string;
  city: string;
  apartments: number;
  meters: number;
  metersReporting: number;
  lastReadingAt: Date | string | null;
  openIssues: number;
  tenancies: number;
  invited: number;
  activated: number;
  total: number;
};

const SORT_COLUMNS: Record<PortfolioSortKey, SQL> = {
  NUMBER: sql`p.number`,
  NAME: sql`lower(p.name)`,
  CITY: sql`lower(p.city)`,
  LAST_READING: sql`s.last_reading_at`,
  REPORTING_SHARE: sql`(s.reporting::float8 / NULLIF(s.meters, 0))`,
  OPEN_ISSUES: sql`s.open_issues`,
  INVITED: sql`s.invited`,
  ACTIVATED: sql`s.activated`,
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the portfolio, each row carrying the total of matching properties. The read also says whether any
 * of the caller's summaries is stale; usually none is, and the page is the answer in one round trip. Otherwise
 * (or when the page is empty, which says nothing) the stale summaries are recomputed and the page is read again.
 */
export async function readPortfolio(
  db: Db,
  scope: OperatorScope,
  q: PortfolioQuery,
): Promise<PortfolioRow[]> {
  const first = await queryRows<PortfolioRow & { stale: boolean }>(db, portfolioStatement(scope, q));
  if (first.length > 0 && !first[0]!.stale) return first;
  await refreshSummaries(db, scopeConditions(scope, null), q.now);
  return queryRows<PortfolioRow>(db, portfolioStatement(scope, q));
}

/** The caller's properties (as conditions on `p`), matching the search text when there is one. */
function scopeConditions(scope: OperatorScope, search: string | null | undefined): SQL[] {
  const inScope: SQL[] = [sql`p.account_id = ${scope.accountId}`];
  if (scope.propertyIds !== null) {
    const ids = [...scope.propertyIds, -1];
    inScope.push(
      sql`p.id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  const text = search?.trim();
  if (text) {
    const pattern = `%${escapeLike(text)}%`;
    inScope.push(
      sql`(p.number ILIKE ${pattern} OR p.name ILIKE ${pattern} OR p.address ILIKE ${pattern} OR p.city ILIKE ${pattern})`,
    );
  }
  return inScope;
}

/**
 * The portfolio's read (tests/bench/portfolio.ts `--explain` prints its plan): the caller's properties with
 * their stored summaries, filtered, sorted and paged in one statement, and whether any summary is stale.
 */
export function portfolioStatement(scope: OperatorScope, q: PortfolioQuery): SQL {
  const conditions = scopeConditions(scope, q.search);
  if (q.freshness === 'INCOMPLETE') conditions.push(sql`(s.reporting < s.meters OR s.meters = 0)`);
  if (q.freshness === 'SILENT') conditions.push(sql`s.reporting = 0`);
  if (q.withOpenIssues) conditions.push(sql`s.open_issues > 0`);
  const direction = q.descending ? sql`DESC` : sql`ASC`;
  return sql`SELECT p.id, p.number, p.name, p.address, p.zipcode, p.city, s.apartments, s.meters,
                    s.reporting AS "metersReporting", s.last_reading_at AS "lastReadingAt",
                    s.open_issues AS "openIssues", s.tenancies, s.invited, s.activated,
                    (count(*) OVER ())::int AS total,
                    EXISTS (SELECT 1 FROM properties p JOIN property_summaries s ON s.property_id = p.id
                            WHERE ${staleCondition(scopeConditions(scope, null), q.now)}) AS stale
             FROM properties p JOIN property_summaries s ON s.property_id = p.id
             WHERE ${sql.join(conditions, sql` AND `)}
             ORDER BY ${SORT_COLUMNS[q.sort]} ${direction} NULLS LAST, p.number ASC
             LIMIT ${q.limit} OFFSET ${q.offset}`;
}
