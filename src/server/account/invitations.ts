/** Invitations: an activation code for the tenancy, mailed to an address in the recipient's language. */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apartments, type invitations, tenancies, users } from '../db/schema.ts';
import { type MailServices, type SendResult, sendMail } from '../mail/mailer.ts';
import { renderMail } from '../mail/messages.ts';

/** The link in an invitation: signup with the code, which SPEC §3 keeps as the pending code. */
function invitationLink(appUrl: string, code: string): string {
  const link = new URL('/signup', appUrl);
  link.searchParams.set('activationCode', code);
  return link.toString();
}

/**
 * Mails an invitation; the language is the invitee's when they have an account, else the inviter's, else
 * `fallbackLanguage` (the console passes the property's country's).
 */
export async function mailInvitation(
  services: MailServices & { config: { APP_URL: string } },
  db: Db,
  invitation: { email: string; activationCode: string; tenancyId: number },
  inviter: { name: string; email: string; language: string } | null,
  expiresAt: Date,
  fallbackLanguage = 'en',
): Promise<SendResult> {
  const [tenancy] = await db
    .select({ address: apartments.address, zipcode: apartments.zipcode, city: apartments.city })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .where(eq(tenancies.id, invitation.tenancyId));
  const [invitee] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.email, invitation.email));
  const language = invitee?.language ?? inviter?.language ?? fallbackLanguage;
  const address = tenancy ? `${tenancy.address}, ${tenancy.zipcode} ${tenancy.city}` : '';
  const mail = renderMail('invite', language, {
    inviter: inviter ? inviter.name || inviter.email : address,
    address,
    link: invitationLink(services.config.APP_URL, invitation.activationCode),
    code: invitation.activationCode,
    expires: expiresAt.toISOString().slice(0, 10),
  });
  return sendMail(services, invitation.email, mail);
}

/** The GraphQL shape of an invitation row. */
export function invitationShape(row: typeof invitations.$inferSelect) {
  return {
    id: String(row.id),
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    lastSentAt: row.lastSentAt.toISOString(),
  };
}
