/** impersonate (account) and loginFromSlt (tenant): a support link becomes a session on both backends. */

import type { SessionTokens } from '../../machines/session.machine.ts';
import { ImpersonateDocument as impersonateDocument } from '../gql/account.ts';
import { LoginFromSltDocument as loginFromSltDocument } from '../gql/tenant.ts';
import { requestWithToken } from '../graphql.ts';
import { tokensFromAnswer } from '../storage.ts';

/** Exchanges the link's token; returns both backends' tokens, whom they are for and when the session ends. */
export async function impersonate(
  token: string,
): Promise<{ tokens: SessionTokens; email: string; endsAt: number }> {
  const data = await requestWithToken('account', impersonateDocument, { token }, null);
  const answer = data.impersonate;
  const tenant = await requestWithToken('tenant', loginFromSltDocument, { token: answer.slt }, null);
  // SPEC §8: a short-lived-token login without ok.
  if (!tenant.loginFromSlt.ok) throw new Error('Invalid login response');
  const now = Date.now();
  const account = tokensFromAnswer({ ...answer, refreshExpiresIn: answer.expiresAt }, now);
  const tenantTokens = tokensFromAnswer(tenant.loginFromSlt.ok, now);
  if (!account || !tenantTokens) throw new Error('Invalid login response');
  return { tokens: { account, tenant: tenantTokens }, email: answer.email, endsAt: answer.expiresAt * 1000 };
}
