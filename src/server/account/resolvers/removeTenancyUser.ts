/** `removeTenancyUser` (tenancy admin): removes a member; the last admin cannot remove themselves. */
import { and, eq } from 'drizzle-orm';
import { tenancyMembers } from '../../db/schema.ts';
import { forbidden } from '../../graphql/errors.ts';
import { lastAdmin } from '../errors.ts';
import { requireAdmin, wouldLeaveNoAdmin } from '../tenancyAccess.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { parseId } from '../users.ts';

export const removeTenancyUser: NonNullable<MutationResolvers['removeTenancyUser']> = async (
  _parent,
  args,
  ctx,
) => {
  const me = await requireAdmin(ctx, args.tenancyId);
  const target = parseId(args.userId);
  if (target === null) throw forbidden();
  await ctx.db.transaction(async (tx) => {
    if (target === me.userId && (await wouldLeaveNoAdmin(tx, me.tenancyId, me.userId, true)))
      throw lastAdmin();
    const [removed] = await tx
      .delete(tenancyMembers)
      .where(and(eq(tenancyMembers.tenancyId, me.tenancyId), eq(tenancyMembers.userId, target)))
      .returning({ userId: tenancyMembers.userId });
    if (!removed) throw forbidden();
  });
  ctx.logger.info({ userId: me.userId, tenancyId: me.tenancyId, target }, 'user removed from tenancy');
  return { ok: true };
};
