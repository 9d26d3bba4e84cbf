/** `setTenancyAdmin` (tenancy admin): gives or takes a member's admin flag; the last admin keeps theirs. */
import { and, eq } from 'drizzle-orm';
import { tenancyMembers, users } from '../../db/schema.ts';
import { forbidden } from '../../graphql/errors.ts';
import { lastAdmin } from '../errors.ts';
import { requireAdmin, wouldLeaveNoAdmin } from '../tenancyAccess.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { parseId } from '../users.ts';

export const setTenancyAdmin: NonNullable<MutationResolvers['setTenancyAdmin']> = async (
  _parent,
  args,
  ctx,
) => {
  const me = await requireAdmin(ctx, args.tenancyId);
  const target = parseId(args.userId);
  if (target === null) throw forbidden();
  const member = await ctx.db.transaction(async (tx) => {
    if (!args.isAdmin && (await wouldLeaveNoAdmin(tx, me.tenancyId, target, false))) throw lastAdmin();
    const [updated] = await tx
      .update(tenancyMembers)
      .set({ isAdmin: args.isAdmin })
      .where(and(eq(tenancyMembers.tenancyId, me.tenancyId), eq(tenancyMembers.userId, target)))
      .returning({ userId: tenancyMembers.userId, isAdmin: tenancyMembers.isAdmin });
    if (!updated) throw forbidden();
    const [user] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, target));
    return { ...updated, ...user! };
  });
  ctx.logger.info(
    { userId: me.userId, tenancyId: me.tenancyId, target, isAdmin: args.isAdmin },
    'admin flag set',
  );
  return { ...member, userId: String(member.userId), isMe: member.userId === me.userId };
};
