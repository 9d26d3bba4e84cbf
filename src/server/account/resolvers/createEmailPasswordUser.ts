/**
 * `createEmailPasswordUser` (signup). A new email creates the user. An existing email with the right
 * password signs that user in (they came with a code for another tenancy); with a wrong one it is SPEC §8's
 * "A user already exists with that email…", and counts as a failed login.
 */
import { parseLanguage } from '../../../lib/languages.ts';
import { authenticate } from '../../auth/login.ts';
import { hashPassword } from '../../auth/password.ts';
import { consumeAttempt } from '../../auth/throttle.ts';
import { users } from '../../db/schema.ts';
import { aboveDefaultRights, emailInAdminPortal, userExists } from '../errors.ts';
import { startSession } from '../session.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { userShape } from '../userShape.ts';
import { assertPasswordAcceptable, hasAboveDefaultRights, parseEmail, userByEmail } from '../users.ts';

export const createEmailPasswordUser: NonNullable<MutationResolvers['createEmailPasswordUser']> = async (
  _parent,
  args,
  ctx,
) => {
  const email = parseEmail(args.email);
  await consumeAttempt(ctx.db, [['signupIp', ctx.clientAddress]]);
  const existing = await userByEmail(ctx, email);
  if (existing) {
    if (existing.isAdmin) throw emailInAdminPortal();
    let user: typeof existing;
    try {
      user = await authenticate(ctx.db, { email, password: args.password }, ctx);
    } catch (err) {
      // A throttle answer stays; a wrong password becomes the signup's message.
      if ((err as { extensions?: { code?: string } }).extensions?.code === 'INVALID_CREDENTIALS') {
        throw userExists();
      }
      throw err;
    }
    if (hasAboveDefaultRights(user)) throw aboveDefaultRights();
    return { ...(await startSession(ctx, user)), user: userShape(user) };
  }
  assertPasswordAcceptable(args.password);
  const language = parseLanguage(args.language) ?? 'en';
  const [created] = await ctx.db
    .insert(users)
    .values({ email, passwordHash: await hashPassword(args.password), language, userType: 'email' })
    .onConflictDoNothing()
    .returning();
  // Lost a race with a concurrent signup of the same email.
  if (!created) throw userExists();
  ctx.logger.info({ userId: created.id }, 'user signed up');
  return { ...(await startSession(ctx, created)), user: userShape(created) };
};
