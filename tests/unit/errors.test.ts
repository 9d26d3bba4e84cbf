import { describe, expect, it } from 'vitest';
import {
  errorMessageKey,
  isLoginRequired,
  SERVER_ERROR_CODES,
  serverErrorCode,
} from '../../src/lib/errors.ts';

describe('serverErrorCode', () => {
  it.each([
    ['INVALID_CREDENTIALS', 'invalid_credentials'],
    ['UNAUTHENTICATED', 'login_required'],
    ['FORBIDDEN', 'access_denied'],
    ['BAD_USER_INPUT', 'bad_input'],
    ['TOKEN_EXPIRED', 'session_expired'],
    ['TOKEN_REVOKED', 'session_expired'],
    ['NOT_FOUND', 'not_found'],
    ['INTERNAL_SERVER_ERROR', 'server_error'],
  ])('maps extensions.code %s to %s', (code, expected) => {
    expect(serverErrorCode({ message: 'x', extensions: { code } })).toBe(expected);
  });

  it.each([
    ['Please enter valid credentials', 'invalid_credentials'],
    ['User already exists and has above default rights.', 'above_default_rights'],
    ['A user already exists with that email, but the password is not correct.', 'user_exists'],
    ['A user already exists on the tenancy', 'tenancy_user_exists'],
    ['Activation code already used', 'tenancy_user_exists'],
    ['Email is already in use by the admin portal', 'email_in_admin_portal'],
    ['Your log in expired. Please log in again.', 'session_expired'],
    ['Signature has expired', 'session_expired'],
    ['Password update failed', 'password_update_failed'],
    ['This report is no longer available', 'report_unavailable'],
    ['Data not yet available.', 'no_data'],
    ['Invalid user response', 'invalid_user_response'],
    ['Invalid authentication response', 'invalid_auth_response'],
    ['Invalid refreshToken response', 'invalid_refresh_response'],
    ['Invalid refreshAccessToken response', 'invalid_refresh_response'],
    ['Invalid login response', 'invalid_login_response'],
    ['The activation code you entered is invalid.', 'activation_code_invalid'],
    ['Adgang ikke tilladt', 'access_denied'],
    ['login required', 'login_required'],
    ['Login required', 'login_required'],
    ['Failed to fetch', 'network'],
    ['fetch failed', 'network'],
  ])('maps the message %j to %s', (message, expected) => {
    expect(serverErrorCode({ message })).toBe(expected);
    expect(serverErrorCode(new Error(message))).toBe(expected);
    expect(serverErrorCode(message)).toBe(expected);
  });

  it('prefers a known message over a generic extension code', () => {
    const err = {
      message: 'A user already exists with that email, but the password is not correct.',
      extensions: { code: 'BAD_USER_INPUT' },
    };
    expect(serverErrorCode(err)).toBe('user_exists');
  });

  it('reads the first error of a graphql-request ClientError and of an errors array', () => {
    const clientError = Object.assign(new Error('GraphQL Error (Code: 200)'), {
      response: { errors: [{ message: 'Please enter valid credentials' }, { message: 'login required' }] },
    });
    expect(serverErrorCode(clientError)).toBe('invalid_credentials');
    expect(serverErrorCode([{ message: 'x', extensions: { code: 'TOKEN_EXPIRED' } }])).toBe(
      'session_expired',
    );
    expect(serverErrorCode({ errors: [{ message: 'Adgang ikke tilladt' }] })).toBe('access_denied');
  });

  it('reads a rejection whose name is the first server error message (SPEC §8)', () => {
    expect(serverErrorCode({ name: 'Data not yet available.' })).toBe('no_data');
  });

  it.each([
    [null],
    [undefined],
    [42],
    [{}],
    [''],
    ['something odd'],
    [{ extensions: { code: 'TEAPOT' } }],
    [{ message: 'x', extensions: { code: 'constructor' } }],
    [{ message: 'x', extensions: { code: 'toString' } }],
    [[]],
  ])('gives unknown for %j', (err) => {
    expect(serverErrorCode(err)).toBe('unknown');
  });
});

describe('errorMessageKey and isLoginRequired', () => {
  it('keys every code under errors.*', () => {
    for (const code of SERVER_ERROR_CODES) expect(errorMessageKey(code)).toBe(`errors.${code}`);
  });

  it('sends only login-required and access-denied to the site root', () => {
    expect(SERVER_ERROR_CODES.filter(isLoginRequired)).toEqual(['login_required', 'access_denied']);
  });
});
