/** requestPasswordReset and passwordReset (account backend): the forgot-password flow. */
import { gql } from 'graphql-request';
import { requestWithToken } from '../graphql.ts';

export const requestPasswordResetDocument = gql`
  mutation RequestPasswordReset($email: String!) {
    requestPasswordReset(email: $email) {
      ok
    }
  }
`;

export const passwordResetDocument = gql`
  mutation PasswordReset($email: String!, $token: String!, $newPassword: String!) {
    passwordReset(email: $email, token: $token, newPassword: $newPassword) {
      ok
    }
  }
`;

/** Asks for a reset mail; the answer is the same whether or not the email exists. */
export async function requestPasswordReset(email: string): Promise<void> {
  await requestWithToken('account', requestPasswordResetDocument, { email }, null);
}

/** Sets a new password with the mailed token; throws "Password update failed" when it is refused. */
export async function passwordReset(email: string, token: string, newPassword: string): Promise<void> {
  const data = await requestWithToken<{ passwordReset: { ok: boolean } }>(
    'account',
    passwordResetDocument,
    { email, token, newPassword },
    null,
  );
  if (!data.passwordReset?.ok) throw new Error('Password update failed. Please try again.');
}
