/** `loginWithEmailAndPassword`: email and password login on the tenant backend. */
import { authenticate, issueTokens } from '../../auth/login.ts';
import { badInput } from '../../graphql/errors.ts';
import type { MutationResolvers } from '../types.generated.ts';

export const loginWithEmailAndPassword: NonNullable<MutationResolvers['loginWithEmailAndPassword']> = async (
  _parent,
  { credentials },
  ctx,
) => {
  if (credentials.targetResource !== 'tenant') throw badInput('targetResource must be "tenant"');
  const user = await authenticate(ctx.db, credentials, ctx);
  const issued = await issueTokens(ctx.db, ctx.services.config, 'tenant', ctx.services.keys.tenant, user);
  ctx.logger.info({ userId: user.id }, 'tenant login');
  return { ok: { token: issued.token, refreshToken: issued.refreshToken } };
};
