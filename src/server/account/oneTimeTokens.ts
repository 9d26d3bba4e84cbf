/** Single-use tokens (reset links, email-change links, impersonation links, slt), kept only as hashes. */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oneTimeTokens } from '../db/schema.ts';

/** What a one-time token is for. */
export type TokenPurpose = (typeof oneTimeTokens.$inferSelect)['purpose'];

/** How long each kind of token lives, in seconds. */
export const TOKEN_TTL: Record<TokenPurpose, number> = {
  password_reset: 60 * 60,
  email_change: 24 * 60 * 60,
  impersonation: 10 * 60,
  slt: 60,
  /** Between an operator's password and their second factor. */
  operator_mfa: 5 * 60,
};

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Spends every unused token of the purpose that the user holds: none of them can be used from now on. */
export async function spendUnusedTokens(
  db: Pick<Db, 'update'>,
  purpose: TokenPurpose,
  userId: number,
  now: Date = new Date(),
): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)),
    );
}

/** Issues a token; `replace` first spends the user's unused tokens of the same purpose (one live link). */
export async function issueOneTimeToken(
  db: Pick<Db, 'insert' | 'update'>,
  purpose: TokenPurpose,
  userId: number,
  options: { newEmail?: string; sessionEndsAt?: Date; replace?: boolean; now?: Date } = {},
): Promise<{ id: number; token: string; expiresAt: Date }> {
  const now = options.now ?? new Date();
  if (options.replace) await spendUnusedTokens(db, purpose, userId, now);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + TOKEN_TTL[purpose] * 1000);
  const [row] = await db
    .insert(oneTimeTokens)
    .values({
      purpose,
      userId,
      tokenHash: hash(token),
      newEmail: options.newEmail ?? null,
      sessionEndsAt: options.sessionEndsAt ?? null,
      expiresAt,
    })
    .returning({ id: oneTimeTokens.id });
  return { id: row!.id, token, expiresAt };
}

/** The row of an unused, unexpired token of the purpose. */
const live = (purpose: TokenPurpose, token: string, now: Date) =>
  and(
    eq(oneTimeTokens.tokenHash, hash(token)),
    eq(oneTimeTokens.purpose, purpose),
    isNull(oneTimeTokens.usedAt),
    gt(oneTimeTokens.expiresAt, now),
  );

/** Spends a token: the row when it was unused and unexpired (only one of two concurrent uses wins), else null. */
export async function consumeOneTimeToken(
  db: Pick<Db, 'update'>,
  purpose: TokenPurpose,
  token: string,
  now: Date = new Date(),
): Promise<typeof oneTimeTokens.$inferSelect | null> {
  if (token.length < 16 || token.length > 128) return null;
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(live(purpose, token, now))
    .returning();
  return row ?? null;
}

/** A token's row when it is unused and unexpired, without spending it (a step that may still fail). */
export async function peekOneTimeToken(
  db: Pick<Db, 'select'>,
  purpose: TokenPurpose,
  token: string,
  now: Date = new Date(),
): Promise<typeof oneTimeTokens.$inferSelect | null> {
  if (token.length < 16 || token.length > 128) return null;
  const [row] = await db
    .select()
    .from(oneTimeTokens)
    .where(live(purpose, token, now));
  return row ?? null;
}
