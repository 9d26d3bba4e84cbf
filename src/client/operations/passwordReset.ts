/** requestPasswordReset and passwordReset (account backend): the forgot-password flow. */
import {
  PasswordResetDocument as passwordResetDocument,
  RequestPasswordResetDocument as requestPasswordResetDocument,
} from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';

/** Asks for a reset mail; the answer is the same whether or not the email exists. */
export async function requestPasswordReset(email: string): Promise<void> {
  await requestWithToken('account', requestPasswordResetDocument, { email }, null);
}

/** Sets a new password with the mailed token; throws "Password update failed" when it is refused. */
export async function passwordReset(email: string, token: string, newPassword: string): Promise<void> {
  const data = await requestWithToken('account', passwordResetDocument, { email, token, newPassword }, null);
  if (!data.passwordReset?.ok) throw new Error('Password update failed. Please try again.');
}
