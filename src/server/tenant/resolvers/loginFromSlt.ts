/** `loginFromSlt`: a short-lived token from the account backend starts a tenant-backend session. */

import { consumeOneTimeToken } from '../../account/oneTimeTokens.ts';
import { activeUser, issueTokens } from '../../auth/login.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const loginFromSlt: NonNullable<MutationResolvers['loginFromSlt']> = async (_parent, args, ctx) => {
  const row = await consumeOneTimeToken(ctx.db, 'slt', args.token);
  // SPEC §8: no ok means "Invalid login response" on the client.
  if (!row) return { ok: null };
  const user = await activeUser(ctx.db, row.userId);
  if (!user) return { ok: null };
  const issued = await issueTokens(
    ctx.db,
    ctx.services.config,
    'tenant',
    ctx.services.keys.tenant,
    user,
    row.sessionEndsAt,
  );
  ctx.logger.info({ userId: user.id }, 'tenant login from slt');
  return { ok: { token: issued.token, refreshToken: issued.refreshToken } };
};
