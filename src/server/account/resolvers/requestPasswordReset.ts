/**
 * `requestPasswordReset`: mails a single-use link that expires, when the email belongs to an active user.
 * The answer, and its timing, are the same whether or not it does: the mail goes out in the background.
 */
import { consumeAttempt } from '../../auth/throttle.ts';
import { sendMailInBackground } from '../../mail/mailer.ts';
import { renderMail } from '../../mail/messages.ts';
import { issueOneTimeToken, TOKEN_TTL } from '../oneTimeTokens.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { parseEmail, userByEmail } from '../users.ts';

export const requestPasswordReset: NonNullable<MutationResolvers['requestPasswordReset']> = async (
  _parent,
  args,
  ctx,
) => {
  const email = parseEmail(args.email);
  await consumeAttempt(ctx.db, [
    ['resetEmail', email],
    ['resetIp', ctx.clientAddress],
  ]);
  const user = await userByEmail(ctx, email);
  if (user?.isActive) {
    const { token } = await issueOneTimeToken(ctx.db, 'password_reset', user.id, { replace: true });
    const link = new URL('/reset-password', ctx.services.config.APP_URL);
    link.searchParams.set('email', user.email);
    link.searchParams.set('token', token);
    const mail = renderMail('reset', user.language, {
      email: user.email,
      link: link.toString(),
      minutes: TOKEN_TTL.password_reset / 60,
    });
    sendMailInBackground(ctx.services, user.email, mail);
    ctx.logger.info({ userId: user.id }, 'password reset requested');
  } else {
    ctx.logger.info({ clientAddress: ctx.clientAddress }, 'password reset requested for an unknown email');
  }
  return { ok: true };
};
