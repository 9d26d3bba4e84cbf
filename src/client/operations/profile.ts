/** Profile mutations (account backend): language and notifications, password, email, leaving, deletion. */
import {
  ChangePasswordDocument as changePasswordDocument,
  ConfirmEmailChangeDocument as confirmEmailChangeDocument,
  DeleteAccountDocument as deleteAccountDocument,
  LeaveTenancyDocument as leaveTenancyDocument,
  RequestEmailChangeDocument as requestEmailChangeDocument,
  UpdateProfileDocument as updateProfileDocument,
} from '../gql/account.ts';
import { authorizedRequest, requestWithToken } from '../graphql.ts';

/** Saves language and/or the email-notification choice. */
export function updateProfile(vars: { language?: string; emailNotifications?: boolean }) {
  return authorizedRequest('account', updateProfileDocument, vars);
}
/** Changes the password; every session ends, so the caller logs in again with the new one. */
export function changePassword(currentPassword: string, newPassword: string) {
  return authorizedRequest('account', changePasswordDocument, { currentPassword, newPassword });
}
/** Mails a confirmation link to the new address. */
export function requestEmailChange(password: string, newEmail: string) {
  return authorizedRequest('account', requestEmailChangeDocument, { password, newEmail });
}
/** Confirms an email change with the mailed token (no session needed). */
export function confirmEmailChange(token: string) {
  return requestWithToken('account', confirmEmailChangeDocument, { token }, null);
}
/** Leaves a tenancy. */
export function leaveTenancy(tenancyId: string) {
  return authorizedRequest('account', leaveTenancyDocument, { tenancyId });
}
/** Deletes the account (irreversible). */
export function deleteAccount(password: string | null, confirmation: string) {
  return authorizedRequest('account', deleteAccountDocument, { password, confirmation });
}
