/** createEmailPasswordUser (account backend): signup; the answer's token can add the pending code at once. */
import { gql } from 'graphql-request';
import { requestWithToken } from '../graphql.ts';

export const createEmailPasswordUserDocument = gql`
  mutation CreateEmailPasswordUser($email: String!, $password: String!, $language: String) {
    createEmailPasswordUser(email: $email, password: $password, language: $language) {
      token
      refreshToken
      user {
        id
      }
    }
  }
`;

/** Creates the user (or signs an existing one in with the right password); returns the account access token. */
export async function createEmailPasswordUser(
  email: string,
  password: string,
  language: string,
): Promise<string> {
  const data = await requestWithToken<{ createEmailPasswordUser: { token: string } | null }>(
    'account',
    createEmailPasswordUserDocument,
    { email, password, language },
    null,
  );
  if (!data.createEmailPasswordUser?.token) throw new Error('Invalid authentication response');
  return data.createEmailPasswordUser.token;
}
