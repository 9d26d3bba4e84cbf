/** `refreshToken`: rotates the tenant backend's refresh token and signs a new access token. */
import { refreshSession } from '../../auth/refresh-session.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const refreshToken: NonNullable<MutationResolvers['refreshToken']> = async (_parent, args, ctx) => {
  const issued = await refreshSession(
    ctx.db,
    ctx.services.config,
    'tenant',
    ctx.services.keys.tenant,
    args.refreshToken,
  );
  return { ok: { token: issued.token, refreshToken: issued.refreshToken } };
};
