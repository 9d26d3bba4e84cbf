/** The account flows' expected failures, with the exact SPEC §8 server texts the client matches. */
import { createGraphQLError } from 'graphql-yoga';
import { apiError } from '../graphql/errors.ts';

/** SPEC §8: signup with an existing email and a wrong password. */
export const userExists = () =>
  apiError('USER_EXISTS', 'A user already exists with that email, but the password is not correct.');
/** SPEC §8: the email belongs to an admin-portal user. */
export const emailInAdminPortal = () =>
  apiError('EMAIL_IN_ADMIN_PORTAL', 'Email is already in use by the admin portal');
/** SPEC §6/§8: a user with above-default rights may not sign in through the tenant app's other ways. */
export const aboveDefaultRights = () =>
  apiError('ABOVE_DEFAULT_RIGHTS', 'User already exists and has above default rights.');
/** SPEC §8: the activation code was used already (someone is on the tenancy with it). */
export const tenancyUserExists = () =>
  apiError('TENANCY_USER_EXISTS', 'A user already exists on the tenancy');
/** SPEC §5: unknown, expired or malformed activation code. */
export const activationCodeInvalid = () =>
  apiError('ACTIVATION_CODE_INVALID', 'The activation code you entered is invalid.');
/** SPEC §8: a reset (or email-change) link that is unknown, used or expired. */
export const passwordUpdateFailed = () =>
  apiError('PASSWORD_UPDATE_FAILED', 'Password update failed. Please try again.');
/** The current password given to a profile action is wrong (not INVALID_CREDENTIALS: that logs out). */
export const wrongPassword = () => apiError('WRONG_PASSWORD', 'The password is not correct.');
/** A password change to the password the account already has. */
export const samePassword = () =>
  apiError('SAME_PASSWORD', 'The new password is the same as the current one.');
/** The last admin of a tenancy with other members may not leave, be removed or lose the flag. */
export const lastAdmin = () =>
  apiError('LAST_ADMIN', 'A tenancy needs at least one admin. Make another user admin first.');
/** A social ID token that does not verify, or a provider that is not configured. */
export const socialLoginFailed = (why: string) =>
  apiError('SOCIAL_LOGIN_FAILED', `Social login failed: ${why}`);

/** Throttled: "too many attempts, try again in N minutes", with the wait in extensions. */
export function tooManyAttempts(msBeforeNext: number) {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return createGraphQLError(`Too many attempts. Try again in ${minutes} minutes.`, {
    extensions: { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: seconds },
  });
}
