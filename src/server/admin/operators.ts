/**
 * Operator identities: created by an organisation admin (console) or by `npm run cli -- operator create`, given
 * a role, deactivated. SPEC §8's email rule holds both ways: an operator's email is refused by the tenant
 * app's signup (EMAIL_IN_ADMIN_PORTAL), and a tenant app user's email is refused here (EMAIL_IN_TENANT_APP).
 */
import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import { passwordErrors } from '../../lib/validation.ts';
import { endAllSessions } from '../account/session.ts';
import { parseEmail } from '../account/users.ts';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import {
  accounts,
  operatorProperties,
  operatorRoles,
  operatorTotp,
  properties,
  users,
} from '../db/schema.ts';
import { badInput, forbidden } from '../graphql/errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { emailInTenantApp, lastOrgAdmin, operatorExists } from './errors.ts';
import type { Role } from './scope.ts';

/** A first password that passes SPEC §5 (shown once; the operator changes it through "forgot password"). */
function generatePassword(): string {
  for (;;) {
    const candidate = `${randomBytes(12).toString('base64url')}-Aa7`;
    if (passwordErrors(candidate).length === 0) return candidate;
  }
}

/** An operator as the console shows it. */
export interface OperatorView {
  id: number;
  email: string;
  name: string;
  role: Role;
  accountId: number;
  accountName: string;
  propertyIds: number[];
  isActive: boolean;
  secondFactorEnabled: boolean;
}

/** The operators of an organisation (or one of them), with their properties. */
export async function operatorViews(db: Db, accountId: number, userId?: number): Promise<OperatorView[]> {
  const conditions = [eq(operatorRoles.accountId, accountId)];
  if (userId !== undefined) conditions.push(eq(operatorRoles.userId, userId));
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: operatorRoles.role,
      accountId: operatorRoles.accountId,
      accountName: accounts.name,
      isActive: users.isActive,
      confirmedAt: operatorTotp.confirmedAt,
    })
    .from(operatorRoles)
    .innerJoin(users, eq(users.id, operatorRoles.userId))
    .innerJoin(accounts, eq(accounts.id, operatorRoles.accountId))
    .leftJoin(operatorTotp, eq(operatorTotp.userId, users.id))
    .where(and(...conditions))
    .orderBy(users.email);
  const ids = rows.map((r) => r.id);
  const given = ids.length
    ? await db.select().from(operatorProperties).where(inArray(operatorProperties.userId, ids))
    : [];
  return rows.map(({ confirmedAt, ...r }) => ({
    ...r,
    secondFactorEnabled: Boolean(confirmedAt),
    propertyIds: given.filter((g) => g.userId === r.id).map((g) => g.propertyId),
  }));
}

/** Checks that a manager's properties exist in the organisation; returns them as numbers. */
async function checkProperties(db: Db, accountId: number, role: Role, raw: readonly (string | number)[]) {
  if (role === 'org_admin') return [];
  const ids = [...new Set(raw.map((r) => (/^\d{1,9}$/.test(String(r)) ? Number(r) : Number.NaN)))];
  if (ids.length === 0) throw badInput('A property manager needs at least one property');
  if (ids.some((id) => Number.isNaN(id))) throw badInput('Property ids must be numbers');
  const found = await db
    .select({ id: properties.id })
    .from(properties)
    .where(and(eq(properties.accountId, accountId), inArray(properties.id, ids)));
  // Another organisation's property reads as unknown.
  if (found.length !== ids.length) throw forbidden();
  return ids.sort((a, b) => a - b);
}

export interface NewOperator {
  email: string;
  name?: string | null;
  role: Role;
  accountId: number;
  propertyIds?: readonly (string | number)[] | null;
  /** Given by tests and the demo seed; generated (and returned) otherwise. */
  password?: string;
}

/** Creates an operator in the organisation, audited; returns the view and the first password. */
export async function createOperator(db: Db, who: Actor, input: NewOperator) {
  const email = parseEmail(input.email);
  const name = (input.name ?? '').trim().slice(0, 200);
  const propertyIds = await checkProperties(db, input.accountId, input.role, input.propertyIds ?? []);
  const password = input.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(eq(users.email, email));
    if (existing) throw existing.isAdmin ? operatorExists() : emailInTenantApp();
    const [user] = await tx
      .insert(users)
      .values({ email, name, passwordHash, isAdmin: true })
      .onConflictDoNothing()
      .returning({ id: users.id });
    // A tenant signed up with the same email between the check and the insert.
    if (!user) throw emailInTenantApp();
    await tx.insert(operatorRoles).values({ userId: user.id, accountId: input.accountId, role: input.role });
    if (propertyIds.length) {
      await tx
        .insert(operatorProperties)
        .values(propertyIds.map((propertyId) => ({ userId: user.id, propertyId })));
    }
    await recordAudit(tx, who, {
      action: 'operator.create',
      subjectType: 'operator',
      subjectId: user.id,
      accountId: input.accountId,
      after: { email, name, role: input.role, propertyIds },
    });
    return user.id;
  });
  const [view] = await operatorViews(db, input.accountId, userId);
  return { operator: view!, initialPassword: password };
}

/** Whether the organisation has an active organisation admin other than the user. */
async function otherOrgAdmins(db: Pick<Db, 'select'>, accountId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(operatorRoles)
    .innerJoin(users, eq(users.id, operatorRoles.userId))
    .where(
      and(
        eq(operatorRoles.accountId, accountId),
        eq(operatorRoles.role, 'org_admin'),
        eq(users.isActive, true),
        ne(operatorRoles.userId, userId),
      ),
    );
  return row?.n ?? 0;
}

/** The operator `userId` of the organisation; FORBIDDEN when it is not one of its operators. */
async function operatorOf(db: Db, accountId: number, userId: number): Promise<OperatorView> {
  const [view] = await operatorViews(db, accountId, userId);
  if (!view) throw forbidden();
  return view;
}

/** Changes an operator's role and properties, audited with before and after. */
export async function setOperatorAccess(
  db: Db,
  who: Actor,
  accountId: number,
  userId: number,
  role: Role,
  rawPropertyIds: readonly (string | number)[],
) {
  const before = await operatorOf(db, accountId, userId);
  const propertyIds = await checkProperties(db, accountId, role, rawPropertyIds);
  await db.transaction(async (tx) => {
    if (
      before.role === 'org_admin' &&
      role !== 'org_admin' &&
      (await otherOrgAdmins(tx, accountId, userId)) === 0
    ) {
      throw lastOrgAdmin();
    }
    await tx.update(operatorRoles).set({ role }).where(eq(operatorRoles.userId, userId));
    await tx.delete(operatorProperties).where(eq(operatorProperties.userId, userId));
    if (propertyIds.length) {
      await tx.insert(operatorProperties).values(propertyIds.map((propertyId) => ({ userId, propertyId })));
    }
    await recordAudit(tx, who, {
      action: 'operator.set_access',
      subjectType: 'operator',
      subjectId: userId,
      accountId,
      before: { role: before.role, propertyIds: before.propertyIds },
      after: { role, propertyIds },
    });
  });
  return operatorOf(db, accountId, userId);
}

/** Deactivates an operator: refused from the next request on, every session ended; audited. */
export async function deactivateOperator(db: Db, who: Actor, accountId: number, userId: number) {
  const before = await operatorOf(db, accountId, userId);
  await db.transaction(async (tx) => {
    if (
      before.role === 'org_admin' &&
      before.isActive &&
      (await otherOrgAdmins(tx, accountId, userId)) === 0
    ) {
      throw lastOrgAdmin();
    }
    await tx.update(users).set({ isActive: false, updatedAt: new Date() }).where(eq(users.id, userId));
    await endAllSessions(tx, userId);
    await recordAudit(tx, who, {
      action: 'operator.deactivate',
      subjectType: 'operator',
      subjectId: userId,
      accountId,
      before: { isActive: before.isActive },
      after: { isActive: false },
    });
  });
  return operatorOf(db, accountId, userId);
}
