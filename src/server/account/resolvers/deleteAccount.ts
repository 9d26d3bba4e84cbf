/**
 * `deleteAccount`: irreversible. Confirmed by typing the account's email (and the password, when it has
 * one). Deletes the user row, which takes memberships, refresh tokens of both backends, one-time tokens and
 * permissions with it; also mail and invitations addressed to them. Tenancies where they were the last
 * admin pass the flag to the longest-standing other member. Access tokens die with the row (context check).
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { confirmPassword } from '../../auth/login.ts';
import {
  impersonations,
  invitations,
  mailOutbox,
  rateLimits,
  tenancyMembers,
  users,
} from '../../db/schema.ts';
import { badInput } from '../../graphql/errors.ts';
import { wouldLeaveNoAdmin } from '../tenancyAccess.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { currentUser } from '../users.ts';

export const deleteAccount: NonNullable<MutationResolvers['deleteAccount']> = async (_parent, args, ctx) => {
  const user = await currentUser(ctx);
  if (args.confirmation.trim().toLowerCase() !== user.email) {
    throw badInput('Type your email address to confirm the deletion');
  }
  if (user.passwordHash) await confirmPassword(ctx.db, user, args.password ?? '', ctx);
  await ctx.db.transaction(async (tx) => {
    const memberships = await tx
      .select({ tenancyId: tenancyMembers.tenancyId, isAdmin: tenancyMembers.isAdmin })
      .from(tenancyMembers)
      .where(eq(tenancyMembers.userId, user.id));
    for (const m of memberships) {
      if (!m.isAdmin || !(await wouldLeaveNoAdmin(tx, m.tenancyId, user.id, true))) continue;
      const [heir] = await tx
        .select({ userId: tenancyMembers.userId })
        .from(tenancyMembers)
        .where(and(eq(tenancyMembers.tenancyId, m.tenancyId), ne(tenancyMembers.userId, user.id)))
        .orderBy(asc(tenancyMembers.createdAt), asc(tenancyMembers.userId))
        .limit(1);
      await tx
        .update(tenancyMembers)
        .set({ isAdmin: true })
        .where(and(eq(tenancyMembers.tenancyId, m.tenancyId), eq(tenancyMembers.userId, heir!.userId)));
    }
    await tx.delete(invitations).where(eq(invitations.email, user.email));
    await tx.delete(mailOutbox).where(eq(mailOutbox.to, user.email));
    await tx.delete(rateLimits).where(eq(rateLimits.key, `loginAccount:${user.email}`));
    await tx
      .update(impersonations)
      .set({ userEmail: `deleted user ${user.id}` })
      .where(eq(impersonations.userId, user.id));
    await tx.delete(users).where(eq(users.id, user.id));
  });
  ctx.logger.info({ userId: user.id }, 'account deleted');
  return { ok: true };
};
