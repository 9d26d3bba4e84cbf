/**
 * Expected failures, as GraphQL errors with an `extensions.code` that the client maps to SPEC §8's messages.
 * Anything else thrown in a resolver is masked by Yoga ("Unexpected error.") and logged with the request id.
 */
import { createGraphQLError } from 'graphql-yoga';
import type { z } from 'zod';

/** The error codes both backends use. */
export type ErrorCode =
  | 'INVALID_CREDENTIALS'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_REVOKED'
  | 'NOT_FOUND';

/** SPEC §8: the server message for any login mismatch. */
export const INVALID_CREDENTIALS_MESSAGE = 'Please enter valid credentials';
/** SPEC §8: the server message that sends the browser to the site root. */
export const LOGIN_REQUIRED_MESSAGE = 'login required';
/** SPEC §8: the other message that sends the browser to the site root ("access not allowed"). */
export const FORBIDDEN_MESSAGE = 'Adgang ikke tilladt';

/** Builds an expected (unmasked) error with a code. */
export function apiError(code: ErrorCode, message: string) {
  return createGraphQLError(message, { extensions: { code } });
}

/** Wrong email or password (same message for both, so emails cannot be probed). */
export const invalidCredentials = () => apiError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
/** No valid access token. */
export const loginRequired = () => apiError('UNAUTHENTICATED', LOGIN_REQUIRED_MESSAGE);
/** An access token that was valid but has expired. */
export const accessTokenExpired = () => apiError('TOKEN_EXPIRED', LOGIN_REQUIRED_MESSAGE);
/** The caller may not see this object; also used for ids that do not exist, so ids cannot be probed. */
export const forbidden = () => apiError('FORBIDDEN', FORBIDDEN_MESSAGE);
/** Bad input with a readable reason. */
export const badInput = (message: string) => apiError('BAD_USER_INPUT', message);

/** Parses input with zod; a failure becomes one BAD_USER_INPUT error listing every problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) =>
    i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message,
  );
  throw badInput(`Invalid input: ${problems.join('; ')}`);
}
