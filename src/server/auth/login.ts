/** Email/password login and token issuing, shared by both backends (each with its own key and audience). */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import { wrongPassword } from '../account/errors.ts';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { invalidCredentials, parseInput } from '../graphql/errors.ts';
import type { Backend, SigningKey } from './keys.ts';
import { verifyPassword } from './password.ts';
import { issueRefreshToken } from './refresh.ts';
import { clearThrottle, consumeAttempt, refundAttempt, type ThrottleName } from './throttle.ts';
import { type AccessClaims, signAccessToken } from './tokens.ts';

const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email({ message: 'The entered email-address is invalid' })),
  // The cap keeps argon2 from being fed megabytes.
  password: z.string().min(1).max(1024),
});

/** Who is logging in, for throttling and the failed-login log (which never holds the password). */
export interface LoginAttempt {
  clientAddress: string | null;
  logger: Logger;
}

/**
 * Checks email and password; the same error and about the same time for an unknown email, a wrong password
 * or an inactive user. Failures count per email and per client address (both backends share the counts);
 * over the limit every attempt, right or wrong, gets TOO_MANY_ATTEMPTS until the block ends. Every attempt takes
 * its point before the password is checked, so parallel guesses cannot race past the limit; a success gives the
 * address's point back and clears the email's count.
 */
export async function authenticate(
  db: Db,
  input: { email: string; password: string },
  attempt: LoginAttempt,
) {
  const { email, password } = parseInput(credentialsSchema, input);
  const checks: Array<[ThrottleName, string | null]> = [
    ['loginAccount', email],
    ['loginIp', attempt.clientAddress],
  ];
  await consumeAttempt(db, checks);
  const [user] = await db.select().from(users).where(eq(users.email, email));
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok || !user.isActive) {
    const reason = !user ? 'unknown email' : !ok ? 'wrong password' : 'deactivated';
    attempt.logger.warn({ email, clientAddress: attempt.clientAddress, reason }, 'failed login');
    throw invalidCredentials();
  }
  await clearThrottle(db, 'loginAccount', email);
  await refundAttempt(db, [['loginIp', attempt.clientAddress]]);
  return user;
}

/** Checks a signed-in user's current password (profile actions); wrong answers count as failed logins. */
export async function confirmPassword(
  db: Db,
  user: { email: string; passwordHash: string | null },
  password: string,
  attempt: LoginAttempt,
): Promise<void> {
  const checks: Array<[ThrottleName, string | null]> = [
    ['loginAccount', user.email],
    ['loginIp', attempt.clientAddress],
  ];
  await consumeAttempt(db, checks);
  if (password.length <= 1024 && (await verifyPassword(user.passwordHash, password))) {
    await refundAttempt(db, checks);
    return;
  }
  attempt.logger.warn({ email: user.email, clientAddress: attempt.clientAddress }, 'wrong current password');
  throw wrongPassword();
}

/** What a login or refresh hands back. */
export interface IssuedTokens {
  token: string;
  claims: AccessClaims;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** Signs an access token and starts a new refresh-token family for the user. */
export async function issueTokens(
  db: Db,
  config: Pick<ServerConfig, 'ACCESS_TOKEN_TTL' | 'REFRESH_TOKEN_TTL'>,
  backend: Backend,
  key: SigningKey,
  user: { id: number; email: string },
  /** A hard end for the session (impersonation), which neither token outlives. */
  sessionEndsAt: Date | null = null,
): Promise<IssuedTokens> {
  const now = new Date();
  const left = sessionEndsAt ? Math.floor((sessionEndsAt.getTime() - now.getTime()) / 1000) : Infinity;
  const accessTtl = Math.max(1, Math.min(config.ACCESS_TOKEN_TTL, left));
  const { token, claims } = await signAccessToken(backend, key, user, accessTtl);
  const refresh = await issueRefreshToken(
    db,
    backend,
    user.id,
    config.REFRESH_TOKEN_TTL,
    undefined,
    now,
    sessionEndsAt,
  );
  return { token, claims, refreshToken: refresh.token, refreshExpiresAt: refresh.expiresAt };
}

/** Loads an active user for a token's subject; null when the user is gone or deactivated. */
export async function activeUser(db: Db, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user?.isActive ? user : null;
}
