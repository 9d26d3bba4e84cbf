/** The per-request context both backends share: database, config, logger, request id and the caller. */
import type { Logger } from 'pino';
import type { Backend } from '../auth/keys.ts';
import { AccessTokenError, verifyAccessToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
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
}

/** Reads the bearer token (also the legacy "JWT <token>" form) and verifies it with the backend's key. */
async function identifyCaller(services: ApiServices, backend: Backend, request: Request): Promise<Caller> {
  const header = request.headers.get('authorization');
  const match = header?.match(/^(?:Bearer|JWT)\s+(\S+)$/i);
  if (!header) return { userId: null, reason: 'missing' };
  if (!match?.[1]) return { userId: null, reason: 'invalid' };
  try {
    const claims = await verifyAccessToken(backend, services.keys[backend], match[1]);
    return { userId: Number(claims.sub) };
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
