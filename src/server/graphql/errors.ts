/**
 * Expected failures, as GraphQL errors with an `extensions.code` that the client maps to SPEC §8's messages.
 * Anything else thrown in a resolver is masked by Yoga ("Unexpected error.") and logged with the request id.
 */
import { createGraphQLError } from 'graphql-yoga';
import { z } from 'zod';
import type { BackendErrorCode } from '../../lib/errors.ts';

/** The codes resolvers throw; the client's mapping (src/lib/errors.ts) covers each of them. */
export type ErrorCode = Exclude<BackendErrorCode, 'INTERNAL_SERVER_ERROR'>;

/** SPEC §8: the server message for any login mismatch. */
const INVALID_CREDENTIALS_MESSAGE = 'Please enter valid credentials';
/** SPEC §8: the server message that sends the browser to the site root. */
const LOGIN_REQUIRED_MESSAGE = 'login required';
/** SPEC §8: the other message that sends the browser to the site root ("access not allowed"). */
const FORBIDDEN_MESSAGE = 'Adgang ikke tilladt';
/**
 * An expired access token. Not "login required": the client matches messages before codes, and this one
 * must read as an expired session, so that it refreshes the token and retries instead of logging out.
 */
const ACCESS_TOKEN_EXPIRED_MESSAGE = 'Signature has expired';

/** Builds an expected (unmasked) error with a code. */
export function apiError(code: ErrorCode, message: string) {
  return createGraphQLError(message, { extensions: { code } });
}

/** Wrong email or password (same message for both, so emails cannot be probed). */
export const invalidCredentials = () => apiError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
/** No valid access token. */
export const loginRequired = () => apiError('UNAUTHENTICATED', LOGIN_REQUIRED_MESSAGE);
/** An access token that was valid but has expired; the client refreshes it and retries. */
export const accessTokenExpired = () => apiError('TOKEN_EXPIRED', ACCESS_TOKEN_EXPIRED_MESSAGE);
/** The caller may not see this object; also used for ids that do not exist, so ids cannot be probed. */
export const forbidden = () => apiError('FORBIDDEN', FORBIDDEN_MESSAGE);
/**
 * An alarm or notification id that is not one of the caller's own on a tenancy they belong to: unknown, deleted,
 * malformed or someone else's all get this same answer, so nothing leaks. Unlike FORBIDDEN it does not end the
 * session (SPEC §6 sends access_denied to login; a bookmarked link to a deleted alarm should not log out).
 */
export const notFound = (what: string) => apiError('NOT_FOUND', `No such ${what}`);
/** Bad input with a readable reason. */
export const badInput = (message: string) => apiError('BAD_USER_INPUT', message);

/** Text input without null bytes (PostgreSQL cannot store or compare one): refused as BAD_USER_INPUT. */
export const plainText = z.string().refine((text) => !text.includes('\0'), 'must not contain a null byte');

/** Parses input with zod; a failure becomes one BAD_USER_INPUT error listing every problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) =>
    i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message,
  );
  throw badInput(`Invalid input: ${problems.join('; ')}`);
}
