/** Starting a session on the account backend, with a short-lived token (slt) that starts one on the tenant backend. */
import { eq } from 'drizzle-orm';
import { issueTokens } from '../auth/login.ts';
import { revokeAllRefreshTokens, unixSeconds } from '../auth/refresh.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { issueOneTimeToken, spendUnusedTokens } from './oneTimeTokens.ts';

/** Account tokens plus an slt for the tenant backend's loginFromSlt. */
export async function startSession(
  ctx: GraphQLContext,
  user: { id: number; email: string },
  sessionEndsAt: Date | null = null,
) {
  const issued = await issueTokens(
    ctx.db,
    ctx.services.config,
    'account',
    ctx.services.keys.account,
    user,
    sessionEndsAt,
  );
  const slt = await issueOneTimeToken(ctx.db, 'slt', user.id, sessionEndsAt ? { sessionEndsAt } : {});
  return {
    token: issued.token,
    refreshToken: issued.refreshToken,
    refreshExpiresIn: unixSeconds(issued.refreshExpiresAt),
    slt: slt.token,
  };
}

/**
 * Ends every session of a user on both backends: all refresh-token families are revoked, access tokens
 * issued before this second are refused from now on, and an slt not yet exchanged can no longer start a
 * tenant session (issue 24: one issued just before a password change was exchanged afterwards).
 */
export async function endAllSessions(db: Pick<Db, 'update'>, userId: number, now: Date = new Date()) {
  await revokeAllRefreshTokens(db, userId, now);
  await spendUnusedTokens(db, 'slt', userId, now);
  const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
  await db.update(users).set({ tokensValidAfter: second, updatedAt: now }).where(eq(users.id, userId));
}
