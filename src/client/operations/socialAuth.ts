/** socialAuth (account) and loginFromSlt (tenant): a provider's ID token becomes a session on both backends. */

import type { SessionTokens } from '../../machines/session.machine.ts';
import { SocialAuthDocument as socialAuthDocument } from '../gql/account.ts';
import { LoginFromSltDocument as loginFromSltDocument } from '../gql/tenant.ts';
import { requestWithToken } from '../graphql.ts';
import { tokensFromAnswer } from '../storage.ts';

/** Signs in (or up) with a verified ID token; returns both backends' tokens. */
export async function socialLogin(provider: string, idToken: string, nonce: string): Promise<SessionTokens> {
  const data = await requestWithToken(
    'account',
    socialAuthDocument,
    { accessToken: idToken, provider, nonce },
    null,
  );
  const answer = data.socialAuth;
  const tenant = await requestWithToken('tenant', loginFromSltDocument, { token: answer.slt }, null);
  // SPEC §8: a short-lived-token login without ok.
  if (!tenant.loginFromSlt.ok) throw new Error('Invalid login response');
  const now = Date.now();
  const account = tokensFromAnswer(answer, now);
  const tenantTokens = tokensFromAnswer(tenant.loginFromSlt.ok, now);
  if (!account || !tenantTokens) throw new Error('Invalid login response');
  return { account, tenant: tenantTokens };
}
