/** `me` on the account backend: the full user shape of SPEC §3. */
import { activeUser } from '../../auth/login.ts';
import { optionalUserId } from '../../graphql/context.ts';
import { loginRequired } from '../../graphql/errors.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const me: NonNullable<QueryResolvers['me']> = async (_parent, _args, ctx) => {
  const userId = optionalUserId(ctx);
  if (userId === null) return null;
  const user = await activeUser(ctx.db, userId);
  if (!user) throw loginRequired();
  return {
    id: String(user.id),
    email: user.email,
    name: user.name,
    language: user.language,
    isSuperuser: user.isSuperuser,
    isActive: user.isActive,
    isAdmin: user.isAdmin,
    userType: user.userType,
    emailNotifications: user.emailNotifications,
    // No statements table exists yet (statements come with their own work); until then no user has any.
    accountHasStatements: false,
  };
};
