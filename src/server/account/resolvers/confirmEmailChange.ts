/** `confirmEmailChange`: switches to the confirmed address and ends every session (SPEC §4: it logs out). */
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { passwordUpdateFailed, userExists } from '../errors.ts';
import { consumeOneTimeToken } from '../oneTimeTokens.ts';
import { endAllSessions } from '../session.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { userByEmail } from '../users.ts';

export const confirmEmailChange: NonNullable<MutationResolvers['confirmEmailChange']> = async (
  _parent,
  args,
  ctx,
) => {
  const userId = await ctx.db.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, 'email_change', args.token);
    if (!row?.newEmail) return null;
    if (await userByEmail({ ...ctx, db: tx }, row.newEmail)) throw userExists();
    await tx.update(users).set({ email: row.newEmail }).where(eq(users.id, row.userId));
    await endAllSessions(tx, row.userId);
    return row.userId;
  });
  if (userId === null) throw passwordUpdateFailed();
  ctx.logger.info({ userId }, 'email changed');
  return { ok: true };
};
