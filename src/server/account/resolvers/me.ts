/** `me` on the account backend: the full user shape of SPEC §3. */
import { activeUser } from '../../auth/login.ts';
import { optionalUserId } from '../../graphql/context.ts';
import { loginRequired } from '../../graphql/errors.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { userShape } from '../userShape.ts';

export const me: NonNullable<QueryResolvers['me']> = async (_parent, _args, ctx) => {
  const userId = optionalUserId(ctx);
  if (userId === null) return null;
  const user = await activeUser(ctx.db, userId);
  if (!user) throw loginRequired();
  return userShape(user);
};
