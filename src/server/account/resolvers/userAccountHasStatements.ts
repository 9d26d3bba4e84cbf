/** User.accountHasStatements (SPEC §3): true when any of the user's tenancies has an allocation statement. */
import { requireUserId } from '../../graphql/context.ts';
import { userHasStatements } from '../../statements/access.ts';
import type { UserResolvers } from '../types.generated.ts';

export const userAccountHasStatements: NonNullable<UserResolvers['accountHasStatements']> = (
  _parent,
  _args,
  ctx,
) => userHasStatements(ctx.db, requireUserId(ctx));
