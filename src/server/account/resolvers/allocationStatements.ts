/** Query.allocationStatements and Tenancy.latestAllocationStatement: a member's statements of a tenancy. */
import { type GraphQLContext, requireUserId } from '../../graphql/context.ts';
import { forbidden } from '../../graphql/errors.ts';
import { statementFileName, statementPdfPath, tenancyStatements } from '../../statements/access.ts';
import type { QueryResolvers, TenancyResolvers } from '../types.generated.ts';

async function load(tenancyId: string, ctx: GraphQLContext) {
  const userId = requireUserId(ctx);
  const rows = /^\d{1,9}$/.test(tenancyId)
    ? await tenancyStatements(ctx.db, userId, Number(tenancyId))
    : null;
  if (!rows) throw forbidden();
  return rows.map((s) => ({
    id: String(s.id),
    periodStartDate: s.periodStart,
    periodEndDate: s.periodEnd,
    expenseTypes: s.details.expenses.map((e) => e.type),
    currency: s.currency,
    balance: s.balance,
    objectionDeadline: s.objectionDeadline,
    fileName: statementFileName(s),
    url: statementPdfPath(s.id),
  }));
}

export const allocationStatements: NonNullable<QueryResolvers['allocationStatements']> = (
  _parent,
  args,
  ctx,
) => load(args.tenancyId, ctx);

export const tenancyLatestAllocationStatement: NonNullable<
  TenancyResolvers['latestAllocationStatement']
> = async (parent, _args, ctx) => {
  const [latest] = await load(parent.id, ctx);
  return latest ?? null;
};
