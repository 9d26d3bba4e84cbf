/** `impersonate`: spends a one-time link token for a session that ends after 60 minutes on both backends. */
import { eq } from 'drizzle-orm';
import { unixSeconds } from '../../auth/refresh.ts';
import { impersonations, users } from '../../db/schema.ts';
import { loginRequired } from '../../graphql/errors.ts';
import { aboveDefaultRights } from '../errors.ts';
import { IMPERSONATION_SESSION_MS } from '../impersonation.ts';
import { consumeOneTimeToken } from '../oneTimeTokens.ts';
import { startSession } from '../session.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { hasAboveDefaultRights } from '../users.ts';

export const impersonate: NonNullable<MutationResolvers['impersonate']> = async (_parent, args, ctx) => {
  const now = new Date();
  const row = await consumeOneTimeToken(ctx.db, 'impersonation', args.token, now);
  if (!row) throw loginRequired();
  const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (!user?.isActive) throw loginRequired();
  if (hasAboveDefaultRights(user)) throw aboveDefaultRights();
  await ctx.db.update(impersonations).set({ usedAt: now }).where(eq(impersonations.tokenId, row.id));
  const endsAt = new Date(now.getTime() + IMPERSONATION_SESSION_MS);
  const session = await startSession(ctx, user, endsAt);
  ctx.logger.info({ userId: user.id }, 'impersonation session started');
  return { ...session, expiresAt: unixSeconds(endsAt), email: user.email };
};
