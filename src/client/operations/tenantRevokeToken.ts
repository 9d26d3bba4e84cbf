/** revokeToken (tenant backend): logout ends this backend's refresh token too. */
import { gql } from 'graphql-request';
import { requestWithToken } from '../graphql.ts';

export const tenantRevokeTokenDocument = gql`
  mutation TenantRevokeToken($refreshToken: String!) {
    revokeToken(refreshToken: $refreshToken) {
      revoked
    }
  }
`;

/** Revokes a tenant refresh token. */
export async function revokeTenantToken(refreshToken: string): Promise<void> {
  await requestWithToken('tenant', tenantRevokeTokenDocument, { refreshToken }, null);
}
