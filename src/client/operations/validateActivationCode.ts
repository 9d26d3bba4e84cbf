/** validateActivationCode (account backend): ok, or the reason as text (SPEC §5). */
import { gql } from 'graphql-request';
import type { ActivationCodeResult } from '../../machines/activationForm.machine.ts';
import { requestWithToken } from '../graphql.ts';

export const validateActivationCodeDocument = gql`
  query ValidateActivationCode($activationCode: String!) {
    validateActivationCode(activationCode: $activationCode) {
      ok
      text
    }
  }
`;

/** Checks a code (anonymously, so it works before signup). */
export async function validateActivationCode(activationCode: string): Promise<ActivationCodeResult> {
  const data = await requestWithToken<{ validateActivationCode: ActivationCodeResult }>(
    'account',
    validateActivationCodeDocument,
    { activationCode },
    null,
  );
  return data.validateActivationCode;
}
