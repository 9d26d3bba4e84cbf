/** The operator console's backend in the API tests: logging operators in through both factors. */
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../../src/server/db/client.ts';
import { operatorTotp } from '../../../src/server/db/schema.ts';
import type { BackendYoga } from '../../../src/server/graphql/yoga.ts';
import { call } from './accountsApi.ts';

export const A = {
  login: `mutation ($email: String!, $password: String!) { operatorLogin(email: $email, password: $password) { next challenge otpauthUri qrSvg secret } }`,
  second: `mutation ($c: String!, $code: String!) { operatorSecondFactor(challenge: $c, code: $code) { token refreshToken refreshExpiresIn recoveryCodes } }`,
  refresh: `mutation ($t: String!) { refreshToken(refreshToken: $t) { token refreshToken } }`,
  revoke: `mutation ($t: String!) { revokeToken(refreshToken: $t) { revoked } }`,
  me: `{ operatorMe { id email role organisation { id name } propertyIds secondFactorEnabled } }`,
  operators: `{ operators { id email role propertyIds isActive } }`,
  properties: `{ properties { id number } }`,
  property: `query ($id: ID!) { property(id: $id) { id number } }`,
  audit: `query ($f: AuditFilter, $first: Int, $after: ID) { auditLog(filter: $f, first: $first, after: $after) { entries { id actor action subjectType subjectId propertyId before after } nextCursor } }`,
  create: `mutation ($i: CreateOperatorInput!) { createOperator(input: $i) { operator { id email role propertyIds } initialPassword } }`,
  setAccess: `mutation ($u: ID!, $r: OperatorRole!, $p: [ID!]!) { setOperatorAccess(userId: $u, role: $r, propertyIds: $p) { id role propertyIds } }`,
  deactivate: `mutation ($u: ID!) { deactivateOperator(userId: $u) { id isActive } }`,
} as const;

/** The current TOTP code of a base32 secret, at a time (ms). */
export const totpCode = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

/**
 * Logs an operator in through both factors. A code is accepted once per 30-second step, so the test forgets the
 * last accepted step first (a test may log the same operator in several times within one step).
 */
export async function operatorLogin(
  admin: BackendYoga,
  db: Db,
  email: string,
  password: string,
  secrets: Map<string, string>,
  ip = '198.51.100.7',
): Promise<{ token: string; refreshToken: string; recoveryCodes: string[] | null }> {
  const login = await call<{ operatorLogin: { next: string; challenge: string; secret: string | null } }>(
    admin,
    A.login,
    { email, password },
    { ip },
  );
  if (!login.data) throw new Error(`login failed: ${JSON.stringify(login.errors)}`);
  const { next, challenge, secret } = login.data.operatorLogin;
  if (next === 'TOTP_SETUP_REQUIRED') secrets.set(email, secret!);
  const known = secrets.get(email);
  if (!known) throw new Error(`no TOTP secret known for ${email}`);
  await db.update(operatorTotp).set({ lastStep: null }).where(eq(operatorTotp.secret, known));
  const done = await call<{
    operatorSecondFactor: { token: string; refreshToken: string; recoveryCodes: string[] | null };
  }>(admin, A.second, { c: challenge, code: totpCode(known) }, { ip });
  if (!done.data) throw new Error(`second factor failed: ${JSON.stringify(done.errors)}`);
  return done.data.operatorSecondFactor;
}
