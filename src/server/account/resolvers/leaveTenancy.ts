/** `leaveTenancy`: the caller leaves; the last admin of a tenancy with other users must hand over first. */
import { and, eq } from 'drizzle-orm';
import { tenancyMembers } from '../../db/schema.ts';
import { lastAdmin } from '../errors.ts';
import { requireMember, wouldLeaveNoAdmin } from '../tenancyAccess.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const leaveTenancy: NonNullable<MutationResolvers['leaveTenancy']> = async (_parent, args, ctx) => {
  const { userId, tenancyId, isAdmin } = await requireMember(ctx, args.tenancyId);
  await ctx.db.transaction(async (tx) => {
    if (isAdmin && (await wouldLeaveNoAdmin(tx, tenancyId, userId, true))) throw lastAdmin();
    await tx
      .delete(tenancyMembers)
      .where(and(eq(tenancyMembers.tenancyId, tenancyId), eq(tenancyMembers.userId, userId)));
  });
  ctx.logger.info({ userId, tenancyId }, 'left tenancy');
  return { ok: true };
};
