/**
 * The console's portfolio overview: one row per property the operator may see, with its data freshness (the
 * newest reading, and the share of active meters that reported in the last 24 hours, from
 * `meters.last_reading_at`, which a trigger on register_readings keeps), its open data issues, and its current
 * tenancies' invitations and activated tenants. Filtered, sorted and paged in one statement, so it stays one
 * round trip with 1,000 properties (tests/bench/portfolio.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
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
  LAST_READING: sql`f.last_reading_at`,
  REPORTING_SHARE: sql`(f.reporting::float8 / NULLIF(f.meters, 0))`,
  OPEN_ISSUES: sql`coalesce(i.open, 0)`,
  INVITED: sql`coalesce(inv.invited, 0)`,
  ACTIVATED: sql`coalesce(mem.activated, 0)`,
};

/** Sort keys on the property's own columns: the page can be chosen before anything is counted. */
const PROPERTY_SORTS: ReadonlySet<PortfolioSortKey> = new Set(['NUMBER', 'NAME', 'CITY']);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of the portfolio, each row carrying the total of matching properties. */
export function readPortfolio(db: Db, scope: OperatorScope, q: PortfolioQuery): Promise<PortfolioRow[]> {
  return queryRows<PortfolioRow>(db, portfolioStatement(scope, q));
}

/** The portfolio's one statement (tests/bench/portfolio.ts `--explain` prints its plan). */
export function portfolioStatement(scope: OperatorScope, q: PortfolioQuery): SQL {
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
  const search = q.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    inScope.push(
      sql`(p.number ILIKE ${pattern} OR p.name ILIKE ${pattern} OR p.address ILIKE ${pattern} OR p.city ILIKE ${pattern})`,
    );
  }
  const matches: SQL[] = [sql`TRUE`];
  if (q.freshness === 'INCOMPLETE')
    matches.push(sql`coalesce(f.reporting, 0) < coalesce(f.meters, 0) OR f.meters IS NULL`);
  if (q.freshness === 'SILENT') matches.push(sql`coalesce(f.reporting, 0) = 0`);
  if (q.withOpenIssues) matches.push(sql`coalesce(i.open, 0) > 0`);
  const since = new Date(q.now.getTime() - 24 * 3_600_000).toISOString();
  const now = q.now.toISOString();
  const today = q.now.toISOString().slice(0, 10);
  const direction = q.descending ? sql`DESC` : sql`ASC`;
  // Each part joins the scope (a semi-join on a CTE is estimated at 200 rows, which misled the planner).
  // Sorted by the property's own columns with no filter on the figures (the default view), the page is chosen
  // from properties alone and only its 50 rows are counted; otherwise every property in scope is.
  const pageFirst = PROPERTY_SORTS.has(q.sort) && (q.freshness ?? 'ALL') === 'ALL' && !q.withOpenIssues;
  const properties = pageFirst
    ? sql`SELECT p.*, (count(*) OVER ())::int AS matching FROM properties p
          WHERE ${sql.join(inScope, sql` AND `)}
          ORDER BY ${SORT_COLUMNS[q.sort]} ${direction} NULLS LAST, p.number ASC
          LIMIT ${q.limit} OFFSET ${q.offset}`
    : sql`SELECT p.* FROM properties p WHERE ${sql.join(inScope, sql` AND `)}`;
  return sql`WITH scope AS MATERIALIZED (${properties}),
        f AS (
          SELECT mp.property_id, count(*)::int AS meters,
                 (count(*) FILTER (WHERE m.last_reading_at >= ${since}::timestamptz))::int AS reporting,
                 max(m.last_reading_at) AS last_reading_at
          FROM scope s
          JOIN measurement_points mp ON mp.property_id = s.id
          JOIN meters m ON m.measurement_point_id = mp.id
          WHERE m.removed_at IS NULL OR m.removed_at > ${now}::timestamptz
          GROUP BY mp.property_id
        ),
        a AS (
          SELECT ap.property_id, count(*)::int AS apartments
          FROM scope s JOIN apartments ap ON ap.property_id = s.id GROUP BY ap.property_id
        ),
        i AS (
          SELECT di.property_id, count(*)::int AS open
          FROM scope s JOIN data_issues di ON di.property_id = s.id AND di.status = 'open'
          GROUP BY di.property_id
        ),
        cur AS MATERIALIZED (
          SELECT tn.id, ap.property_id
          FROM scope s
          JOIN apartments ap ON ap.property_id = s.id
          JOIN tenancies tn ON tn.apartment_id = ap.id
          WHERE tn.start <= ${today}::date AND (tn."end" IS NULL OR tn."end" >= ${today}::date)
        ),
        t AS (SELECT property_id, count(*)::int AS tenancies FROM cur GROUP BY property_id),
        inv AS (
          SELECT cur.property_id, count(DISTINCT (inv.tenancy_id, lower(inv.email)))::int AS invited
          FROM cur JOIN invitations inv ON inv.tenancy_id = cur.id GROUP BY cur.property_id
        ),
        mem AS (
          SELECT cur.property_id, count(*)::int AS activated
          FROM cur JOIN tenancy_members mem ON mem.tenancy_id = cur.id GROUP BY cur.property_id
        )
        SELECT p.id, p.number, p.name, p.address, p.zipcode, p.city,
               coalesce(a.apartments, 0) AS apartments,
               coalesce(f.meters, 0) AS meters, coalesce(f.reporting, 0) AS "metersReporting",
               f.last_reading_at AS "lastReadingAt",
               coalesce(i.open, 0) AS "openIssues",
               coalesce(t.tenancies, 0) AS tenancies, coalesce(inv.invited, 0) AS invited,
               coalesce(mem.activated, 0) AS activated,
               ${pageFirst ? sql`p.matching` : sql`(count(*) OVER ())::int`} AS total
        FROM scope p
        LEFT JOIN f ON f.property_id = p.id
        LEFT JOIN a ON a.property_id = p.id
        LEFT JOIN i ON i.property_id = p.id
        LEFT JOIN t ON t.property_id = p.id
        LEFT JOIN inv ON inv.property_id = p.id
        LEFT JOIN mem ON mem.property_id = p.id
        WHERE (${sql.join(matches, sql`) AND (`)})
        ORDER BY ${SORT_COLUMNS[q.sort]} ${direction} NULLS LAST, p.number ASC
        ${pageFirst ? sql`` : sql`LIMIT ${q.limit} OFFSET ${q.offset}`}`;
}
