/** refreshToken (account backend): a new access token and a rotated refresh token. */

import type { BackendTokens } from '../../machines/session.machine.ts';
import { RefreshTokenDocument } from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';
import { tokensFromAnswer } from '../storage.ts';

/** Refreshes the account tokens; SPEC §8 "Invalid refreshToken response" on an empty answer. */
export async function refreshAccountToken(refreshToken: string): Promise<BackendTokens> {
  const data = await requestWithToken(
    'account',
    RefreshTokenDocument,
    { refreshToken, authType: 'email' },
    null,
  );
  const tokens = tokensFromAnswer(data.refreshToken, Date.now());
  if (!tokens) throw new Error('Invalid refreshToken response');
  return tokens;
}
