/** revokeToken (account backend): ends a refresh token's family at logout. */
import { gql } from 'graphql-request';
import { requestWithToken } from '../graphql.ts';

export const revokeTokenDocument = gql`
  mutation RevokeToken($refreshToken: String!) {
    revokeToken(refreshToken: $refreshToken) {
      revoked
    }
  }
`;

/** Revokes an account refresh token. */
export async function revokeToken(refreshToken: string): Promise<void> {
  await requestWithToken('account', revokeTokenDocument, { refreshToken }, null);
}
