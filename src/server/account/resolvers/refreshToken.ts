/** `refreshToken`: rotates the account backend's refresh token and signs a new access token. */
import { unixSeconds } from '../../auth/refresh.ts';
import { refreshSession } from '../../auth/refresh-session.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const refreshToken: NonNullable<MutationResolvers['refreshToken']> = async (_parent, args, ctx) => {
  const issued = await refreshSession(
    ctx.db,
    ctx.services.config,
    'account',
    ctx.services.keys.account,
    args.refreshToken,
  );
  return {
    payload: issued.claims,
    refreshExpiresIn: unixSeconds(issued.refreshExpiresAt),
    token: issued.token,
    refreshToken: issued.refreshToken,
  };
};
