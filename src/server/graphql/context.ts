/** The per-request context both backends share: database, config, logger, request id and the caller. */
import { eq, sql } from 'drizzle-orm';
import { type DocumentNode, getOperationAST, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Backend, SigningKey } from '../auth/keys.ts';
import { type AccessClaims, AccessTokenError, verifyAccessToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { ApiServices } from '../services.ts';
import { accessTokenExpired, loginRequired } from './errors.ts';

/**
 * Who is calling: a verified user id, or why there is none. `unchecked`: the token is verified, but whether its
 * user may still use it is not asked yet (`callerCheckPlugin` asks before execution, or leaves it to the
 * resolver of a field that asks in its own statement: `tokenToCheck`).
 */
export type Caller =
  | { userId: number }
  | { userId: null; reason: 'missing' | 'invalid' | 'expired' | 'unchecked' };

/** A verified token's user and issue time (seconds), before the check that the user may still use it. */
export interface TokenClaim {
  userId: number;
  issuedAt: number;
}

export interface GraphQLContext {
  db: Db;
  services: ApiServices;
  logger: Logger;
  requestId: string;
  backend: Backend;
  caller: Caller;
  /** Set while `caller` is `unchecked`: the verified token to check. */
  unchecked: TokenClaim | null;
  /** The client's IP address, for throttling; null when unknown (in-process calls). */
  clientAddress: string | null;
}

const clientAddresses = new WeakMap<Request, string>();

/** Records the socket's address of a request (the Astro route knows it; Yoga's Request does not). */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) clientAddresses.set(request, address);
}

/**
 * The client's address behind `trustedProxies` proxies: the X-Forwarded-For entry the outermost trusted proxy
 * appended (the N-th from the right), never one the client wrote itself (issue 24: rotating the first entry
 * dodged every per-address throttle). With no trusted proxy, or a header shorter than the chain, the socket's.
 */
export function clientAddressFrom(
  trustedProxies: number,
  forwardedFor: string | null | undefined,
  socketAddress: string | null | undefined,
): string | null {
  if (trustedProxies > 0 && forwardedFor) {
    const hops = forwardedFor.split(',').map((h) => h.trim());
    const hop = hops.length >= trustedProxies ? hops[hops.length - trustedProxies] : undefined;
    if (hop) return hop.slice(0, 64);
  }
  return socketAddress || null;
}

function clientAddressOf(services: ApiServices, request: Request): string | null {
  return clientAddressFrom(
    services.config.TRUST_PROXY,
    request.headers.get('x-forwarded-for'),
    clientAddresses.get(request),
  );
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

/** The columns of a user that say whether their tokens are still good. */
export interface TokenUser {
  isActive: boolean;
  tokensValidAfter: Date | null;
}

/**
 * A valid signature is not enough: the user must still exist (`user` undefined when not) and be active
 * (deactivation and deletion take effect on the next request), and the token must be newer than their last
 * password or email change.
 */
export function judgeToken(user: TokenUser | undefined, claim: TokenClaim): Caller {
  if (!user?.isActive) return { userId: null, reason: 'invalid' };
  if (user.tokensValidAfter && claim.issuedAt * 1000 < user.tokensValidAfter.getTime()) {
    return { userId: null, reason: 'expired' };
  }
  return { userId: claim.userId };
}

/** `judgeToken`, asked of the database on every request: never cached. */
async function checkStillValid(db: Db, claim: TokenClaim): Promise<Caller> {
  let check = userChecks.get(db);
  if (!check) {
    check = prepareUserCheck(db);
    userChecks.set(db, check);
  }
  const [user] = await check.execute({ userId: claim.userId });
  return judgeToken(user, claim);
}

/** How many verified tokens are remembered per key; the oldest entry goes first when full. */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;
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

/**
 * Reads the bearer token (also the legacy "JWT <token>" form) and verifies it with the backend's key: the
 * token's claim, or why there is no caller.
 */
async function identifyCaller(
  services: ApiServices,
  backend: Backend,
  request: Request,
): Promise<TokenClaim | Caller> {
  const header = request.headers.get('authorization');
  const match = header?.match(/^(?:Bearer|JWT)\s+(\S+)$/i);
  if (!header) return { userId: null, reason: 'missing' };
  if (!match?.[1]) return { userId: null, reason: 'invalid' };
  try {
    const claims = await verifiedClaims(backend, services.keys[backend], match[1]);
    return { userId: Number(claims.sub), issuedAt: claims.iat };
  } catch (err) {
    if (err instanceof AccessTokenError) return { userId: null, reason: err.reason };
    throw err;
  }
}

/**
 * The caller of a request served outside GraphQL (the statement PDF route), checked exactly as the backends
 * check theirs: the token's signature and claims, then `judgeToken` against the database (active user, token
 * newer than the last password or email change).
 */
export async function authenticateRequest(
  services: ApiServices,
  backend: Backend,
  request: Request,
): Promise<Caller> {
  const identified = await identifyCaller(services, backend, request);
  return 'issuedAt' in identified ? checkStillValid(services.database.db, identified) : identified;
}

/**
 * Builds the per-request context of one backend: shared services, the request id, and the caller, whose
 * token is verified here and checked against the database by `callerCheckPlugin`.
 */
export function createContext(services: ApiServices, backend: Backend) {
  const logger = services.logger.child({ backend });
  return async (request: Request, requestId: string): Promise<GraphQLContext> => {
    const identified = await identifyCaller(services, backend, request);
    const unchecked = 'issuedAt' in identified ? identified : null;
    return {
      db: services.database.db,
      services,
      logger: logger.child({ requestId }),
      requestId,
      backend,
      caller: unchecked ? { userId: null, reason: 'unchecked' } : (identified as Caller),
      unchecked,
      clientAddress: clientAddressOf(services, request),
    };
  };
}

/**
 * Whether an operation asks only for fields that check the caller in their own first statement (`deferred`),
 * besides `__typename`: a query whose top-level selections are all plain fields (no fragments).
 */
export function onlyDeferredFields(
  document: DocumentNode,
  operationName: string | null | undefined,
  deferred: ReadonlySet<string>,
): boolean {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query') return false;
  const fields = operation.selectionSet.selections;
  return (
    fields.every(
      (f) => f.kind === Kind.FIELD && (deferred.has(f.name.value) || f.name.value === '__typename'),
    ) && fields.some((f) => f.kind === Kind.FIELD && deferred.has(f.name.value))
  );
}

/**
 * Checks the caller's verified token against the database before execution (`judgeToken`: the user exists,
 * is active, and the token is newer than their last password or email change), on every request. An
 * operation of only `deferred` fields skips this statement: each of those fields' resolvers asks the same in
 * the statement that reads the caller's tenancies (`tokenToCheck`), one round trip fewer.
 */
export function callerCheckPlugin(deferred: readonly string[]): Plugin<GraphQLContext> {
  const deferredSet = new Set(deferred);
  return {
    async onExecute({ args }) {
      const context = args.contextValue as GraphQLContext;
      const claim = context.unchecked;
      if (!claim) return;
      if (deferredSet.size > 0 && onlyDeferredFields(args.document, args.operationName, deferredSet)) return;
      context.caller = await checkStillValid(context.db, claim);
      context.unchecked = null;
    },
  };
}

/** The error of a caller without a usable token: UNAUTHENTICATED, or TOKEN_EXPIRED for an expired token. */
function callerError(caller: Caller & { userId: null }): Error {
  // A resolver that reads the caller before callerCheckPlugin checked it would trust an unchecked token:
  // that is a bug, refused as an unexpected error.
  if (caller.reason === 'unchecked') return new Error('the caller was read before it was checked');
  return caller.reason === 'expired' ? accessTokenExpired() : loginRequired();
}

/** The caller's user id; throws UNAUTHENTICATED ("login required"), or TOKEN_EXPIRED for an expired token. */
export function requireUserId(context: GraphQLContext): number {
  const { caller } = context;
  if (caller.userId !== null) return caller.userId;
  throw callerError(caller);
}

/**
 * For a resolver whose first statement checks the caller itself (with the tenancies it reads): the token to
 * check, or null when callerCheckPlugin has checked it already. Throws as requireUserId without a usable token.
 * The resolver must pass what the statement found to `requireValidToken` before it uses anything else.
 */
export function tokenToCheck(context: GraphQLContext): { userId: number; claim: TokenClaim | null } {
  if (context.unchecked) return { userId: context.unchecked.userId, claim: context.unchecked };
  return { userId: requireUserId(context), claim: null };
}

/** Throws as requireUserId unless the user row found with `tokenToCheck`'s claim accepts the token. */
export function requireValidToken(user: TokenUser | undefined, claim: TokenClaim | null): void {
  if (!claim) return;
  const caller = judgeToken(user, claim);
  if (caller.userId === null) throw callerError(caller);
}

/** The caller's user id, or null when no token was sent; a bad or expired token is still an error. */
export function optionalUserId(context: GraphQLContext): number | null {
  if (context.caller.userId === null && context.caller.reason === 'missing') return null;
  return requireUserId(context);
}

/**
 * The handle for the tenant backend's data reads that may be up to DATABASE_REPLICA_MAX_LAG_MS old (graphs, KPIs,
 * tables): the read replica's while it is fresh enough (db/replica.ts), else the primary's. Never for token checks,
 * the caller's access, or anything read to write.
 */
export function readDbOf(context: GraphQLContext): Db {
  return context.services.replica?.readDb() ?? context.db;
}
