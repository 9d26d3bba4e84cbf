/** Every ServerErrorCode, for exhaustive checks and translation tests. */
export const SERVER_ERROR_CODES = [
  'invalid_credentials',
  'above_default_rights',
  'user_exists',
  'tenancy_user_exists',
  'email_in_admin_portal',
  'session_expired',
  'password_update_failed',
  'report_unavailable',
  'no_data',
  'invalid_user_response',
  'invalid_auth_response',
  'invalid_refresh_response',
  'invalid_login_response',
  'activation_code_invalid',
  'too_many_attempts',
  'wrong_password',
  'same_password',
  'last_admin',
  'social_login_failed',
  'login_required',
  'access_denied',
  'bad_input',
  'request_too_large',
  'not_found',
  'network',
  'server_error',
  'unknown',
] as const;

/** What went wrong, as the client shows it; each code has a message `errors.<code>` in the domain namespace. */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** The `extensions.code` values both backends use for expected failures. */
export type BackendErrorCode =
  | 'INVALID_CREDENTIALS'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_REVOKED'
  | 'NOT_FOUND'
  | 'QUERY_TOO_COMPLEX'
  | 'TOO_MANY_ATTEMPTS'
  | 'USER_EXISTS'
  | 'EMAIL_IN_ADMIN_PORTAL'
  | 'ABOVE_DEFAULT_RIGHTS'
  | 'TENANCY_USER_EXISTS'
  | 'ACTIVATION_CODE_INVALID'
  | 'PASSWORD_UPDATE_FAILED'
  | 'WRONG_PASSWORD'
  | 'SAME_PASSWORD'
  | 'LAST_ADMIN'
  | 'SOCIAL_LOGIN_FAILED'
  | 'INTERNAL_SERVER_ERROR';

const BY_EXTENSION_CODE: Record<BackendErrorCode, ServerErrorCode> = {
  INVALID_CREDENTIALS: 'invalid_credentials',
  UNAUTHENTICATED: 'login_required',
  FORBIDDEN: 'access_denied',
  BAD_USER_INPUT: 'bad_input',
  TOKEN_EXPIRED: 'session_expired',
  TOKEN_REVOKED: 'session_expired',
  NOT_FOUND: 'not_found',
  QUERY_TOO_COMPLEX: 'request_too_large',
  TOO_MANY_ATTEMPTS: 'too_many_attempts',
  USER_EXISTS: 'user_exists',
  EMAIL_IN_ADMIN_PORTAL: 'email_in_admin_portal',
  ABOVE_DEFAULT_RIGHTS: 'above_default_rights',
  TENANCY_USER_EXISTS: 'tenancy_user_exists',
  ACTIVATION_CODE_INVALID: 'activation_code_invalid',
  PASSWORD_UPDATE_FAILED: 'password_update_failed',
  WRONG_PASSWORD: 'wrong_password',
  SAME_PASSWORD: 'same_password',
  LAST_ADMIN: 'last_admin',
  SOCIAL_LOGIN_FAILED: 'social_login_failed',
  INTERNAL_SERVER_ERROR: 'server_error',
};

// SPEC §8 server and client texts, matched case-insensitively as substrings; the more specific come first.
const BY_MESSAGE: ReadonlyArray<readonly [string, ServerErrorCode]> = [
  ['please enter valid credentials', 'invalid_credentials'],
  ['above default rights', 'above_default_rights'],
  ['a user already exists with that email', 'user_exists'],
  ['a user already exists on the tenancy', 'tenancy_user_exists'],
  ['activation code already used', 'tenancy_user_exists'],
  ['already in use by the admin portal', 'email_in_admin_portal'],
  ['your log in expired', 'session_expired'],
  ['signature has expired', 'session_expired'],
  ['token expired', 'session_expired'],
  ['token is expired', 'session_expired'],
  ['password update failed', 'password_update_failed'],
  ['report is no longer available', 'report_unavailable'],
  ['data not yet available', 'no_data'],
  ['invalid user response', 'invalid_user_response'],
  ['invalid authentication response', 'invalid_auth_response'],
  ['invalid refreshtoken response', 'invalid_refresh_response'],
  ['invalid refreshaccesstoken response', 'invalid_refresh_response'],
  ['invalid login response', 'invalid_login_response'],
  ['activation code you entered is invalid', 'activation_code_invalid'],
  ['too many attempts', 'too_many_attempts'],
  ['adgang ikke tilladt', 'access_denied'],
  ['login required', 'login_required'],
  ['login_required', 'login_required'],
  ['failed to fetch', 'network'],
  ['fetch failed', 'network'],
  ['networkerror', 'network'],
  ['network request failed', 'network'],
];

interface ErrorShape {
  message?: unknown;
  name?: unknown;
  extensions?: { code?: unknown };
  response?: { errors?: unknown };
  errors?: unknown;
}

function isObject(x: unknown): x is ErrorShape {
  return typeof x === 'object' && x !== null;
}

// The first GraphQL error inside whatever was thrown: a graphql-request ClientError, an errors array, or itself.
function firstError(err: unknown): unknown {
  if (Array.isArray(err)) return err[0];
  if (isObject(err)) {
    const fromResponse = err.response?.errors;
    if (Array.isArray(fromResponse) && fromResponse.length > 0) return fromResponse[0];
    if (Array.isArray(err.errors) && err.errors.length > 0) return err.errors[0];
  }
  return err;
}

function codeFromMessage(text: string): ServerErrorCode | null {
  const lower = text.toLowerCase();
  for (const [needle, code] of BY_MESSAGE) if (lower.includes(needle)) return code;
  return null;
}

/** Maps anything a request can throw (GraphQL error, ClientError, Error, string) to a ServerErrorCode. */
export function serverErrorCode(err: unknown): ServerErrorCode {
  const first = firstError(err);
  if (typeof first === 'string') return codeFromMessage(first) ?? 'unknown';
  if (!isObject(first)) return 'unknown';
  // A known message is more specific than its extension code (BAD_USER_INPUT covers several SPEC §8 rows).
  for (const text of [first.message, first.name]) {
    if (typeof text === 'string') {
      const code = codeFromMessage(text);
      if (code) return code;
    }
  }
  const ext = first.extensions?.code;
  // Own keys only: `in` would also find 'constructor' and 'toString' on Object.prototype.
  if (typeof ext === 'string' && Object.hasOwn(BY_EXTENSION_CODE, ext)) {
    return BY_EXTENSION_CODE[ext as BackendErrorCode];
  }
  return 'unknown';
}

/** The minutes a TOO_MANY_ATTEMPTS error asks the caller to wait (extensions.retryAfterSeconds), at least 1. */
export function retryAfterMinutes(err: unknown): number {
  const first = firstError(err) as { extensions?: { retryAfterSeconds?: unknown } } | undefined;
  const seconds = isObject(first) ? first.extensions?.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && seconds > 0 ? Math.max(1, Math.ceil(seconds / 60)) : 1;
}

/** The i18n key (namespace domain) of the message for a code. */
export function errorMessageKey(code: ServerErrorCode): `errors.${ServerErrorCode}` {
  return `errors.${code}`;
}

/** SPEC §6/§8: these send the browser to the site root instead of showing a message. */
export function isLoginRequired(code: ServerErrorCode): boolean {
  return code === 'login_required' || code === 'access_denied';
}

/**
 * A server error's message from server-rendered templates (the plain-script pages): the throttle's wait in
 * minutes filled in, with the singular text for one minute.
 */
export function throttleAwareMessage(
  code: ServerErrorCode,
  err: unknown,
  messages: { errors: Partial<Record<ServerErrorCode, string>>; wait_one_minute?: string },
  fallback: string,
): string {
  const minutes = retryAfterMinutes(err);
  if (code === 'too_many_attempts' && minutes === 1 && messages.wait_one_minute)
    return messages.wait_one_minute;
  return (messages.errors[code] ?? fallback).replace('{{minutes}}', String(minutes));
}
