/** `revokeToken` on the tenant backend: logout revokes this backend's refresh token (and its family) too. */
import { revokeRefreshToken, unixSeconds } from '../../auth/refresh.ts';
import { refreshTokenInput } from '../../auth/refresh-session.ts';
import { parseInput } from '../../graphql/errors.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const revokeToken: NonNullable<MutationResolvers['revokeToken']> = async (_parent, args, ctx) => {
  const token = parseInput(refreshTokenInput, args.refreshToken);
  const revokedAt = await revokeRefreshToken(ctx.db, 'tenant', token);
  return { revoked: unixSeconds(revokedAt) };
};
