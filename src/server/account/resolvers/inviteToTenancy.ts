/** `inviteToTenancy` (tenancy admin): a new activation code, an invitation row, and a mail with the code link. */
import { and, eq, isNull } from 'drizzle-orm';
import { consumeAttempt } from '../../auth/throttle.ts';
import { invitations, tenancyMembers, users } from '../../db/schema.ts';
import { createActivationCode } from '../activation.ts';
import { tenancyUserExists } from '../errors.ts';
import { invitationShape, mailInvitation } from '../invitations.ts';
import { requireAdmin } from '../tenancyAccess.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { currentUser, parseEmail } from '../users.ts';

export const inviteToTenancy: NonNullable<MutationResolvers['inviteToTenancy']> = async (
  _parent,
  args,
  ctx,
) => {
  const { tenancyId } = await requireAdmin(ctx, args.tenancyId);
  const inviter = await currentUser(ctx);
  const email = parseEmail(args.email);
  await consumeAttempt(ctx.db, [
    ['mailSender', String(inviter.id)],
    ['mailRecipient', email],
  ]);
  const [member] = await ctx.db
    .select({ userId: users.id })
    .from(tenancyMembers)
    .innerJoin(users, eq(users.id, tenancyMembers.userId))
    .where(and(eq(tenancyMembers.tenancyId, tenancyId), eq(users.email, email)));
  if (member) throw tenancyUserExists();
  const [pending] = await ctx.db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(eq(invitations.tenancyId, tenancyId), eq(invitations.email, email), isNull(invitations.acceptedAt)),
    );
  if (pending) throw tenancyUserExists();
  const { invitation, expiresAt } = await ctx.db.transaction(async (tx) => {
    const { code, expiresAt } = await createActivationCode(tx, tenancyId);
    const [invitation] = await tx
      .insert(invitations)
      .values({ tenancyId, email, invitedByUserId: inviter.id, activationCode: code })
      .returning();
    return { invitation: invitation!, expiresAt };
  });
  await mailInvitation(ctx.services, ctx.db, invitation, inviter, expiresAt);
  ctx.logger.info({ userId: inviter.id, tenancyId, invitationId: invitation.id }, 'invitation sent');
  return invitationShape(invitation);
};
