/**
 * The read side of the console's invitations (invitations.ts): where each stands (sent, queued, failed, no address,
 * activated, revoked, expired, read from its code and its outbox row), and the delivery report.
 */
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { activationCodes, mailOutbox, operatorInvitations, properties, tenancies } from '../db/schema.ts';
import { badInput } from '../graphql/errors.ts';
import type { OperatorScope } from './scope.ts';
import type { InvitationStatus } from './types.generated.ts';

/** Most lines one bulk upload may have, and most rows one report lists. */
export const BULK_MAX_LINES = 5000;

export interface InvitationView {
  id: number;
  tenancyId: number;
  tenancyReference: string;
  propertyId: number;
  email: string | null;
  activationCode: string | null;
  status: InvitationStatus;
  error: string | null;
  line: number | null;
  batchId: number | null;
  createdAt: string;
  lastSentAt: string | null;
  expiresAt: string | null;
}

/** Where an invitation stands, from its row, its code and its outbox row. */
function statusOf(
  row: { email: string | null; revokedAt: Date | null; mailError: string | null },
  code: { usedAt: Date | null; expiresAt: Date | null } | null,
  sentAt: Date | null,
  now: Date,
): InvitationStatus {
  if (code?.usedAt) return 'ACTIVATED';
  if (row.revokedAt) return 'REVOKED';
  if (!code || (code.expiresAt && code.expiresAt <= now)) return 'EXPIRED';
  if (row.email === null) return 'NO_ADDRESS';
  if (sentAt) return 'SENT';
  if (row.mailError) return 'FAILED';
  return 'QUEUED';
}

/** The invitations the scope reaches, newest first (one statement). */
export async function invitationViews(
  db: Db,
  scope: OperatorScope,
  filter: { propertyId?: number; batchId?: number; ids?: number[]; limit: number },
): Promise<InvitationView[]> {
  const where: SQL[] = [eq(properties.accountId, scope.accountId)];
  if (scope.propertyIds !== null)
    where.push(inArray(operatorInvitations.propertyId, [...scope.propertyIds, -1]));
  if (filter.propertyId !== undefined) where.push(eq(operatorInvitations.propertyId, filter.propertyId));
  if (filter.batchId !== undefined) where.push(eq(operatorInvitations.batchId, filter.batchId));
  if (filter.ids) where.push(inArray(operatorInvitations.id, [...filter.ids, -1]));
  const rows = await db
    .select({
      row: operatorInvitations,
      reference: tenancies.tenancyId,
      usedAt: activationCodes.usedAt,
      expiresAt: activationCodes.expiresAt,
      code: activationCodes.code,
      sentAt: mailOutbox.sentAt,
    })
    .from(operatorInvitations)
    .innerJoin(properties, eq(properties.id, operatorInvitations.propertyId))
    .innerJoin(tenancies, eq(tenancies.id, operatorInvitations.tenancyId))
    .leftJoin(activationCodes, eq(activationCodes.code, operatorInvitations.activationCode))
    .leftJoin(mailOutbox, eq(mailOutbox.id, operatorInvitations.mailOutboxId))
    .where(and(...where))
    .orderBy(desc(operatorInvitations.id))
    .limit(filter.limit);
  const now = new Date();
  return rows.map(({ row, reference, usedAt, expiresAt, code, sentAt }) => {
    const status = statusOf(row, code ? { usedAt, expiresAt } : null, sentAt, now);
    return {
      id: row.id,
      tenancyId: row.tenancyId,
      tenancyReference: reference,
      propertyId: row.propertyId,
      email: row.email,
      activationCode: ['ACTIVATED', 'REVOKED', 'EXPIRED'].includes(status) ? null : row.activationCode,
      status,
      error: status === 'FAILED' ? row.mailError : null,
      line: row.line,
      batchId: row.batchId,
      createdAt: row.createdAt.toISOString(),
      lastSentAt: row.lastSentAt?.toISOString() ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
    };
  });
}

/** Counts per status, with the rows. */
export function report(batchId: number | null, rows: InvitationView[]) {
  const count = (s: InvitationStatus) => rows.filter((r) => r.status === s).length;
  return {
    batchId,
    sent: count('SENT'),
    queued: count('QUEUED'),
    failed: count('FAILED'),
    noAddress: count('NO_ADDRESS'),
    activated: count('ACTIVATED'),
    revoked: count('REVOKED'),
    expired: count('EXPIRED'),
    invitations: rows,
  };
}

/** Rows of the invitations query: a property's (reached), one batch's, or all the scope reaches. */
export async function listInvitations(
  db: Db,
  scope: OperatorScope,
  args: { propertyId?: number; batchId?: string | null; first?: number | null },
) {
  const limit = args.first ?? 200;
  if (!Number.isInteger(limit) || limit < 1 || limit > BULK_MAX_LINES)
    throw badInput(`first must be 1–${BULK_MAX_LINES}`);
  const batchId = args.batchId ? (/^\d{1,9}$/.test(args.batchId) ? Number(args.batchId) : -1) : undefined;
  const views = await invitationViews(db, scope, { propertyId: args.propertyId, batchId, limit });
  return report(batchId ?? null, views);
}
