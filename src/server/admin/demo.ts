/** The demo's console operators (README "Demo logins"; `npm start` prints them). */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, operatorTotp, properties, users } from '../db/schema.ts';
import { DEMO_PASSWORD } from '../demo/logins.ts';
import { createOperator } from './operators.ts';

export const DEMO_OPERATORS = [
  {
    email: 'operator@demo.test',
    role: 'org_admin',
    description: 'operator console /admin: organisation admin',
  },
  {
    email: 'manager@demo.test',
    role: 'property_manager',
    description: 'operator console /admin: property manager of Solgården',
  },
] as const;

/**
 * The demo operators' TOTP secret (base32), published like their password so anyone trying the demo (and the
 * end-to-end tests) can compute the second factor: add it to an authenticator app, or
 * `oathtool --totp -b DEMOTOTPDEMOTOTPDEMOTOTPDEMOTOTP`. Operators made any other way set theirs up at the first
 * login.
 */
export const DEMO_TOTP_SECRET = 'DEMOTOTPDEMOTOTPDEMOTOTPDEMOTOTP';

/** Creates the demo operators in the demo's organisation when they are missing; idempotent. */
export async function ensureDemoOperators(db: Db): Promise<void> {
  const [account] = await db.select().from(accounts).orderBy(asc(accounts.id)).limit(1);
  if (!account) return;
  const [property] = await db
    .select({ id: properties.id })
    .from(properties)
    .where(eq(properties.accountId, account.id))
    .orderBy(asc(properties.id))
    .limit(1);
  for (const demo of DEMO_OPERATORS) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, demo.email));
    if (existing) continue;
    if (demo.role === 'property_manager' && !property) continue;
    const created = await createOperator(
      db,
      { operatorId: null, actor: 'demo seed' },
      {
        email: demo.email,
        name: demo.role === 'org_admin' ? 'Demo Operator' : 'Demo Manager',
        role: demo.role,
        accountId: account.id,
        propertyIds: property ? [property.id] : [],
        password: DEMO_PASSWORD,
      },
    );
    await db
      .insert(operatorTotp)
      .values({ userId: Number(created.operator.id), secret: DEMO_TOTP_SECRET, confirmedAt: new Date() })
      .onConflictDoNothing();
  }
}
