/** `tokenAuth`: email and password login on the account backend. */
import { authenticate, issueTokens } from '../../auth/login.ts';
import { unixSeconds } from '../../auth/refresh.ts';
import { aboveDefaultRights } from '../errors.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const tokenAuth: NonNullable<MutationResolvers['tokenAuth']> = async (_parent, args, ctx) => {
  const user = await authenticate(ctx.db, args, ctx);
  // SPEC §8: an operator's email is the admin portal's; it does not sign in to the tenant app.
  if (user.isAdmin) throw aboveDefaultRights();
  const issued = await issueTokens(ctx.db, ctx.services.config, 'account', ctx.services.keys.account, user);
  ctx.logger.info({ userId: user.id }, 'account login');
  return {
    payload: issued.claims,
    refreshExpiresIn: unixSeconds(issued.refreshExpiresAt),
    token: issued.token,
    refreshToken: issued.refreshToken,
  };
};
