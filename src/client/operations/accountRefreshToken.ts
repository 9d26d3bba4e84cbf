/** refreshToken (account backend): a new access token and a rotated refresh token. */
import { gql } from 'graphql-request';
import type { BackendTokens } from '../../machines/session.machine.ts';
import { requestWithToken } from '../graphql.ts';
import { type TokenAnswer, tokensFromAnswer } from '../storage.ts';

export const accountRefreshTokenDocument = gql`
  mutation RefreshToken($refreshToken: String!, $authType: String) {
    refreshToken(refreshToken: $refreshToken, authType: $authType) {
      payload
      refreshExpiresIn
      token
      refreshToken
    }
  }
`;

type RefreshResult = { refreshToken: Required<TokenAnswer> | null };

/** Refreshes the account tokens; SPEC §8 "Invalid refreshToken response" on an empty answer. */
export async function refreshAccountToken(refreshToken: string): Promise<BackendTokens> {
  const data = await requestWithToken<RefreshResult>(
    'account',
    accountRefreshTokenDocument,
    { refreshToken, authType: 'email' },
    null,
  );
  const tokens = tokensFromAnswer(data.refreshToken, Date.now());
  if (!tokens) throw new Error('Invalid refreshToken response');
  return tokens;
}
