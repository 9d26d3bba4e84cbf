/** addTenancy (account backend): joins the tenancy of an activation code. */
import { AddTenancyDocument as addTenancyDocument } from '../gql/account.ts';
import { authorizedRequest, requestWithToken } from '../graphql.ts';

/** Adds the tenancy with the session's token, or with the given one (right after signup). */
export async function addTenancy(activationCode: string, token?: string): Promise<void> {
  const data = token
    ? await requestWithToken('account', addTenancyDocument, { activationCode }, token)
    : await authorizedRequest('account', addTenancyDocument, {
        activationCode,
      });
  if (!data.addTenancy?.ok) throw new Error('The activation code you entered is invalid.');
}
