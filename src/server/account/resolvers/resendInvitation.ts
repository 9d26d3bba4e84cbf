/** `resendInvitation` (tenancy admin): mails a pending invitation again, with its code's expiry renewed. */
import { and, eq, isNull } from 'drizzle-orm';
import { consumeAttempt } from '../../auth/throttle.ts';
import { activationCodes, invitations } from '../../db/schema.ts';
import { forbidden } from '../../graphql/errors.ts';
import { ACTIVATION_CODE_TTL_DAYS } from '../activation.ts';
import { invitationShape, mailInvitation } from '../invitations.ts';
import { requireAdmin } from '../tenancyAccess.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { currentUser, parseId } from '../users.ts';

export const resendInvitation: NonNullable<MutationResolvers['resendInvitation']> = async (
  _parent,
  args,
  ctx,
) => {
  const id = parseId(args.invitationId);
  if (id === null) throw forbidden();
  const [found] = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt)));
  // An unknown, accepted or other tenancy's invitation: the same refusal as a non-admin gets.
  if (!found) throw forbidden();
  await requireAdmin(ctx, String(found.tenancyId));
  const inviter = await currentUser(ctx);
  await consumeAttempt(ctx.db, [
    ['mailSender', String(inviter.id)],
    ['mailRecipient', found.email],
  ]);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACTIVATION_CODE_TTL_DAYS * 86_400_000);
  const invitation = await ctx.db.transaction(async (tx) => {
    await tx.update(activationCodes).set({ expiresAt }).where(eq(activationCodes.code, found.activationCode));
    const [row] = await tx
      .update(invitations)
      .set({ lastSentAt: now })
      .where(eq(invitations.id, id))
      .returning();
    return row!;
  });
  await mailInvitation(ctx.services, ctx.db, invitation, inviter, expiresAt);
  ctx.logger.info({ userId: inviter.id, invitationId: id }, 'invitation sent again');
  return invitationShape(invitation);
};
