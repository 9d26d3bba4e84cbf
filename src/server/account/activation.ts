/** Activation codes (SPEC §5): 12 letters, dashes stripped; each admits one user to one tenancy, once. */
import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { GraphQLError } from 'graphql';
import { validateActivationCodeFormat } from '../../lib/validation.ts';
import type { Db } from '../db/client.ts';
import { activationCodes, invitations, tenancyMembers } from '../db/schema.ts';
import { activationCodeInvalid, tenancyUserExists } from './errors.ts';

/** How long a new code can be used. */
export const ACTIVATION_CODE_TTL_DAYS = 30;

/** A new random 12-letter code (A–Z, from the CSPRNG). */
function newActivationCode(): string {
  let code = '';
  for (let i = 0; i < 12; i++) code += String.fromCharCode(65 + randomInt(26));
  return code;
}

/** Creates and stores a new code for a tenancy; returns it with its expiry. */
export async function createActivationCode(
  db: Pick<Db, 'insert'>,
  tenancyId: number,
  now: Date = new Date(),
): Promise<{ code: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + ACTIVATION_CODE_TTL_DAYS * 86_400_000);
  const code = newActivationCode();
  await db.insert(activationCodes).values({ code, tenancyId, expiresAt });
  return { code, expiresAt };
}

/** The usable code row, or the SPEC §8 error to give: invalid (unknown, expired, malformed) or already used. */
export async function checkActivationCode(
  db: Pick<Db, 'select'>,
  raw: string,
  userId: number | null,
  now: Date = new Date(),
): Promise<{ ok: true; code: string; tenancyId: number } | { ok: false; error: GraphQLError }> {
  const format = validateActivationCodeFormat(raw.slice(0, 64));
  if (!format.ok) return { ok: false, error: activationCodeInvalid() };
  const [row] = await db.select().from(activationCodes).where(eq(activationCodes.code, format.code));
  if (!row || (row.expiresAt && row.expiresAt <= now)) return { ok: false, error: activationCodeInvalid() };
  if (row.usedAt) return { ok: false, error: tenancyUserExists() };
  if (userId !== null) {
    const [member] = await db
      .select({ userId: tenancyMembers.userId })
      .from(tenancyMembers)
      .where(and(eq(tenancyMembers.tenancyId, row.tenancyId), eq(tenancyMembers.userId, userId)));
    if (member) return { ok: false, error: tenancyUserExists() };
  }
  return { ok: true, code: row.code, tenancyId: row.tenancyId };
}

/**
 * Spends the code and adds the user to its tenancy, in one transaction. The first user of a tenancy with
 * no admin becomes its admin. Of two concurrent uses only one wins; the other gets "already used".
 */
export async function redeemActivationCode(db: Db, code: string, tenancyId: number, userId: number) {
  await db.transaction(async (tx) => {
    const now = new Date();
    const [spent] = await tx
      .update(activationCodes)
      .set({ usedAt: now, usedByUserId: userId })
      .where(and(eq(activationCodes.code, code), isNull(activationCodes.usedAt)))
      .returning({ code: activationCodes.code });
    if (!spent) throw tenancyUserExists();
    const [admin] = await tx
      .select({ userId: tenancyMembers.userId })
      .from(tenancyMembers)
      .where(and(eq(tenancyMembers.tenancyId, tenancyId), eq(tenancyMembers.isAdmin, true)))
      .limit(1);
    await tx.insert(tenancyMembers).values({ tenancyId, userId, isAdmin: !admin });
    await tx
      .update(invitations)
      .set({ acceptedAt: now })
      .where(and(eq(invitations.activationCode, code), isNull(invitations.acceptedAt)));
  });
}
