/**
 * Query.monthlyReports: links to a tenancy's public monthly reports that have not expired (members only).
 * Only the months inside the tenancy's dates, and nothing once an ended tenancy's grace period is over
 * (tenant/grace.ts), as every other tenant query.
 */
import { and, desc, eq, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { monthlyReports as reports, tenancies, tenancyMembers } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { forbidden } from '../../graphql/errors.ts';
import { tenancyAccessOpen } from '../../tenant/grace.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const monthlyReports: NonNullable<QueryResolvers['monthlyReports']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const tenancyId = /^\d{1,9}$/.test(args.tenancyId) ? Number(args.tenancyId) : null;
  if (tenancyId === null) throw forbidden();
  const [member] = await ctx.db
    .select({ id: tenancyMembers.tenancyId })
    .from(tenancyMembers)
    .where(and(eq(tenancyMembers.tenancyId, tenancyId), eq(tenancyMembers.userId, userId)));
  if (!member) throw forbidden();
  const rows = await ctx.db
    .select({ month: reports.month, code: reports.code, expiresAt: reports.expiresAt })
    .from(reports)
    .innerJoin(tenancies, eq(tenancies.id, reports.tenancyId))
    .where(
      and(
        eq(reports.tenancyId, tenancyId),
        gt(reports.expiresAt, new Date()),
        tenancyAccessOpen,
        // The month overlaps the tenancy's dates (a move-in or move-out date corrected later drops a month).
        gte(reports.month, sql`date_trunc('month', ${tenancies.start})::date`),
        or(isNull(tenancies.end), lte(reports.month, tenancies.end)),
      ),
    )
    .orderBy(desc(reports.month));
  return rows.map((r) => ({
    month: r.month,
    url: `/report/${r.code}`,
    expiresAt: r.expiresAt.toISOString(),
  }));
};
