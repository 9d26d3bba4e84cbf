/** Refresh-token exchange shared by both backends: rotate the refresh token, then sign a new access token. */

import { z } from 'zod';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { loginRequired, parseInput } from '../graphql/errors.ts';
import type { Backend, SigningKey } from './keys.ts';
import { activeUser, type IssuedTokens } from './login.ts';
import { rotateRefreshToken } from './refresh.ts';
import { signAccessToken } from './tokens.ts';

/** A refresh token is 32 random bytes in base64url (43 characters); anything far off is refused before SQL. */
export const refreshTokenInput = z.string().min(16).max(128);

/** Exchanges a refresh token for a new access token and a rotated refresh token. */
export async function refreshSession(
  db: Db,
  config: Pick<ServerConfig, 'ACCESS_TOKEN_TTL' | 'REFRESH_TOKEN_TTL'>,
  backend: Backend,
  key: SigningKey,
  refreshToken: string,
): Promise<IssuedTokens> {
  const presented = parseInput(refreshTokenInput, refreshToken);
  const rotated = await rotateRefreshToken(db, backend, presented, config.REFRESH_TOKEN_TTL);
  const user = await activeUser(db, rotated.userId);
  if (!user) throw loginRequired();
  // An impersonation family ends at a fixed time; its access tokens end with it.
  const left = Math.floor((rotated.expiresAt.getTime() - Date.now()) / 1000);
  const ttl = Math.max(1, Math.min(config.ACCESS_TOKEN_TTL, left));
  const { token, claims } = await signAccessToken(backend, key, user, ttl);
  return { token, claims, refreshToken: rotated.token, refreshExpiresAt: rotated.expiresAt };
}
