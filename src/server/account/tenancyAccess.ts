/**
 * Who may do what with a tenancy: members see its settings, admins manage its users and invitations.
 * An unknown tenancy id and another tenancy's id get the same FORBIDDEN answer, as tenantGraph gives.
 */
import { and, count, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { tenancyMembers } from '../db/schema.ts';
import { type GraphQLContext, requireUserId } from '../graphql/context.ts';
import { forbidden } from '../graphql/errors.ts';
import { parseId } from './users.ts';

/** The caller's membership of a tenancy. */
export interface Membership {
  userId: number;
  tenancyId: number;
  isAdmin: boolean;
}

/** The caller must be a member of the tenancy. */
export async function requireMember(ctx: GraphQLContext, rawTenancyId: string): Promise<Membership> {
  const userId = requireUserId(ctx);
  const tenancyId = parseId(rawTenancyId);
  if (tenancyId === null) throw forbidden();
  const [row] = await ctx.db
    .select({ isAdmin: tenancyMembers.isAdmin })
    .from(tenancyMembers)
    .where(and(eq(tenancyMembers.tenancyId, tenancyId), eq(tenancyMembers.userId, userId)));
  if (!row) throw forbidden();
  return { userId, tenancyId, isAdmin: row.isAdmin };
}

/** The caller must be an admin of the tenancy. */
export async function requireAdmin(ctx: GraphQLContext, rawTenancyId: string): Promise<Membership> {
  const membership = await requireMember(ctx, rawTenancyId);
  if (!membership.isAdmin) throw forbidden();
  return membership;
}

/**
 * Whether taking `userId` away as admin (leaving, removal, dropping the flag) would leave a tenancy that
 * still has other members without any admin.
 */
export async function wouldLeaveNoAdmin(
  db: Pick<Db, 'select'>,
  tenancyId: number,
  userId: number,
  alsoLeaving: boolean,
): Promise<boolean> {
  const [admins] = await db
    .select({ n: count() })
    .from(tenancyMembers)
    .where(
      and(
        eq(tenancyMembers.tenancyId, tenancyId),
        eq(tenancyMembers.isAdmin, true),
        ne(tenancyMembers.userId, userId),
      ),
    );
  if ((admins?.n ?? 0) > 0) return false;
  if (!alsoLeaving) return true;
  const [others] = await db
    .select({ n: count() })
    .from(tenancyMembers)
    .where(and(eq(tenancyMembers.tenancyId, tenancyId), ne(tenancyMembers.userId, userId)));
  return (others?.n ?? 0) > 0;
}
