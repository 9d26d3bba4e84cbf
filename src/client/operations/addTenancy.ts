/** addTenancy (account backend): joins the tenancy of an activation code. */
import { gql } from 'graphql-request';
import { authorizedRequest, requestWithToken } from '../graphql.ts';

export const addTenancyDocument = gql`
  mutation AddTenancy($activationCode: String!) {
    addTenancy(activationCode: $activationCode) {
      ok
    }
  }
`;

/** Adds the tenancy with the session's token, or with the given one (right after signup). */
export async function addTenancy(activationCode: string, token?: string): Promise<void> {
  const data = token
    ? await requestWithToken<{ addTenancy: { ok: boolean } }>(
        'account',
        addTenancyDocument,
        { activationCode },
        token,
      )
    : await authorizedRequest<{ addTenancy: { ok: boolean } }>('account', addTenancyDocument, {
        activationCode,
      });
  if (!data.addTenancy?.ok) throw new Error('The activation code you entered is invalid.');
}
