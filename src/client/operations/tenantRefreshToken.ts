/** refreshToken (tenant backend): a new access token and a rotated refresh token. */
import { gql } from 'graphql-request';
import type { BackendTokens } from '../../machines/session.machine.ts';
import { requestWithToken } from '../graphql.ts';
import { parseAccessToken } from '../storage.ts';

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

type RefreshResult = { refreshToken: { ok: { token: string; refreshToken: string } | null } };

/** Refreshes the tenant tokens; SPEC §8 "Invalid refreshAccessToken response" when there is no ok. */
export async function refreshTenantToken(refreshToken: string): Promise<BackendTokens> {
  const data = await requestWithToken<RefreshResult>(
    'tenant',
    tenantRefreshTokenDocument,
    { refreshToken },
    null,
  );
  const ok = data.refreshToken.ok;
  const access = parseAccessToken(ok?.token, Date.now());
  if (!ok || !access) throw new Error('Invalid refreshAccessToken response');
  return { access, refreshToken: ok.refreshToken, refreshExpiresAt: null };
}
