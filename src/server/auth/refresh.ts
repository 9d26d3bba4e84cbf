/**
 * Refresh tokens: opaque random strings, stored only as SHA-256 hashes. Each use spends the token and
 * issues a new one in the same family; a spent or revoked token presented again revokes the whole family
 * (someone holds a stolen copy), and the caller gets TOKEN_REVOKED.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { refreshTokens } from '../db/schema.ts';
import { apiError } from '../graphql/errors.ts';
import type { Backend } from './keys.ts';

/** A refresh token as handed to the client. */
export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Unix seconds, as the API reports expiry and revocation times. */
export const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

const invalidRefreshToken = () => apiError('UNAUTHENTICATED', 'Invalid refresh token');

/** Issues a refresh token; a new family unless `familyId` continues one. */
export async function issueRefreshToken(
  db: Pick<Db, 'insert'>,
  backend: Backend,
  userId: number,
  ttlSeconds: number,
  familyId: string = randomUUID(),
  now: Date = new Date(),
  sessionEndsAt: Date | null = null,
): Promise<IssuedRefreshToken> {
  const token = randomBytes(32).toString('base64url');
  let expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  if (sessionEndsAt && sessionEndsAt < expiresAt) expiresAt = sessionEndsAt;
  await db
    .insert(refreshTokens)
    .values({ backend, userId, familyId, tokenHash: hashToken(token), expiresAt, sessionEndsAt });
  return { token, expiresAt };
}

/** Revokes every refresh-token family of a user on both backends (password change, email change). */
export async function revokeAllRefreshTokens(
  db: Pick<Db, 'update'>,
  userId: number,
  now: Date = new Date(),
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

async function revokeFamily(db: Pick<Db, 'update'>, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Spends a refresh token and issues its successor. Throws UNAUTHENTICATED for an unknown token (or one of
 * the other backend), TOKEN_EXPIRED for an expired one, TOKEN_REVOKED (after revoking the family) for reuse.
 */
export async function rotateRefreshToken(
  db: Db,
  backend: Backend,
  token: string,
  ttlSeconds: number,
  now: Date = new Date(),
): Promise<{ userId: number } & IssuedRefreshToken> {
  const tokenHash = hashToken(token);
  const rotated = await db.transaction(async (tx) => {
    // The conditional update is the lock: of two concurrent uses, only one spends the token.
    const [spent] = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(refreshTokens.tokenHash, tokenHash),
          eq(refreshTokens.backend, backend),
          isNull(refreshTokens.usedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, now),
        ),
      )
      .returning({
        userId: refreshTokens.userId,
        familyId: refreshTokens.familyId,
        sessionEndsAt: refreshTokens.sessionEndsAt,
      });
    if (!spent) return null;
    const next = await issueRefreshToken(
      tx,
      backend,
      spent.userId,
      ttlSeconds,
      spent.familyId,
      now,
      spent.sessionEndsAt,
    );
    return { userId: spent.userId, ...next };
  });
  if (rotated) return rotated;

  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, tokenHash), eq(refreshTokens.backend, backend)));
  if (!row) throw invalidRefreshToken();
  if (row.usedAt || row.revokedAt) {
    await revokeFamily(db, row.familyId, now);
    throw apiError('TOKEN_REVOKED', 'Refresh token is revoked');
  }
  throw apiError('TOKEN_EXPIRED', 'Refresh token is expired');
}

/** Revokes a refresh token and its family (logout); returns the revocation time. */
export async function revokeRefreshToken(db: Db, backend: Backend, token: string, now: Date = new Date()) {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, hashToken(token)), eq(refreshTokens.backend, backend)));
  if (!row) throw apiError('NOT_FOUND', 'Invalid refresh token');
  await revokeFamily(db, row.familyId, now);
  return now;
}
