/** The per-request context both backends share: database, config, logger, request id and the caller. */
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Backend, SigningKey } from '../auth/keys.ts';
import { type AccessClaims, AccessTokenError, verifyAccessToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { ApiServices } from '../services.ts';
import { accessTokenExpired, loginRequired } from './errors.ts';

/** Who is calling: a verified user id, or why there is none. */
export type Caller = { userId: number } | { userId: null; reason: 'missing' | 'invalid' | 'expired' };

export interface GraphQLContext {
  db: Db;
  services: ApiServices;
  logger: Logger;
  requestId: string;
  backend: Backend;
  caller: Caller;
  /** The client's IP address, for throttling; null when unknown (in-process calls). */
  clientAddress: string | null;
}

const clientAddresses = new WeakMap<Request, string>();

/** Records the socket's address of a request (the Astro route knows it; Yoga's Request does not). */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) clientAddresses.set(request, address);
}

function clientAddressOf(services: ApiServices, request: Request): string | null {
  if (services.config.TRUST_PROXY === '1') {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return clientAddresses.get(request) ?? null;
}

/**
 * The per-request user check as a prepared Drizzle query, built once per database: the SQL text is constant,
 * so building it on every request (Drizzle's query builder) is wasted work.
 */
const userChecks = new WeakMap<Db, ReturnType<typeof prepareUserCheck>>();
function prepareUserCheck(db: Db) {
  return db
    .select({ isActive: users.isActive, tokensValidAfter: users.tokensValidAfter })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('caller_still_valid');
}

/**
 * A valid signature is not enough: the user must still exist and be active (deactivation and deletion
 * take effect on the next request), and the token must be newer than their last password or email change.
 * Asked of the database on every request: never cached.
 */
async function checkStillValid(db: Db, userId: number, issuedAt: number): Promise<Caller> {
  let check = userChecks.get(db);
  if (!check) {
    check = prepareUserCheck(db);
    userChecks.set(db, check);
  }
  const [user] = await check.execute({ userId });
  if (!user?.isActive) return { userId: null, reason: 'invalid' };
  if (user.tokensValidAfter && issuedAt * 1000 < user.tokensValidAfter.getTime()) {
    return { userId: null, reason: 'expired' };
  }
  return { userId };
}

/** How many verified tokens are remembered per key; the oldest entry goes first when full. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;
const verifiedTokens = new WeakMap<SigningKey, Map<string, AccessClaims>>();

/**
 * The claims of a token whose signature and claims this process verified before, until the token expires:
 * an EdDSA verification costs more CPU than the rest of a small request's authentication. Only verified
 * tokens are remembered (a refused token is checked again each time), and the entry is dropped at `exp`,
 * after which the token is verified again and refused as expired. Whether the user may still use it
 * (active, not revoked by a password change) is not part of this: `checkStillValid` asks every time.
 */
async function verifiedClaims(backend: Backend, key: SigningKey, token: string): Promise<AccessClaims> {
  let cache = verifiedTokens.get(key);
  if (!cache) {
    cache = new Map();
    verifiedTokens.set(key, cache);
  }
  const known = cache.get(token);
  if (known && known.exp * 1000 > Date.now()) return known;
  if (known) cache.delete(token);
  const claims = await verifyAccessToken(backend, key, token);
  if (cache.size >= VERIFIED_TOKEN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(token, claims);
  return claims;
}

/** Reads the bearer token (also the legacy "JWT <token>" form) and verifies it with the backend's key. */
async function identifyCaller(services: ApiServices, backend: Backend, request: Request): Promise<Caller> {
  const header = request.headers.get('authorization');
  const match = header?.match(/^(?:Bearer|JWT)\s+(\S+)$/i);
  if (!header) return { userId: null, reason: 'missing' };
  if (!match?.[1]) return { userId: null, reason: 'invalid' };
  try {
    const claims = await verifiedClaims(backend, services.keys[backend], match[1]);
    return await checkStillValid(services.database.db, Number(claims.sub), claims.iat);
  } catch (err) {
    if (err instanceof AccessTokenError) return { userId: null, reason: err.reason };
    throw err;
  }
}

/** Builds the per-request context of one backend: shared services, the request id, and the verified caller. */
export function createContext(services: ApiServices, backend: Backend) {
  const logger = services.logger.child({ backend });
  return async (request: Request, requestId: string): Promise<GraphQLContext> => ({
    db: services.database.db,
    services,
    logger: logger.child({ requestId }),
    requestId,
    backend,
    caller: await identifyCaller(services, backend, request),
    clientAddress: clientAddressOf(services, request),
  });
}

/** The caller's user id; throws UNAUTHENTICATED ("login required"), or TOKEN_EXPIRED for an expired token. */
export function requireUserId(context: GraphQLContext): number {
  const { caller } = context;
  if (caller.userId !== null) return caller.userId;
  throw caller.reason === 'expired' ? accessTokenExpired() : loginRequired();
}

/** The caller's user id, or null when no token was sent; a bad or expired token is still an error. */
export function optionalUserId(context: GraphQLContext): number | null {
  if (context.caller.userId === null && context.caller.reason === 'missing') return null;
  return requireUserId(context);
}
