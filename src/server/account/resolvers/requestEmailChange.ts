/** `requestEmailChange`: needs the password; mails a confirmation link to the new address, a notice to the old. */
import { confirmPassword } from '../../auth/login.ts';
import { consumeAttempt } from '../../auth/throttle.ts';
import { sendMail, sendMailInBackground } from '../../mail/mailer.ts';
import { renderMail } from '../../mail/messages.ts';
import { userExists } from '../errors.ts';
import { issueOneTimeToken, TOKEN_TTL } from '../oneTimeTokens.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { currentUser, parseEmail, userByEmail } from '../users.ts';

export const requestEmailChange: NonNullable<MutationResolvers['requestEmailChange']> = async (
  _parent,
  args,
  ctx,
) => {
  const user = await currentUser(ctx);
  await confirmPassword(ctx.db, user, args.password, ctx);
  const newEmail = parseEmail(args.newEmail);
  await consumeAttempt(ctx.db, [
    ['mailSender', String(user.id)],
    ['mailRecipient', newEmail],
  ]);
  if (newEmail === user.email || (await userByEmail(ctx, newEmail))) throw userExists();
  const { token } = await issueOneTimeToken(ctx.db, 'email_change', user.id, { newEmail, replace: true });
  const link = new URL('/confirm-email', ctx.services.config.APP_URL);
  link.searchParams.set('token', token);
  await sendMail(
    ctx.services,
    newEmail,
    renderMail('emailChange', user.language, {
      newEmail,
      link: link.toString(),
      hours: TOKEN_TTL.email_change / 3600,
    }),
  );
  sendMailInBackground(
    ctx.services,
    user.email,
    renderMail('emailChangeNotice', user.language, { newEmail }),
  );
  ctx.logger.info({ userId: user.id }, 'email change requested');
  return { ok: true };
};
