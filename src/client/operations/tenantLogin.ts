/** loginWithEmailAndPassword (tenant backend), requesting the target resource tenant (SPEC §6). */
import { gql } from 'graphql-request';
import type { BackendTokens } from '../../machines/session.machine.ts';
import { requestWithToken } from '../graphql.ts';
import { type TokenAnswer, tokensFromAnswer } from '../storage.ts';

export const tenantLoginDocument = gql`
  mutation LoginWithEmailAndPassword($credentials: CredentialsInput!) {
    loginWithEmailAndPassword(credentials: $credentials) {
      ok {
        token
        refreshToken
      }
    }
  }
`;

type LoginResult = { loginWithEmailAndPassword: { ok: TokenAnswer | null } };

/** Logs in to the tenant backend; SPEC §8 "Invalid authentication response" when there is no ok. */
export async function tenantLogin(email: string, password: string): Promise<BackendTokens> {
  const data = await requestWithToken<LoginResult>(
    'tenant',
    tenantLoginDocument,
    { credentials: { email, password, targetResource: 'tenant' } },
    null,
  );
  const tokens = tokensFromAnswer(data.loginWithEmailAndPassword.ok, Date.now());
  if (!tokens) throw new Error('Invalid authentication response');
  return tokens;
}
