/**
 * Who the calling operator is and what they may reach, read from the database on every call (never from the
 * token): role, organisation and, for a property manager, their properties.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { operatorProperties, operatorRoles, properties, users } from '../db/schema.ts';
import { type GraphQLContext, requireUserId } from '../graphql/context.ts';
import { forbidden, loginRequired } from '../graphql/errors.ts';
import { orgAdminOnly } from './errors.ts';

export type Role = 'org_admin' | 'property_manager';

/** The calling operator. `propertyIds` null: every property of the organisation (organisation admin). */
export interface OperatorScope {
  userId: number;
  email: string;
  role: Role;
  accountId: number;
  propertyIds: ReadonlySet<number> | null;
}

/** The caller as an operator; UNAUTHENTICATED without a token, FORBIDDEN when they are not an active operator. */
export async function requireOperator(ctx: GraphQLContext): Promise<OperatorScope> {
  const userId = requireUserId(ctx);
  const [row] = await ctx.db
    .select({
      email: users.email,
      isActive: users.isActive,
      isAdmin: users.isAdmin,
      role: operatorRoles.role,
      accountId: operatorRoles.accountId,
    })
    .from(users)
    .innerJoin(operatorRoles, eq(operatorRoles.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw forbidden();
  if (!row.isActive) throw loginRequired();
  if (!row.isAdmin) throw forbidden();
  let propertyIds: Set<number> | null = null;
  if (row.role === 'property_manager') {
    const given = await ctx.db
      .select({ id: operatorProperties.propertyId })
      .from(operatorProperties)
      .where(eq(operatorProperties.userId, userId));
    propertyIds = new Set(given.map((g) => g.id));
  }
  return { userId, email: row.email, role: row.role, accountId: row.accountId, propertyIds };
}

/** Operator management and other organisation-wide writes: organisation admins only. */
export function assertOrgAdmin(scope: OperatorScope): void {
  if (scope.role !== 'org_admin') throw orgAdminOnly();
}

/** Whether the scope reaches a property of the given organisation. */
export function reaches(scope: OperatorScope, property: { id: number; accountId: number }): boolean {
  if (property.accountId !== scope.accountId) return false;
  return scope.propertyIds === null || scope.propertyIds.has(property.id);
}

/**
 * A property the caller may reach; FORBIDDEN otherwise, also for ids that do not exist (so ids cannot be
 * probed) and for ids that are not numbers.
 */
export async function requireProperty(db: Db, scope: OperatorScope, rawId: string | number) {
  const id = typeof rawId === 'number' ? rawId : /^\d{1,9}$/.test(rawId) ? Number(rawId) : null;
  if (id === null) throw forbidden();
  const [property] = await db.select().from(properties).where(eq(properties.id, id));
  if (!property || !reaches(scope, property)) throw forbidden();
  return property;
}

/** The properties the caller may reach, by number. */
export async function reachableProperties(db: Db, scope: OperatorScope) {
  const condition =
    scope.propertyIds === null
      ? eq(properties.accountId, scope.accountId)
      : and(eq(properties.accountId, scope.accountId), inArray(properties.id, [...scope.propertyIds, -1]));
  return db.select().from(properties).where(condition).orderBy(properties.number);
}

/** The ids of the properties the caller may reach (no rows, no order: for filters). */
export async function reachablePropertyIds(db: Db, scope: OperatorScope): Promise<number[]> {
  if (scope.propertyIds !== null) {
    const ids = [...scope.propertyIds, -1];
    const rows = await db
      .select({ id: properties.id })
      .from(properties)
      .where(and(eq(properties.accountId, scope.accountId), inArray(properties.id, ids)));
    return rows.map((r) => r.id);
  }
  const rows = await db
    .select({ id: properties.id })
    .from(properties)
    .where(eq(properties.accountId, scope.accountId));
  return rows.map((r) => r.id);
}
