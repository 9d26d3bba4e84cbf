/** validateActivationCode (account backend): ok, or the reason as text (SPEC §5). */

import type { ActivationCodeResult } from '../../machines/activationForm.machine.ts';
import { ValidateActivationCodeDocument as validateActivationCodeDocument } from '../gql/account.ts';
import { requestWithToken } from '../graphql.ts';

/** Checks a code (anonymously, so it works before signup). */
export async function validateActivationCode(activationCode: string): Promise<ActivationCodeResult> {
  const data = await requestWithToken('account', validateActivationCodeDocument, { activationCode }, null);
  return data.validateActivationCode;
}
