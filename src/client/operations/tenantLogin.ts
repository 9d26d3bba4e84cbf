/** loginWithEmailAndPassword (tenant backend), requesting the target resource tenant (SPEC §6). */

import type { BackendTokens } from '../../machines/session.machine.ts';
import { LoginWithEmailAndPasswordDocument } from '../gql/tenant.ts';
import { requestWithToken } from '../graphql.ts';
import { tokensFromAnswer } from '../storage.ts';

/** Logs in to the tenant backend; SPEC §8 "Invalid authentication response" when there is no ok. */
export async function tenantLogin(email: string, password: string): Promise<BackendTokens> {
  const data = await requestWithToken(
    'tenant',
    LoginWithEmailAndPasswordDocument,
    { credentials: { email, password, targetResource: 'tenant' } },
    null,
  );
  const tokens = tokensFromAnswer(data.loginWithEmailAndPassword.ok, Date.now());
  if (!tokens) throw new Error('Invalid authentication response');
  return tokens;
}
