/** `addTenancy`: the caller joins the activation code's tenancy; the code is spent. */
import { consumeAttempt } from '../../auth/throttle.ts';
import { checkActivationCode, redeemActivationCode } from '../activation.ts';
import { aboveDefaultRights } from '../errors.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { currentUser, hasAboveDefaultRights } from '../users.ts';

export const addTenancy: NonNullable<MutationResolvers['addTenancy']> = async (_parent, args, ctx) => {
  const user = await currentUser(ctx);
  await consumeAttempt(ctx.db, [
    ['activationIp', ctx.clientAddress],
    ['activationUser', String(user.id)],
  ]);
  if (hasAboveDefaultRights(user)) throw aboveDefaultRights();
  const checked = await checkActivationCode(ctx.db, args.activationCode, user.id);
  if (!checked.ok) throw checked.error;
  await redeemActivationCode(ctx.db, checked.code, checked.tenancyId, user.id);
  ctx.logger.info({ userId: user.id, tenancyId: checked.tenancyId }, 'tenancy added by activation code');
  return { ok: true };
};
