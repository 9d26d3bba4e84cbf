/** What the operator CLI does for accounts: activation codes, invitations, deactivation. */
import { and, eq, isNull } from 'drizzle-orm';
import { validateEmail } from '../../lib/validation.ts';
import type { Db } from '../db/client.ts';
import { invitations, tenancies, tenancyMembers, users } from '../db/schema.ts';
import type { MailServices } from '../mail/mailer.ts';
import { createActivationCode } from './activation.ts';
import { mailInvitation } from './invitations.ts';
import { endAllSessions } from './session.ts';

/** A mistake in what the operator typed; the CLI prints the message and exits 1. */
export class OperatorError extends Error {}

/** A tenancy by the landlord's reference (e.g. T-1001-3), or by its numeric id. */
async function findTenancy(db: Db, ref: string) {
  const [byRef] = await db.select().from(tenancies).where(eq(tenancies.tenancyId, ref));
  if (byRef) return byRef;
  if (/^\d{1,9}$/.test(ref)) {
    const [byId] = await db
      .select()
      .from(tenancies)
      .where(eq(tenancies.id, Number(ref)));
    if (byId) return byId;
  }
  throw new OperatorError(`No tenancy "${ref}" (give the landlord's tenancy reference or the numeric id).`);
}

/** Prints nothing; returns a new 12-letter code for the tenancy. */
export async function issueActivationCode(db: Db, ref: string) {
  const tenancy = await findTenancy(db, ref);
  return { tenancy, ...(await createActivationCode(db, tenancy.id)) };
}

/** Invites an email to a tenancy (as the landlord) and mails the code link. */
export async function inviteAsOperator(
  services: MailServices & { config: { APP_URL: string } },
  db: Db,
  ref: string,
  rawEmail: string,
) {
  const email = rawEmail.trim().toLowerCase();
  if (validateEmail(email) !== null) throw new OperatorError(`"${rawEmail}" is not a valid email address.`);
  const tenancy = await findTenancy(db, ref);
  const [member] = await db
    .select({ userId: users.id })
    .from(tenancyMembers)
    .innerJoin(users, eq(users.id, tenancyMembers.userId))
    .where(and(eq(tenancyMembers.tenancyId, tenancy.id), eq(users.email, email)));
  if (member) throw new OperatorError(`${email} is already on tenancy ${tenancy.tenancyId}.`);
  const [pending] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.tenancyId, tenancy.id),
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
      ),
    );
  if (pending) throw new OperatorError(`${email} already has a pending invitation to ${tenancy.tenancyId}.`);
  const { invitation, expiresAt } = await db.transaction(async (tx) => {
    const { code, expiresAt } = await createActivationCode(tx, tenancy.id);
    const [invitation] = await tx
      .insert(invitations)
      .values({ tenancyId: tenancy.id, email, activationCode: code })
      .returning();
    return { invitation: invitation!, expiresAt };
  });
  await mailInvitation(services, db, invitation, null, expiresAt);
  return { tenancy, code: invitation.activationCode, expiresAt, email };
}

/** Deactivates a user: refused on every request from now on, every session ended. */
export async function deactivateUser(db: Db, rawEmail: string) {
  const email = rawEmail.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ isActive: false, updatedAt: new Date() })
      .where(eq(users.email, email))
      .returning({ id: users.id, email: users.email });
    if (!user) throw new OperatorError(`No user with the email ${rawEmail}.`);
    await endAllSessions(tx, user.id);
    return user;
  });
}
