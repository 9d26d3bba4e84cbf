/** refreshToken (tenant backend): a new access token and a rotated refresh token. */
import { gql } from 'graphql-request';
import type { BackendTokens } from '../../machines/session.machine.ts';
import { requestWithToken } from '../graphql.ts';
import { type TokenAnswer, tokensFromAnswer } from '../storage.ts';

export const tenantRefreshTokenDocument = gql`
  mutation TenantRefreshToken($refreshToken: String!) {
    refreshToken(refreshToken: $refreshToken) {
      ok {
        token
        refreshToken
      }
    }
  }
`;

type RefreshResult = { refreshToken: { ok: TokenAnswer | null } };

/** Refreshes the tenant tokens; SPEC §8 "Invalid refreshAccessToken response" when there is no ok. */
export async function refreshTenantToken(refreshToken: string): Promise<BackendTokens> {
  const data = await requestWithToken<RefreshResult>(
    'tenant',
    tenantRefreshTokenDocument,
    { refreshToken },
    null,
  );
  const tokens = tokensFromAnswer(data.refreshToken.ok, Date.now());
  if (!tokens) throw new Error('Invalid refreshAccessToken response');
  return tokens;
}
