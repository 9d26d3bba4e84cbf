/** The signed-in user of an account-backend request, and the checks several account flows share. */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { passwordErrors, validateEmail } from '../../lib/validation.ts';
import { activeUser } from '../auth/login.ts';
import { users } from '../db/schema.ts';
import { type GraphQLContext, requireUserId } from '../graphql/context.ts';
import { badInput, loginRequired } from '../graphql/errors.ts';

/** The caller's user row (active); UNAUTHENTICATED otherwise. */
export async function currentUser(ctx: GraphQLContext) {
  const user = await activeUser(ctx.db, requireUserId(ctx));
  if (!user) throw loginRequired();
  return user;
}

/** Whether a user has rights above a tenant's (admin-portal user or superuser). */
export const hasAboveDefaultRights = (user: { isAdmin: boolean; isSuperuser: boolean }) =>
  user.isAdmin || user.isSuperuser;

/** SPEC §5 email rules on the server: trimmed, checked, stored lower-cased. */
export function parseEmail(raw: string): string {
  const trimmed = raw.trim();
  if (validateEmail(trimmed) !== null) throw badInput('The entered email-address is invalid');
  return trimmed.toLowerCase();
}

/** SPEC §5 password rules and the common-password list, on the server too; every broken rule is listed. */
export function assertPasswordAcceptable(password: string): void {
  const problems = passwordErrors(password);
  if (problems.length === 0) return;
  const error = badInput(`The password is not accepted: ${problems.join(', ')}`);
  Object.assign(error.extensions, { passwordErrors: problems });
  throw error;
}

/** A user by email (lower-cased). */
export async function userByEmail(ctx: GraphQLContext, email: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  return user ?? null;
}

/** A positive integer id from a GraphQL ID, or null. */
export function parseId(raw: string): number | null {
  const parsed = z.coerce.number().int().positive().max(2_147_483_647).safeParse(raw);
  return /^\d+$/.test(raw) && parsed.success ? parsed.data : null;
}
