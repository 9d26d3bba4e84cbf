/** revokeToken (tenant backend): logout ends this backend's refresh token too. */
import { TenantRevokeTokenDocument as tenantRevokeTokenDocument } from '../gql/tenant.ts';
import { requestWithToken } from '../graphql.ts';

/** Revokes a tenant refresh token. */
export async function revokeTenantToken(refreshToken: string): Promise<void> {
  await requestWithToken('tenant', tenantRevokeTokenDocument, { refreshToken }, null);
}
