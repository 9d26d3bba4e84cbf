/**
 * The audit log: every operator write (who, when, what, before and after), impersonations and views of a
 * tenant's data. Entries are only ever inserted; the database refuses UPDATE, DELETE and TRUNCATE (migration
 * 0008's trigger). Write an entry in the same transaction as the change it records.
 */
import { and, desc, eq, gte, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { badInput } from '../graphql/errors.ts';
import type { OperatorScope } from './scope.ts';

/** Who did it: an operator of the console, or the CLI (`cli:<os user>`). */
export type Actor =
  | { operatorId: number; actor: string; accountId: number }
  | { operatorId: null; actor: string };

/** The actor of a console call. */
export const actorOf = (scope: OperatorScope): Actor => ({
  operatorId: scope.userId,
  actor: scope.email,
  accountId: scope.accountId,
});

export interface AuditRecord {
  action: string;
  subjectType: string;
  subjectId: string | number;
  propertyId?: number | null;
  /** Defaults to the actor's organisation. */
  accountId?: number | null;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Appends one entry. */
export async function recordAudit(db: Pick<Db, 'insert'>, who: Actor, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    operatorId: who.operatorId,
    actor: who.actor,
    action: record.action,
    subjectType: record.subjectType,
    subjectId: String(record.subjectId),
    propertyId: record.propertyId ?? null,
    accountId: record.accountId ?? ('accountId' in who ? who.accountId : null),
    reason: record.reason ?? null,
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

export interface AuditQuery {
  search?: string | null;
  actor?: string | null;
  action?: string | null;
  propertyId?: number | null;
  from?: Date | null;
  to?: Date | null;
  /** Entries older than this id (the previous page's cursor). */
  beforeId?: number | null;
  limit: number;
}

/** An ISO date or instant from a filter; BAD_USER_INPUT otherwise. */
export function parseInstant(raw: string | null | undefined, name: string): Date | null {
  if (!raw) return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(`${raw}T00:00:00Z`) : new Date(raw);
  if (Number.isNaN(date.getTime())) throw badInput(`${name} must be an ISO date or instant`);
  return date;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The entries a scope may read: its organisation's, and for a property manager only their properties'. */
function scopeWhere(scope: OperatorScope): SQL[] {
  const where: SQL[] = [eq(auditLog.accountId, scope.accountId)];
  if (scope.propertyIds !== null) where.push(inArray(auditLog.propertyId, [...scope.propertyIds, -1]));
  return where;
}

/** The distinct actors and actions of the entries the scope may read, sorted (the audit page's filter choices). */
export async function auditFacets(db: Db, scope: OperatorScope) {
  const where = and(...scopeWhere(scope));
  const [actors, actions] = await Promise.all([
    db.selectDistinct({ v: auditLog.actor }).from(auditLog).where(where).orderBy(auditLog.actor),
    db.selectDistinct({ v: auditLog.action }).from(auditLog).where(where).orderBy(auditLog.action),
  ]);
  return { actors: actors.map((r) => r.v), actions: actions.map((r) => r.v) };
}

/**
 * The entries the scope may read, newest first: an organisation admin reads the organisation's entries, a
 * property manager only those of their properties.
 */
export async function readAudit(db: Db, scope: OperatorScope, query: AuditQuery) {
  const where = scopeWhere(scope);
  if (query.propertyId != null) where.push(eq(auditLog.propertyId, query.propertyId));
  if (query.actor?.trim()) where.push(ilike(auditLog.actor, escapeLike(query.actor.trim())));
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.from) where.push(gte(auditLog.at, query.from));
  if (query.to) where.push(lt(auditLog.at, query.to));
  if (query.beforeId != null) where.push(lt(auditLog.id, query.beforeId));
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    where.push(
      or(
        ilike(auditLog.actor, pattern),
        ilike(auditLog.action, pattern),
        ilike(auditLog.subjectId, pattern),
        ilike(auditLog.reason, pattern),
      )!,
    );
  }
  return db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(query.limit);
}
