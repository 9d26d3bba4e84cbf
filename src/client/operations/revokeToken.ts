/** revokeToken (account backend): ends a refresh token's family at logout. */
import { RevokeTokenDocument } from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';

/** Revokes an account refresh token. */
export async function revokeToken(refreshToken: string): Promise<void> {
  await requestWithToken('account', RevokeTokenDocument, { refreshToken }, null);
}
