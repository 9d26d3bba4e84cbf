/** Email/password login and token issuing, shared by both backends (each with its own key and audience). */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { invalidCredentials, parseInput } from '../graphql/errors.ts';
import type { Backend, SigningKey } from './keys.ts';
import { verifyPassword } from './password.ts';
import { issueRefreshToken } from './refresh.ts';
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

/** Checks email and password; the same error and about the same time for an unknown email, a wrong password or an inactive user. */
export async function authenticate(db: Db, input: { email: string; password: string }) {
  const { email, password } = parseInput(credentialsSchema, input);
  const [user] = await db.select().from(users).where(eq(users.email, email));
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok || !user.isActive) throw invalidCredentials();
  return user;
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
): Promise<IssuedTokens> {
  const { token, claims } = await signAccessToken(backend, key, user, config.ACCESS_TOKEN_TTL);
  const refresh = await issueRefreshToken(db, backend, user.id, config.REFRESH_TOKEN_TTL);
  return { token, claims, refreshToken: refresh.token, refreshExpiresAt: refresh.expiresAt };
}

/** Loads an active user for a token's subject; null when the user is gone or deactivated. */
export async function activeUser(db: Db, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user?.isActive ? user : null;
}
