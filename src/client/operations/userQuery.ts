/** UserQuery (account backend): the signed-in user and every tenancy of theirs (SPEC §3, §7). */

import type { UserAndTenancies } from '../../machines/session.machine.ts';
import { UserQueryDocument } from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';

/** Loads the user and tenancies with the account access token; SPEC §8 "Invalid user response" when empty. */
export async function fetchUserAndTenancies(accountToken: string): Promise<UserAndTenancies> {
  const data = await requestWithToken('account', UserQueryDocument, {}, accountToken);
  if (!data.me) throw new Error('Invalid user response');
  return { user: data.me, tenancies: data.allTenanciesForCurrentUser };
}
