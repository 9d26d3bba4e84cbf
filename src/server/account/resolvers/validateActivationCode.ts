/** `validateActivationCode`: ok, or not ok with the reason (SPEC §5); throttled per client address and user. */
import { consumeAttempt } from '../../auth/throttle.ts';
import { optionalUserId } from '../../graphql/context.ts';
import { checkActivationCode } from '../activation.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const validateActivationCode: NonNullable<QueryResolvers['validateActivationCode']> = async (
  _parent,
  args,
  ctx,
) => {
  const userId = optionalUserId(ctx);
  await consumeAttempt(ctx.db, [
    ['activationIp', ctx.clientAddress],
    ['activationUser', userId === null ? null : String(userId)],
  ]);
  const checked = await checkActivationCode(ctx.db, args.activationCode, userId);
  return checked.ok ? { ok: true, text: '' } : { ok: false, text: checked.error.message };
};
