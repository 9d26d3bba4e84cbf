/**
 * The operators' second factor: TOTP (RFC 6238 through otpauth: SHA-1, 6 digits, 30 s, one step of clock
 * drift either way), each code accepted once, and ten single-use recovery codes kept as SHA-256 hashes.
 */
import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../db/client.ts';
import { operatorRecoveryCodes, operatorTotp } from '../db/schema.ts';

/** The name authenticator apps show above the code. */
const TOTP_ISSUER = 'Tenant App console';
const RECOVERY_CODES = 10;
/** Base32 without look-alikes (no 0/1/8/9, no I/L/O), for codes read from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz234567';

const totpFor = (secret: string, email: string) =>
  new TOTP({ issuer: TOTP_ISSUER, label: email, secret: Secret.fromBase32(secret) });

/** A new secret for the operator, replacing an unconfirmed one; returns what the setup screen shows. */
export async function startTotpSetup(db: Db, user: { id: number; email: string }) {
  const secret = new Secret({ size: 20 }).base32;
  await db
    .insert(operatorTotp)
    .values({ userId: user.id, secret })
    .onConflictDoUpdate({
      target: operatorTotp.userId,
      set: { secret, confirmedAt: null, lastStep: null, createdAt: new Date() },
    });
  const otpauthUri = totpFor(secret, user.email).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { secret, otpauthUri, qrSvg };
}

/** Whether the operator has a confirmed second factor. */
export async function hasConfirmedTotp(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ confirmedAt: operatorTotp.confirmedAt })
    .from(operatorTotp)
    .where(eq(operatorTotp.userId, userId));
  return Boolean(row?.confirmedAt);
}

const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashRecovery = (code: string) =>
  createHash('sha256').update(normaliseRecovery(code)).digest('base64url');

/**
 * Checks a TOTP code against the operator's secret (set up or confirmed): the code's time step must be newer
 * than the last accepted one, so a code works once, also between two concurrent logins. Confirms the factor
 * on its first good code. 'setup' / 'confirmed' say which it was; null: not accepted.
 */
export async function acceptTotp(
  db: Db,
  user: { id: number; email: string },
  code: string,
  now: number = Date.now(),
): Promise<'setup' | 'confirmed' | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const [row] = await db.select().from(operatorTotp).where(eq(operatorTotp.userId, user.id));
  if (!row) return null;
  const totp = totpFor(row.secret, user.email);
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = totp.counter({ timestamp: now }) + delta;
  const [taken] = await db
    .update(operatorTotp)
    .set({ lastStep: step, confirmedAt: row.confirmedAt ?? new Date(now) })
    .where(
      and(
        eq(operatorTotp.userId, user.id),
        eq(operatorTotp.secret, row.secret),
        or(isNull(operatorTotp.lastStep), lt(operatorTotp.lastStep, step)),
      ),
    )
    .returning({ userId: operatorTotp.userId });
  if (!taken) return null;
  return row.confirmedAt ? 'confirmed' : 'setup';
}

/** Spends one of the operator's unused recovery codes; false when none matches. */
export async function acceptRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  if (normaliseRecovery(code).length !== 12) return false;
  const [used] = await db
    .update(operatorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(operatorRecoveryCodes.userId, userId),
        eq(operatorRecoveryCodes.codeHash, hashRecovery(code)),
        isNull(operatorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: operatorRecoveryCodes.id });
  return Boolean(used);
}

/** Ten new recovery codes (`xxxx-xxxx-xxxx`), replacing the operator's old ones; returned once, kept hashed. */
export async function newRecoveryCodes(db: Pick<Db, 'insert' | 'delete'>, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const chars = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return [0, 4, 8].map((i) => chars.slice(i, i + 4).join('')).join('-');
  });
  await db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
  await db
    .insert(operatorRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecovery(code) })));
  return codes;
}
