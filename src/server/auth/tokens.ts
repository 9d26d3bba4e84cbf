/**
 * Access tokens: short-lived EdDSA JWTs. Each backend has its own issuer, audience and key, so a token
 * of one backend is refused by the other. Verification pins the algorithm and checks aud, iss, typ, exp.
 */
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Backend, SigningKey } from './keys.ts';

const ALG = 'EdDSA';
const TYP = 'at+jwt';

/** Issuer claim per backend. */
export const ISSUER: Record<Backend, string> = {
  account: 'tenant-app/account',
  tenant: 'tenant-app/tenant',
  admin: 'tenant-app/admin',
};
/** Audience claim per backend. */
export const AUDIENCE: Record<Backend, string> = {
  account: 'account-api',
  tenant: 'tenant-api',
  admin: 'admin-api',
};

/** The claims of a verified access token. */
export interface AccessClaims extends JWTPayload {
  sub: string;
  exp: number;
  iat: number;
  email?: string;
}

/** Why a presented access token was refused. */
export class AccessTokenError extends Error {
  constructor(readonly reason: 'invalid' | 'expired') {
    super(`access token ${reason}`);
  }
}

/** Signs an access token for a user; `now` is Unix seconds (tests pass it). */
export async function signAccessToken(
  backend: Backend,
  key: SigningKey,
  user: { id: number; email: string },
  ttlSeconds: number,
  now: number = Math.floor(Date.now() / 1000),
): Promise<{ token: string; claims: AccessClaims }> {
  const claims: AccessClaims = {
    sub: String(user.id),
    email: user.email,
    iss: ISSUER[backend],
    aud: AUDIENCE[backend],
    iat: now,
    exp: now + ttlSeconds,
  };
  const token = await new SignJWT(claims).setProtectedHeader({ alg: ALG, typ: TYP }).sign(key.privateKey);
  return { token, claims };
}

/** Verifies an access token of the given backend; throws AccessTokenError. */
export async function verifyAccessToken(
  backend: Backend,
  key: SigningKey,
  token: string,
): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: [ALG],
      issuer: ISSUER[backend],
      audience: AUDIENCE[backend],
      typ: TYP,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub)) throw new AccessTokenError('invalid');
    return payload as AccessClaims;
  } catch (err) {
    if (err instanceof AccessTokenError) throw err;
    if (err instanceof errors.JWTExpired) throw new AccessTokenError('expired');
    throw new AccessTokenError('invalid');
  }
}
