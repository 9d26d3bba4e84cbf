/** `passwordReset`: sets a new password with a mailed token, spends it, and ends every session of the user. */
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '../../auth/password.ts';
import { consumeAttempt } from '../../auth/throttle.ts';
import { oneTimeTokens, users } from '../../db/schema.ts';
import { passwordUpdateFailed } from '../errors.ts';
import { consumeOneTimeToken } from '../oneTimeTokens.ts';
import { endAllSessions } from '../session.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { assertPasswordAcceptable } from '../users.ts';

export const passwordReset: NonNullable<MutationResolvers['passwordReset']> = async (_parent, args, ctx) => {
  await consumeAttempt(ctx.db, [['resetIp', ctx.clientAddress]]);
  assertPasswordAcceptable(args.newPassword);
  const email = args.email.trim().toLowerCase();
  const passwordHash = await hashPassword(args.newPassword);
  const userId = await ctx.db.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, 'password_reset', args.token);
    if (!row) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.id, row.userId), eq(users.email, email), eq(users.isActive, true)))
      .returning({ id: users.id });
    // A token presented with another email is not spent: roll back.
    if (!user) {
      await tx.update(oneTimeTokens).set({ usedAt: null }).where(eq(oneTimeTokens.id, row.id));
      return null;
    }
    await endAllSessions(tx, user.id);
    return user.id;
  });
  if (userId === null) throw passwordUpdateFailed();
  ctx.logger.info({ userId }, 'password reset');
  return { ok: true };
};
