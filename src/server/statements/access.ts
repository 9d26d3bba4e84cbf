/**
 * Reading statements as a user: only through a tenancy the user is a member of. Another tenant's statement
 * and an id that does not exist look the same (null), so ids cannot be probed.
 */
import { and, desc, eq, exists, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  accounts,
  allocationStatements,
  apartments,
  properties,
  tenancies,
  tenancyMembers,
} from '../db/schema.ts';
import type { PreviousStatement } from './extras.ts';
import type { StatementDetails } from './model.ts';
import type { StatementDocument } from './pdf.ts';

/** Where a statement's PDF is downloaded (with the account backend's bearer token). */
export const statementPdfPath = (id: number) => `/api/statements/${id}/pdf`;

/** The file name offered for a statement's PDF. */
export function statementFileName(s: { tenancyRef: string; periodStart: string; periodEnd: string }): string {
  return `statement-${s.tenancyRef.replace(/[^\w-]+/g, '_')}-${s.periodStart}-${s.periodEnd}.pdf`;
}

/** A member's statements of a tenancy, newest period first; null when the user is not a member. */
export async function tenancyStatements(db: Db, userId: number, tenancyId: number) {
  const [member] = await db
    .select({ ref: tenancies.tenancyId })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .where(and(eq(tenancyMembers.userId, userId), eq(tenancyMembers.tenancyId, tenancyId)));
  if (!member) return null;
  const rows = await db
    .select()
    .from(allocationStatements)
    .where(eq(allocationStatements.tenancyId, tenancyId))
    .orderBy(desc(allocationStatements.periodEnd), desc(allocationStatements.id));
  return rows.map((row) => ({ ...row, tenancyRef: member.ref, details: row.details as StatementDetails }));
}

/** Whether any tenancy of the user has a statement (SPEC §3 accountHasStatements). */
export async function userHasStatements(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: tenancyMembers.tenancyId })
    .from(tenancyMembers)
    .where(
      and(
        eq(tenancyMembers.userId, userId),
        exists(
          db
            .select({ id: allocationStatements.id })
            .from(allocationStatements)
            .where(eq(allocationStatements.tenancyId, tenancyMembers.tenancyId)),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Everything the PDF needs, if the user is a member of the statement's tenancy; else null. */
export async function statementDocument(
  db: Db,
  userId: number,
  statementId: number,
): Promise<StatementDocument | null> {
  const [row] = await db
    .select({
      statement: allocationStatements,
      tenant: tenancies.tenant,
      tenancyRef: tenancies.tenancyId,
      address: apartments.address,
      zipcode: apartments.zipcode,
      city: apartments.city,
      landlord: accounts.name,
      landlordEmail: properties.contactEmail,
      landlordPhone: properties.contactPhone,
      propertyId: properties.id,
      apartmentId: apartments.id,
      country: properties.country,
    })
    .from(allocationStatements)
    .innerJoin(tenancies, eq(tenancies.id, allocationStatements.tenancyId))
    .innerJoin(
      tenancyMembers,
      and(eq(tenancyMembers.tenancyId, tenancies.id), eq(tenancyMembers.userId, userId)),
    )
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .innerJoin(accounts, eq(accounts.id, properties.accountId))
    .where(eq(allocationStatements.id, statementId));
  if (!row) return null;
  const { statement, ...rest } = row;
  return { ...statement, ...rest, details: statement.details as StatementDetails };
}

/** The tenancy's statement of the period that ends the day before `periodStart`, for the year-on-year comparison. */
export async function previousStatement(
  db: Db,
  tenancyId: number,
  periodStart: string,
): Promise<PreviousStatement | null> {
  const [row] = await db
    .select({
      periodStart: allocationStatements.periodStart,
      periodEnd: allocationStatements.periodEnd,
      details: allocationStatements.details,
    })
    .from(allocationStatements)
    .where(
      and(
        eq(allocationStatements.tenancyId, tenancyId),
        eq(allocationStatements.periodEnd, sql`(${periodStart}::date - 1)`),
      ),
    )
    .orderBy(desc(allocationStatements.id))
    .limit(1);
  return row ? { ...row, details: row.details as StatementDetails } : null;
}

/** What a statement's meter readings and CO₂ split need: its flat, the property's country, period and details. */
export async function statementBasis(db: Db, statementId: number) {
  const [row] = await db
    .select({
      apartmentId: tenancies.apartmentId,
      country: properties.country,
      periodStart: allocationStatements.periodStart,
      periodEnd: allocationStatements.periodEnd,
      details: allocationStatements.details,
    })
    .from(allocationStatements)
    .innerJoin(tenancies, eq(tenancies.id, allocationStatements.tenancyId))
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .where(eq(allocationStatements.id, statementId));
  return row ? { ...row, details: row.details as StatementDetails } : null;
}
