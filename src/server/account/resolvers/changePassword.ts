/** `changePassword`: needs the current password; every session of the user ends and a new one starts. */
import { eq } from 'drizzle-orm';
import { confirmPassword } from '../../auth/login.ts';
import { hashPassword } from '../../auth/password.ts';
import { users } from '../../db/schema.ts';
import { sendMailInBackground } from '../../mail/mailer.ts';
import { renderMail } from '../../mail/messages.ts';
import { samePassword } from '../errors.ts';
import { endAllSessions, startSession } from '../session.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { assertPasswordAcceptable, currentUser } from '../users.ts';

export const changePassword: NonNullable<MutationResolvers['changePassword']> = async (
  _parent,
  args,
  ctx,
) => {
  const user = await currentUser(ctx);
  await confirmPassword(ctx.db, user, args.currentPassword, ctx);
  assertPasswordAcceptable(args.newPassword);
  // The current password was just confirmed, so an equal new one changes nothing and ends no session.
  if (args.newPassword === args.currentPassword) throw samePassword();
  const passwordHash = await hashPassword(args.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await endAllSessions(tx, user.id);
  });
  ctx.logger.info({ userId: user.id }, 'password changed');
  sendMailInBackground(
    ctx.services,
    user.email,
    renderMail('passwordChanged', user.language, { email: user.email }),
  );
  return startSession(ctx, user);
};
