/**
 * Invitations from the console (issue 21): an activation code for a tenancy, mailed when there is an address,
 * one at a time or in bulk from a CSV of tenancy and email; a delivery report (sent, queued, failed, no address,
 * activated, revoked, expired); resend, and revoke an unused code. Mail goes through the app's one mail path
 * (mailer.ts: the outbox, SMTP, the send-mail job's retries), so "sent" is read from the outbox row.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { normalizeEmail, validateEmail } from '../../lib/validation.ts';
import { createActivationCode } from '../account/activation.ts';
import { mailInvitation } from '../account/invitations.ts';
import type { Db } from '../db/client.ts';
import {
  activationCodes,
  apartments,
  operatorInvitations,
  properties,
  tenancies,
  users,
} from '../db/schema.ts';
import { badInput, forbidden } from '../graphql/errors.ts';
import type { MailServices } from '../mail/mailer.ts';
import { type Actor, recordAudit } from './audit.ts';
import { BULK_MAX_LINES, type InvitationView, invitationViews, report } from './invitationViews.ts';
import { opsError } from './opsErrors.ts';
import { type OperatorScope, reaches } from './scope.ts';
import { requireTenancy } from './tenancies.ts';

// The invitations query and its row type, for the resolvers (operations.ts) that import them from here.
export { type InvitationView, listInvitations } from './invitationViews.ts';

export type InvitationServices = MailServices & { config: { APP_URL: string } };

const LANGUAGE_OF_COUNTRY: Record<string, string> = { DK: 'da', NO: 'nb' };

/** Why an address cannot be mailed, or null. */
async function addressProblem(db: Db, email: string): Promise<string | null> {
  if (validateEmail(email) !== null) return 'not a valid email address';
  const [operator] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), eq(users.isAdmin, true)));
  return operator ? 'the address belongs to an operator of the console' : null;
}

/** Mails one invitation row now and records the outcome on it. */
async function send(
  services: InvitationServices,
  db: Db,
  row: { id: number; tenancyId: number; email: string; activationCode: string },
  expiresAt: Date,
  language: string,
) {
  const problem = await addressProblem(db, row.email);
  if (problem) {
    await db
      .update(operatorInvitations)
      .set({ mailError: problem, mailOutboxId: null })
      .where(eq(operatorInvitations.id, row.id));
    return;
  }
  const result = await mailInvitation(services, db, row, null, expiresAt, language);
  await db
    .update(operatorInvitations)
    .set({ mailOutboxId: result.outboxId, mailError: result.error, lastSentAt: new Date() })
    .where(eq(operatorInvitations.id, row.id));
}

const languageOf = async (db: Db, propertyId: number) => {
  const [p] = await db
    .select({ country: properties.country })
    .from(properties)
    .where(eq(properties.id, propertyId));
  return LANGUAGE_OF_COUNTRY[p?.country ?? ''] ?? 'en';
};

/** Whether a tenancy may still be invited to: it has not ended before today. */
function assertInvitable(tenancy: { end: string | null; tenancyId: string }) {
  if (tenancy.end !== null && tenancy.end < new Date().toISOString().slice(0, 10))
    throw badInput(`Tenancy ${tenancy.tenancyId} has ended: no one can be invited to it`);
}

/** One invitation: a new code, mailed when an email is given; audited. */
export async function inviteTenant(
  services: InvitationServices,
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { tenancyId: string; email?: string | null },
): Promise<InvitationView> {
  const { tenancy, apartment } = await requireTenancy(db, scope, input.tenancyId);
  assertInvitable(tenancy);
  const email = input.email ? normalizeEmail(input.email).toLowerCase() : null;
  if (email !== null && validateEmail(email) !== null) throw badInput('email: not a valid email address');
  const { id, code, expiresAt } = await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const { code, expiresAt } = await createActivationCode(tx, tenancy.id);
    const [row] = await tx
      .insert(operatorInvitations)
      .values({
        tenancyId: tenancy.id,
        propertyId: apartment.propertyId,
        email,
        activationCode: code,
        createdBy: who.actor,
      })
      .returning({ id: operatorInvitations.id });
    await recordAudit(tx, who, {
      action: 'invitation.create',
      subjectType: 'tenancy',
      subjectId: tenancy.id,
      propertyId: apartment.propertyId,
      after: { invitation: row!.id, email },
    });
    return { id: row!.id, code, expiresAt };
  });
  if (email !== null)
    await send(
      services,
      db,
      { id, tenancyId: tenancy.id, email, activationCode: code },
      expiresAt,
      await languageOf(db, apartment.propertyId),
    );
  return (await invitationViews(db, scope, { ids: [id], limit: 1 }))[0]!;
}

interface CsvLine {
  line: number;
  reference: string;
  email: string;
}

/** The CSV's lines, or its problems (each with its line; the header is line 1). */
function parseInviteCsv(text: string): { lines: CsvLine[]; problems: { line: number; message: string }[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (err) {
    if (err instanceof CsvError) {
      const line = Number((err as CsvError & { lines?: number }).lines ?? 0);
      return { lines: [], problems: [{ line, message: `malformed CSV: ${err.message}` }] };
    }
    throw err;
  }
  const [header, ...body] = records;
  const names = header?.record.map((c) => c.toLowerCase()) ?? [];
  const tenancyCol = names.findIndex((n) => ['tenancy', 'tenancy_id', 'reference'].includes(n));
  const emailCol = names.indexOf('email');
  if (tenancyCol < 0 || emailCol < 0)
    return {
      lines: [],
      problems: [{ line: 1, message: 'the header must name the columns tenancy and email' }],
    };
  if (body.length === 0) return { lines: [], problems: [{ line: 2, message: 'no invitations in the file' }] };
  if (body.length > BULK_MAX_LINES)
    return { lines: [], problems: [{ line: 1, message: `at most ${BULK_MAX_LINES} invitations per file` }] };
  return {
    lines: body.map((r) => ({
      line: r.info.lines,
      reference: r.record[tenancyCol] ?? '',
      email: (r.record[emailCol] ?? '').toLowerCase(),
    })),
    problems: [],
  };
}

interface CreatedRow {
  id: number;
  tenancyId: number;
  propertyId: number;
  email: string | null;
  code: string;
  expiresAt: Date;
}

/**
 * A bulk upload: every line is checked first (the tenancy exists, is reachable and has not ended, and appears
 * once); any problem refuses the whole file and creates nothing. Then each line gets a code, and a mail when it
 * has an address; a bad address does not stop the others: it is reported as failed.
 */
export async function bulkInvite(
  services: InvitationServices,
  db: Db,
  scope: OperatorScope,
  who: Actor,
  csv: string,
) {
  if (csv.length > 2_000_000) throw badInput('The file is larger than 2 MB');
  const parsed = parseInviteCsv(csv);
  if (parsed.problems.length > 0) return { report: null, problems: parsed.problems };
  const problems: { line: number; message: string }[] = [];
  const refs = [...new Set(parsed.lines.map((l) => l.reference))];
  const found = await db
    .select({ tenancy: tenancies, propertyId: apartments.propertyId, accountId: properties.accountId })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .where(inArray(tenancies.tenancyId, refs.length ? refs : ['']));
  const byRef = new Map(found.map((f) => [f.tenancy.tenancyId, f]));
  const seen = new Set<string>();
  const today = new Date().toISOString().slice(0, 10);
  for (const l of parsed.lines) {
    const t = byRef.get(l.reference);
    if (!l.reference) problems.push({ line: l.line, message: 'no tenancy' });
    else if (!t || !reaches(scope, { id: t.propertyId, accountId: t.accountId }))
      problems.push({ line: l.line, message: `no tenancy ${l.reference} in your properties` });
    else if (t.tenancy.end !== null && t.tenancy.end < today)
      problems.push({ line: l.line, message: `tenancy ${l.reference} has ended` });
    const key = `${l.reference}\u0000${l.email}`;
    if (seen.has(key)) problems.push({ line: l.line, message: 'the same tenancy and email appear twice' });
    seen.add(key);
  }
  if (problems.length > 0) return { report: null, problems };
  const created = await db.transaction(async (txn): Promise<{ batchId: number; rows: CreatedRow[] }> => {
    const tx = txn as unknown as Db;
    const rows: CreatedRow[] = [];
    // The batch's id is its first row's (a holder object: the loop's flow analysis stays simple).
    const batch: { id: number | null } = { id: null };
    for (const l of parsed.lines) {
      const t = byRef.get(l.reference)!;
      const { code, expiresAt } = await createActivationCode(tx, t.tenancy.id);
      const [row] = await tx
        .insert(operatorInvitations)
        .values({
          tenancyId: t.tenancy.id,
          propertyId: t.propertyId,
          batchId: batch.id,
          line: l.line,
          email: l.email || null,
          activationCode: code,
          createdBy: who.actor,
        })
        .returning({ id: operatorInvitations.id });
      if (batch.id === null) {
        batch.id = row!.id;
        await tx
          .update(operatorInvitations)
          .set({ batchId: batch.id })
          .where(eq(operatorInvitations.id, batch.id));
      }
      rows.push({
        id: row!.id,
        tenancyId: t.tenancy.id,
        propertyId: t.propertyId,
        email: l.email || null,
        code,
        expiresAt,
      });
    }
    await recordAudit(tx, who, {
      action: 'invitation.bulk',
      subjectType: 'invitation_batch',
      subjectId: batch.id!,
      propertyId: new Set(found.map((f) => f.propertyId)).size === 1 ? found[0]!.propertyId : null,
      after: { lines: rows.length, withAddress: rows.filter((r) => r.email).length },
    });
    return { batchId: batch.id!, rows };
  });
  const languages = new Map<number, string>();
  for (const r of created.rows) {
    if (r.email === null) continue;
    const { propertyId } = r;
    if (!languages.has(propertyId)) languages.set(propertyId, await languageOf(db, propertyId));
    await send(
      services,
      db,
      { id: r.id, tenancyId: r.tenancyId, email: r.email, activationCode: r.code },
      r.expiresAt,
      languages.get(propertyId)!,
    );
  }
  const views = await invitationViews(db, scope, { batchId: created.batchId, limit: BULK_MAX_LINES });
  return { report: report(created.batchId, views), problems: [] };
}

/** The invitation row, when the scope reaches its property; FORBIDDEN otherwise. */
async function requireInvitation(db: Db, scope: OperatorScope, rawId: string) {
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : null;
  if (id === null) throw forbidden();
  const [view] = await invitationViews(db, scope, { ids: [id], limit: 1 });
  if (!view) throw forbidden();
  return view;
}

/**
 * Mails an invitation again (to a corrected address when given). A used or revoked one is refused; an expired
 * code is replaced by a new one.
 */
export async function resendInvitation(
  services: InvitationServices,
  db: Db,
  scope: OperatorScope,
  who: Actor,
  rawId: string,
  rawEmail?: string | null,
): Promise<InvitationView> {
  const view = await requireInvitation(db, scope, rawId);
  if (view.status === 'ACTIVATED') throw opsError('INVITATION_USED', 'The code was used already');
  if (view.status === 'REVOKED') throw opsError('INVITATION_REVOKED', 'The invitation was revoked');
  const email = rawEmail ? normalizeEmail(rawEmail).toLowerCase() : view.email;
  if (email === null) throw opsError('NO_ADDRESS', 'The invitation has no address: give one');
  if (validateEmail(email) !== null) throw badInput('email: not a valid email address');
  const [tenancy] = await db.select().from(tenancies).where(eq(tenancies.id, view.tenancyId));
  assertInvitable(tenancy!);
  const { code, expiresAt } = await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    let code = view.activationCode;
    let expiresAt = view.expiresAt ? new Date(view.expiresAt) : null;
    if (view.status === 'EXPIRED' || code === null) {
      ({ code, expiresAt } = await createActivationCode(tx, view.tenancyId));
    }
    await tx
      .update(operatorInvitations)
      .set({ email, activationCode: code!, mailError: null, mailOutboxId: null })
      .where(eq(operatorInvitations.id, view.id));
    await recordAudit(tx, who, {
      action: 'invitation.resend',
      subjectType: 'invitation',
      subjectId: view.id,
      propertyId: view.propertyId,
      before: { email: view.email, status: view.status },
      after: { email, newCode: code !== view.activationCode },
    });
    return { code: code!, expiresAt: expiresAt ?? new Date(Date.now() + 30 * 86_400_000) };
  });
  await send(
    services,
    db,
    { id: view.id, tenancyId: view.tenancyId, email, activationCode: code },
    expiresAt,
    await languageOf(db, view.propertyId),
  );
  return (await requireInvitation(db, scope, String(view.id)))!;
}

/** Revokes an unused code: it stops working at once; audited. A used one is refused. */
export async function revokeInvitation(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  rawId: string,
): Promise<InvitationView> {
  const view = await requireInvitation(db, scope, rawId);
  if (view.status === 'ACTIVATED') throw opsError('INVITATION_USED', 'The code was used already');
  if (view.status === 'REVOKED') return view;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const now = new Date();
    const [row] = await tx
      .select({ code: operatorInvitations.activationCode })
      .from(operatorInvitations)
      .where(eq(operatorInvitations.id, view.id));
    // Only while unused: a code spent at this very moment stays spent, and the revocation is refused.
    const spent = await tx
      .update(activationCodes)
      .set({ expiresAt: now })
      .where(and(eq(activationCodes.code, row!.code), isNull(activationCodes.usedAt)))
      .returning({ code: activationCodes.code });
    if (spent.length === 0 && view.status !== 'EXPIRED')
      throw opsError('INVITATION_USED', 'The code was used already');
    await tx.update(operatorInvitations).set({ revokedAt: now }).where(eq(operatorInvitations.id, view.id));
    await recordAudit(tx, who, {
      action: 'invitation.revoke',
      subjectType: 'invitation',
      subjectId: view.id,
      propertyId: view.propertyId,
      before: { status: view.status },
      after: { status: 'REVOKED' },
    });
  });
  return requireInvitation(db, scope, String(view.id));
}
