/**
 * Support (issue 21): find a tenant of the operator's properties, start an impersonation link with a reason, and
 * deactivate or reactivate a tenant's account. Every write is audited with its reason; a tenant outside the
 * caller's properties is FORBIDDEN, the same answer as an id that does not exist.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { issueImpersonationLink } from '../account/impersonation.ts';
import { endAllSessions } from '../account/session.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { badInput, forbidden } from '../graphql/errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { opsError } from './opsErrors.ts';
import { assertOrgAdmin, type OperatorScope } from './scope.ts';

const SEARCH_MAX = 50;

export interface SupportTenancyView {
  id: number;
  reference: string;
  propertyId: number;
  propertyNumber: string;
  apartment: string;
  address: string;
  start: string;
  end: string | null;
}

export interface SupportTenantView {
  id: number;
  email: string;
  name: string;
  isActive: boolean;
  canImpersonate: boolean;
  /** An operator or superuser: never impersonated, never (de)activated here. */
  privileged: boolean;
  tenancies: SupportTenancyView[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The caller's properties as a condition on `p` (properties). */
function inScope(scope: OperatorScope): SQL {
  const own = sql`p.account_id = ${scope.accountId}`;
  if (scope.propertyIds === null) return own;
  return sql`${own} AND p.id IN (${sql.join(
    [...scope.propertyIds, -1].map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

type Row = {
  userId: number;
  email: string;
  name: string;
  isActive: boolean;
  isAdmin: boolean;
  isSuperuser: boolean;
  tenancyId: number;
  reference: string;
  propertyId: number;
  propertyNumber: string;
  apartment: string;
  address: string;
  start: string;
  end: string | null;
};

/** Users and their in-scope tenancies, for the users `which` selects (a condition on u, tn, ap and p). */
async function tenantsWhere(db: Db, scope: OperatorScope, which: SQL, limit: number) {
  const rows = await queryRows<Row>(
    db,
    sql`WITH found AS (
          SELECT DISTINCT u.id FROM users u
          JOIN tenancy_members tm ON tm.user_id = u.id
          JOIN tenancies tn ON tn.id = tm.tenancy_id
          JOIN apartments ap ON ap.id = tn.apartment_id
          JOIN properties p ON p.id = ap.property_id
          WHERE ${inScope(scope)} AND (${which})
          ORDER BY u.id LIMIT ${limit}
        )
        SELECT u.id AS "userId", u.email, u.name, u.is_active AS "isActive", u.is_admin AS "isAdmin",
               u.is_superuser AS "isSuperuser", tn.id AS "tenancyId", tn.tenancy_id AS reference,
               p.id AS "propertyId", p.number AS "propertyNumber", ap.apartment, ap.address,
               tn.start::text AS start, tn."end"::text AS "end"
        FROM found JOIN users u ON u.id = found.id
        JOIN tenancy_members tm ON tm.user_id = u.id
        JOIN tenancies tn ON tn.id = tm.tenancy_id
        JOIN apartments ap ON ap.id = tn.apartment_id
        JOIN properties p ON p.id = ap.property_id
        WHERE ${inScope(scope)}
        ORDER BY lower(u.email), tn.start DESC, tn.id`,
  );
  const byUser = new Map<number, SupportTenantView>();
  for (const r of rows) {
    let tenant = byUser.get(r.userId);
    if (!tenant) {
      tenant = {
        id: r.userId,
        email: r.email,
        name: r.name,
        isActive: r.isActive,
        canImpersonate: r.isActive && !r.isAdmin && !r.isSuperuser,
        privileged: r.isAdmin || r.isSuperuser,
        tenancies: [],
      };
      byUser.set(r.userId, tenant);
    }
    tenant.tenancies.push({
      id: r.tenancyId,
      reference: r.reference,
      propertyId: r.propertyId,
      propertyNumber: r.propertyNumber,
      apartment: r.apartment,
      address: r.address,
      start: r.start,
      end: r.end,
    });
  }
  return [...byUser.values()];
}

/** Tenants whose email, name, flat, flat address or tenancy reference contains the text. */
export async function searchTenants(
  db: Db,
  scope: OperatorScope,
  query: string,
  first: number,
): Promise<SupportTenantView[]> {
  const text = query.trim();
  if (text.length < 2) throw opsError('SEARCH_TOO_SHORT', 'Type at least 2 characters');
  if (text.length > 200) throw badInput('query must be at most 200 characters');
  if (!Number.isInteger(first) || first < 1 || first > SEARCH_MAX)
    throw badInput(`first must be 1–${SEARCH_MAX}`);
  const pattern = `%${escapeLike(text)}%`;
  return tenantsWhere(
    db,
    scope,
    sql`u.email ILIKE ${pattern} OR u.name ILIKE ${pattern} OR ap.address ILIKE ${pattern}
        OR ap.apartment ILIKE ${pattern} OR tn.tenancy_id ILIKE ${pattern}`,
    first,
  );
}

/** One tenant of the caller's properties; FORBIDDEN for anyone else and for ids that are not ours or not ids. */
async function requireTenant(db: Db, scope: OperatorScope, rawId: string): Promise<SupportTenantView> {
  if (!/^\d{1,9}$/.test(rawId)) throw forbidden();
  const [tenant] = await tenantsWhere(db, scope, sql`u.id = ${Number(rawId)}`, 1);
  if (!tenant) throw forbidden();
  return tenant;
}

/** A support reason: 5–500 characters after trimming; REASON_REQUIRED otherwise. */
function reasonOf(raw: string): string {
  const reason = raw.trim();
  if (reason.length < 5 || reason.length > 500)
    throw opsError('REASON_REQUIRED', 'Give a reason of 5 to 500 characters');
  return reason;
}

/** An impersonation link for a tenant of the caller's properties, recorded and audited with its reason. */
export async function startImpersonation(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  appUrl: string,
  userId: string,
  rawReason: string,
) {
  const reason = reasonOf(rawReason);
  const tenant = await requireTenant(db, scope, userId);
  if (!tenant.isActive) throw opsError('TENANT_DEACTIVATED', 'The account is deactivated');
  if (!tenant.canImpersonate)
    throw opsError('CANNOT_IMPERSONATE', 'Accounts with operator rights cannot be impersonated');
  const issued = await issueImpersonationLink(db, appUrl, tenant.email, scope.email, reason, (tx) =>
    recordAudit(tx, who, {
      action: 'impersonation.start',
      subjectType: 'user',
      subjectId: tenant.id,
      propertyId: tenant.tenancies[0]?.propertyId ?? null,
      reason,
      after: { email: tenant.email, tenancies: tenant.tenancies.map((t) => t.reference) },
    }),
  );
  return { link: issued.link, expiresAt: issued.expiresAt.toISOString(), minutes: issued.minutes };
}

/** Deactivates or reactivates a tenant's account (organisation admins; every tenancy in the organisation). */
export async function setTenantActive(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  userId: string,
  active: boolean,
  rawReason: string,
): Promise<SupportTenantView> {
  assertOrgAdmin(scope);
  const reason = reasonOf(rawReason);
  const tenant = await requireTenant(db, scope, userId);
  if (tenant.privileged)
    throw opsError('CANNOT_IMPERSONATE', 'Accounts with operator rights are managed as operators');
  const [elsewhere] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM tenancy_members tm
        JOIN tenancies tn ON tn.id = tm.tenancy_id
        JOIN apartments ap ON ap.id = tn.apartment_id
        JOIN properties p ON p.id = ap.property_id
        WHERE tm.user_id = ${tenant.id} AND p.account_id <> ${scope.accountId}`,
  );
  if ((elsewhere?.n ?? 0) > 0)
    throw opsError(
      'TENANT_OF_ANOTHER_ORGANISATION',
      'The tenant also rents from another organisation; ask them or that organisation',
    );
  if (tenant.isActive === active) return tenant;
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ isActive: active, updatedAt: new Date() })
      .where(and(eq(users.id, tenant.id), eq(users.isAdmin, false), eq(users.isSuperuser, false)));
    if (!active) await endAllSessions(tx, tenant.id);
    await recordAudit(tx, who, {
      action: active ? 'tenant.reactivate' : 'tenant.deactivate',
      subjectType: 'user',
      subjectId: tenant.id,
      propertyId: tenant.tenancies[0]?.propertyId ?? null,
      reason,
      before: { isActive: tenant.isActive },
      after: { isActive: active },
    });
  });
  return { ...tenant, isActive: active, canImpersonate: active };
}
