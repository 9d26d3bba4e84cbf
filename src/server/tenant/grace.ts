/**
 * How long the members of an ended tenancy keep access to their own period (issue 21). While the tenancy runs,
 * and until the end of its grace period after move-out, its members see its data inside its dates (access.ts
 * clips to them); after that, nothing at all: the tenancy no longer counts as theirs in any tenant query.
 *
 * The grace period ends at the first local midnight after the objection deadline of the tenancy's final
 * statement (a published allocation statement whose period holds the move-out day), so a tenant can check that
 * statement against their own figures; without one, `accounts.move_out_grace_months` (default 12, set by an
 * organisation admin) after the day after move-out. Evaluated in SQL on every request (`now()`), so a statement
 * imported later or a changed setting counts at once, and nothing has to be swept.
 */
import { type SQL, sql } from 'drizzle-orm';
import { TIME_ZONE } from '../../lib/periods.ts';
import { tenancies } from '../db/schema.ts';

/** SQL: the instant the tenancy's members lose access; NULL while it has no move-out date. */
export const accessEndsAt: SQL<Date | string | null> = sql`(CASE WHEN ${tenancies.end} IS NULL THEN NULL ELSE
  coalesce(
    (SELECT (max(s.objection_deadline) + 1)::timestamp AT TIME ZONE ${sql.raw(`'${TIME_ZONE}'`)}
       FROM allocation_statements s
      WHERE s.tenancy_id = ${tenancies.id} AND s.period_start <= ${tenancies.end}
        AND s.period_end >= ${tenancies.end}),
    ((${tenancies.end} + 1)::timestamp + make_interval(months => (SELECT a.move_out_grace_months
       FROM apartments ap JOIN properties p ON p.id = ap.property_id JOIN accounts a ON a.id = p.account_id
      WHERE ap.id = ${tenancies.apartmentId}))) AT TIME ZONE ${sql.raw(`'${TIME_ZONE}'`)})
  END)`;

/** SQL condition on a joined `tenancies` row: its members may still see it now. */
export const tenancyAccessOpen: SQL = sql`(${tenancies.end} IS NULL OR now() < ${accessEndsAt})`;
