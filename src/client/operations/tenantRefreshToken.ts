/** refreshToken (tenant backend): a new access token and a rotated refresh token. */

import type { BackendTokens } from '../../machines/session.machine.ts';
import { TenantRefreshTokenDocument } from '../gql/tenant.ts';
import { requestWithToken } from '../graphql.ts';
import { tokensFromAnswer } from '../storage.ts';

/** Refreshes the tenant tokens; SPEC §8 "Invalid refreshAccessToken response" when there is no ok. */
export async function refreshTenantToken(refreshToken: string): Promise<BackendTokens> {
  const data = await requestWithToken('tenant', TenantRefreshTokenDocument, { refreshToken }, null);
  const tokens = tokensFromAnswer(data.refreshToken.ok, Date.now());
  if (!tokens) throw new Error('Invalid refreshAccessToken response');
  return tokens;
}
