/** `socialAuth`: signs in (or up) with a verified provider ID token; users with above-default rights are refused. */
import { SocialTokenError, verifyIdToken } from '../../auth/social.ts';
import { consumeAttempt, refundAttempt } from '../../auth/throttle.ts';
import { users } from '../../db/schema.ts';
import { invalidCredentials } from '../../graphql/errors.ts';
import { aboveDefaultRights, socialLoginFailed } from '../errors.ts';
import { startSession } from '../session.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { hasAboveDefaultRights, userByEmail } from '../users.ts';

export const socialAuth: NonNullable<MutationResolvers['socialAuth']> = async (_parent, args, ctx) => {
  // The point is taken before the token is checked, and given back when it is accepted.
  await consumeAttempt(ctx.db, [['loginIp', ctx.clientAddress]]);
  let identity: Awaited<ReturnType<typeof verifyIdToken>>;
  try {
    identity = await verifyIdToken(ctx.services.config, args.provider, args.accessToken, args.nonce);
  } catch (err) {
    if (!(err instanceof SocialTokenError)) throw err;
    ctx.logger.warn(
      { provider: args.provider, reason: err.message, clientAddress: ctx.clientAddress },
      'failed social login',
    );
    throw socialLoginFailed(
      err.message === 'provider not configured' ? err.message : 'the token was not accepted',
    );
  }
  await refundAttempt(ctx.db, [['loginIp', ctx.clientAddress]]);
  let user = await userByEmail(ctx, identity.email);
  if (user && hasAboveDefaultRights(user)) throw aboveDefaultRights();
  if (user && !user.isActive) throw invalidCredentials();
  if (!user) {
    const [created] = await ctx.db
      .insert(users)
      .values({ email: identity.email, userType: identity.provider, passwordHash: null })
      .onConflictDoNothing()
      .returning();
    user = created ?? (await userByEmail(ctx, identity.email));
    if (!user) throw socialLoginFailed('the token was not accepted');
    ctx.logger.info(
      { userId: user.id, provider: identity.provider },
      'user signed up with a social provider',
    );
  }
  const session = await startSession(ctx, user);
  return { ...session, social: { provider: identity.provider, user: { email: user.email } } };
};
