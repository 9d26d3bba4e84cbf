/** Profile mutations (account backend): language and notifications, password, email, leaving, deletion. */
import { gql } from 'graphql-request';
import { authorizedRequest, requestWithToken } from '../graphql.ts';

export const updateProfileDocument = gql`
  mutation UpdateProfile($language: String, $emailNotifications: Boolean) {
    updateProfile(language: $language, emailNotifications: $emailNotifications) {
      language
      emailNotifications
    }
  }
`;
export const changePasswordDocument = gql`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {
      token
    }
  }
`;
export const requestEmailChangeDocument = gql`
  mutation RequestEmailChange($password: String!, $newEmail: String!) {
    requestEmailChange(password: $password, newEmail: $newEmail) {
      ok
    }
  }
`;
export const confirmEmailChangeDocument = gql`
  mutation ConfirmEmailChange($token: String!) {
    confirmEmailChange(token: $token) {
      ok
    }
  }
`;
export const leaveTenancyDocument = gql`
  mutation LeaveTenancy($tenancyId: ID!) {
    leaveTenancy(tenancyId: $tenancyId) {
      ok
    }
  }
`;
export const deleteAccountDocument = gql`
  mutation DeleteAccount($password: String, $confirmation: String!) {
    deleteAccount(password: $password, confirmation: $confirmation) {
      ok
    }
  }
`;

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
