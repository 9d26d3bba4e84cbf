/** tokenAuth (account backend): email and password login. */
import { gql } from 'graphql-request';
import type { BackendTokens } from '../../machines/session.machine.ts';
import { requestWithToken } from '../graphql.ts';
import { type TokenAnswer, tokensFromAnswer } from '../storage.ts';

export const tokenAuthDocument = gql`
  mutation TokenAuth($email: String!, $password: String!) {
    tokenAuth(email: $email, password: $password) {
      payload
      refreshExpiresIn
      token
      refreshToken
    }
  }
`;

type TokenAuthResult = { tokenAuth: Required<TokenAnswer> | null };

/** Logs in to the account backend; throws SPEC §8 "Invalid authentication response" on an empty answer. */
export async function tokenAuth(email: string, password: string): Promise<BackendTokens> {
  const data = await requestWithToken<TokenAuthResult>(
    'account',
    tokenAuthDocument,
    { email, password },
    null,
  );
  const tokens = tokensFromAnswer(data.tokenAuth, Date.now());
  if (!tokens) throw new Error('Invalid authentication response');
  return tokens;
}
