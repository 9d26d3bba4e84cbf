/** The demo people: permissions, the three demo users and their memberships, and every tenancy's activation code. */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import {
  activationCodes,
  permissions,
  tenancyMembers,
  userAccounts,
  userPermissions,
  users,
} from '../db/schema.ts';
import { DEMO_ACTIVATION_CODE, DEMO_PASSWORD, DEMO_USERS } from './logins.ts';
import type { DemoPlan } from './model.ts';
import type { SeededTenancies } from './tenancies.ts';

function activationCodeFor(rng: ReturnType<typeof xoroshiro128plus>): string {
  let code = '';
  for (let i = 0; i < 12; i++) code += String.fromCharCode(65 + uniformInt(rng, 0, 25));
  return code;
}

/** The demo users' password hashes, in DEMO_USERS order: computed before the seed's transaction opens. */
export function hashDemoPasswords(): Promise<string[]> {
  return Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
}

/**
 * Creates the permissions, the demo users (members of the plan's first three tenancies) and an activation code
 * per tenancy: used on the first day of history (by its first demo member, if it has one), and the published
 * DEMO_ACTIVATION_CODE, unused, for the vacant one.
 */
export async function seedPeople(
  tx: Db,
  plan: DemoPlan,
  accountId: number,
  { tenancyIds, vacantTenancyId }: SeededTenancies,
  passwordHashes: string[],
): Promise<void> {
  const codes = xoroshiro128plus(plan.seed + 1);
  await tx
    .insert(permissions)
    .values([
      { name: 'view_consumption', description: 'View consumption, cost and indoor climate' },
      { name: 'manage_tenancy', description: 'Invite and manage the users of a tenancy' },
    ])
    .onConflictDoNothing();
  const perms = new Map((await tx.select().from(permissions)).map((p) => [p.name, p.id]));
  const people = [
    { name: 'Tina Tenant', language: 'en', tenancies: [1], admin: false, perms: ['view_consumption'] },
    {
      name: 'Anders Admin',
      language: 'da',
      tenancies: [1],
      admin: true,
      perms: ['view_consumption', 'manage_tenancy'],
    },
    { name: 'Maja Multi', language: 'nb', tenancies: [2, 3], admin: false, perms: ['view_consumption'] },
  ];
  const usedBy = new Map<number, number>();
  for (const [i, who] of people.entries()) {
    const [user] = await tx
      .insert(users)
      .values({
        email: DEMO_USERS[i]!.email,
        name: who.name,
        passwordHash: passwordHashes[i]!,
        language: who.language,
      })
      .returning({ id: users.id });
    const userId = user!.id;
    await tx.insert(userAccounts).values({ userId, accountId });
    await tx.insert(userPermissions).values(who.perms.map((p) => ({ userId, permissionId: perms.get(p)! })));
    for (const aptIndex of who.tenancies) {
      const tenancyId = tenancyIds.get(aptIndex)!;
      await tx.insert(tenancyMembers).values({ tenancyId, userId, isAdmin: who.admin });
      if (!usedBy.has(tenancyId)) usedBy.set(tenancyId, userId);
    }
  }
  const codeRows: (typeof activationCodes.$inferInsert)[] = [...tenancyIds.values()]
    .filter((id) => id !== vacantTenancyId)
    .map((tenancyId) => ({
      code: activationCodeFor(codes),
      tenancyId,
      usedAt: new Date(plan.startMs),
      usedByUserId: usedBy.get(tenancyId) ?? null,
    }));
  codeRows.push({ code: DEMO_ACTIVATION_CODE, tenancyId: vacantTenancyId });
  await tx.insert(activationCodes).values(codeRows);
}
