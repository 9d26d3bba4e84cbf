/** `tokenAuth`: email and password login on the account backend. */
import { authenticate, issueTokens } from '../../auth/login.ts';
import { unixSeconds } from '../../auth/refresh.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const tokenAuth: NonNullable<MutationResolvers['tokenAuth']> = async (_parent, args, ctx) => {
  const user = await authenticate(ctx.db, args, ctx);
  const issued = await issueTokens(ctx.db, ctx.services.config, 'account', ctx.services.keys.account, user);
  ctx.logger.info({ userId: user.id }, 'account login');
  return {
    payload: issued.claims,
    refreshExpiresIn: unixSeconds(issued.refreshExpiresAt),
    token: issued.token,
    refreshToken: issued.refreshToken,
  };
};
