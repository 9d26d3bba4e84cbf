/** The operator console's own expected failures (the shared ones come from graphql/errors.ts). */
import { createGraphQLError } from 'graphql-yoga';

/** The `extensions.code` values only the admin backend uses; the console maps each to an admin.json text. */
export type AdminErrorCode =
  | 'SECOND_FACTOR_INVALID'
  | 'CHALLENGE_EXPIRED'
  | 'EMAIL_IN_TENANT_APP'
  | 'OPERATOR_EXISTS'
  | 'ORG_ADMIN_ONLY'
  | 'LAST_ORG_ADMIN';

function adminError(code: AdminErrorCode, message: string) {
  return createGraphQLError(message, { extensions: { code } });
}

/** A wrong or reused TOTP code, or an unknown recovery code. */
export const secondFactorInvalid = () => adminError('SECOND_FACTOR_INVALID', 'The code is not correct.');
/** The login challenge is unknown, used or older than 5 minutes: log in again. */
export const challengeExpired = () =>
  adminError('CHALLENGE_EXPIRED', 'The login has expired. Please log in again.');
/** SPEC §8 the other way round: a tenant app user's email cannot become an operator. */
export const emailInTenantApp = () =>
  adminError('EMAIL_IN_TENANT_APP', 'Email is already in use by the Tenant App');
export const operatorExists = () =>
  adminError('OPERATOR_EXISTS', 'An operator with that email exists already');
/** Operator management is for organisation admins. */
export const orgAdminOnly = () => adminError('ORG_ADMIN_ONLY', 'Only an organisation admin may do this');
/** An organisation keeps at least one active organisation admin. */
export const lastOrgAdmin = () =>
  adminError('LAST_ORG_ADMIN', 'An organisation needs at least one active organisation admin');
