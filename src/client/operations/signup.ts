/** createEmailPasswordUser (account backend): signup; the answer's token can add the pending code at once. */
import { CreateEmailPasswordUserDocument as createEmailPasswordUserDocument } from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';

/** Creates the user (or signs an existing one in with the right password); returns the account access token. */
export async function createEmailPasswordUser(
  email: string,
  password: string,
  language: string,
): Promise<string> {
  const data = await requestWithToken(
    'account',
    createEmailPasswordUserDocument,
    { email, password, language },
    null,
  );
  if (!data.createEmailPasswordUser?.token) throw new Error('Invalid authentication response');
  return data.createEmailPasswordUser.token;
}
