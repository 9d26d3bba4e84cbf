/** tokenAuth (account backend): email and password login. */

import type { BackendTokens } from '../../machines/session.machine.ts';
import { TokenAuthDocument } from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';
import { tokensFromAnswer } from '../storage.ts';

/** Logs in to the account backend; throws SPEC §8 "Invalid authentication response" on an empty answer. */
export async function tokenAuth(email: string, password: string): Promise<BackendTokens> {
  const data = await requestWithToken('account', TokenAuthDocument, { email, password }, null);
  const tokens = tokensFromAnswer(data.tokenAuth, Date.now());
  if (!tokens) throw new Error('Invalid authentication response');
  return tokens;
}
