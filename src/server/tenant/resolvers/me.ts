/** `me` (the `Me` query) on the tenant backend: the short user shape, with permissions and accounts. */
import { and, asc, eq } from 'drizzle-orm';
import { activeUser } from '../../auth/login.ts';
import {
  apartments,
  permissions,
  properties,
  tenancies,
  tenancyMembers,
  userAccounts,
  userPermissions,
} from '../../db/schema.ts';
import { optionalUserId } from '../../graphql/context.ts';
import { loginRequired } from '../../graphql/errors.ts';
import { tenancyAccessOpen } from '../grace.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const me: NonNullable<QueryResolvers['me']> = async (_parent, _args, ctx) => {
  const userId = optionalUserId(ctx);
  if (userId === null) return null;
  const user = await activeUser(ctx.db, userId);
  if (!user) throw loginRequired();
  const granted = await ctx.db
    .select({ name: permissions.name, description: permissions.description })
    .from(userPermissions)
    .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
    .where(eq(userPermissions.userId, userId))
    .orderBy(asc(permissions.name));
  // A user belongs to the accounts linked to them directly and to those owning their tenancies' properties.
  const accounts = await ctx.db
    .select({ id: userAccounts.accountId })
    .from(userAccounts)
    .where(eq(userAccounts.userId, userId))
    .union(
      ctx.db
        .select({ id: properties.accountId })
        .from(tenancyMembers)
        .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
        .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
        .innerJoin(properties, eq(properties.id, apartments.propertyId))
        .where(and(eq(tenancyMembers.userId, userId), tenancyAccessOpen)),
    );
  const accountIds = accounts.map((a) => a.id).sort((a, b) => a - b);
  return {
    id: String(user.id),
    name: user.name,
    email: user.email,
    language: user.language,
    permissions: granted,
    accounts: accountIds.map((id) => ({ id: String(id) })),
  };
};
