/** The demo's console operators (README "Demo logins"; `npm start` prints them). */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, properties, users } from '../db/schema.ts';
import { DEMO_PASSWORD } from '../demo/seed.ts';
import { createOperator } from './operators.ts';

/** What the start banner says every demo operator can reach today. */
const REACHES = 'operator (API /api/admin/graphql; no console pages yet)';

export const DEMO_OPERATORS = [
  { email: 'operator@demo.test', role: 'org_admin', description: `${REACHES}: organisation admin` },
  { email: 'manager@demo.test', role: 'property_manager', description: `${REACHES}: manager of Solgården` },
] as const;

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
    await createOperator(
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
  }
}
