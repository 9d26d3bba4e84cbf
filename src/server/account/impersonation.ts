/** Impersonation for support staff: a one-time link, recorded (who, whom, when), for a 60-minute session. */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { impersonations, users } from '../db/schema.ts';
import { issueOneTimeToken, TOKEN_TTL } from './oneTimeTokens.ts';

/** SPEC §9: an impersonation session ends after 60 minutes. */
export const IMPERSONATION_SESSION_MS = 60 * 60 * 1000;

/**
 * Issues an impersonation link for a user; throws a readable Error when the user cannot be impersonated.
 * `alsoInTransaction` runs in the same transaction as the record (the console's audit entry).
 */
export async function issueImpersonationLink(
  db: Db,
  appUrl: string,
  email: string,
  operator: string,
  reason = '',
  alsoInTransaction?: (tx: Pick<Db, 'insert'>) => Promise<void>,
): Promise<{ link: string; expiresAt: Date; minutes: number; userId: number }> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) throw new Error(`No user with the email ${email}`);
  if (!user.isActive) throw new Error(`${user.email} is deactivated`);
  if (user.isAdmin || user.isSuperuser) {
    throw new Error(`${user.email} has above default rights and cannot be impersonated`);
  }
  return db.transaction(async (tx) => {
    const { id, token, expiresAt } = await issueOneTimeToken(tx, 'impersonation', user.id);
    await tx
      .insert(impersonations)
      .values({ operator, userId: user.id, userEmail: user.email, reason, tokenId: id });
    await alsoInTransaction?.(tx);
    return {
      link: new URL(`/impersonate/${token}`, appUrl).toString(),
      expiresAt,
      minutes: TOKEN_TTL.impersonation / 60,
      userId: user.id,
    };
  });
}
