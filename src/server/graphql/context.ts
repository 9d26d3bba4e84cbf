/** The per-request context both backends share: database, config, logger, request id and the caller. */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Backend } from '../auth/keys.ts';
import { AccessTokenError, verifyAccessToken } from '../auth/tokens.ts';
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
 * A valid signature is not enough: the user must still exist and be active (deactivation and deletion
 * take effect on the next request), and the token must be newer than their last password or email change.
 */
async function checkStillValid(db: Db, userId: number, issuedAt: number): Promise<Caller> {
  const [user] = await db
    .select({ isActive: users.isActive, tokensValidAfter: users.tokensValidAfter })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.isActive) return { userId: null, reason: 'invalid' };
  if (user.tokensValidAfter && issuedAt * 1000 < user.tokensValidAfter.getTime()) {
    return { userId: null, reason: 'expired' };
  }
  return { userId };
}

/** Reads the bearer token (also the legacy "JWT <token>" form) and verifies it with the backend's key. */
async function identifyCaller(services: ApiServices, backend: Backend, request: Request): Promise<Caller> {
  const header = request.headers.get('authorization');
  const match = header?.match(/^(?:Bearer|JWT)\s+(\S+)$/i);
  if (!header) return { userId: null, reason: 'missing' };
  if (!match?.[1]) return { userId: null, reason: 'invalid' };
  try {
    const claims = await verifyAccessToken(backend, services.keys[backend], match[1]);
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
