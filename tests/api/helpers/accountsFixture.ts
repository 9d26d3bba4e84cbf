/** A small dataset for the account tests: two tenancies, their admins and members, and activation codes. */
import { hashPassword } from '../../../src/server/auth/password.ts';
import type { Db } from '../../../src/server/db/client.ts';
import {
  accounts,
  activationCodes,
  apartments,
  properties,
  tenancies,
  tenancyMembers,
  users,
} from '../../../src/server/db/schema.ts';

export const PASSWORD = 'Demo#Tenant2026';
/** A password that passes SPEC §5 and is not on the common list. */
export const NEW_PASSWORD = 'Fjord-Lantern-42';

export interface AccountsFixture {
  /** adminA: admin of tenancy A; tenantA: member of A; adminB: admin of B; portal: admin-portal user. */
  users: Record<'adminA' | 'tenantA' | 'adminB' | 'portal' | 'inactive', { id: number; email: string }>;
  tenancyA: number;
  tenancyB: number;
  /** A fresh code for A, an expired one, one already used, and one for the vacant tenancy C. */
  codes: { a: string; expired: string; used: string; c: string };
  tenancyC: number;
}

export async function seedAccountsFixture(db: Db): Promise<AccountsFixture> {
  const passwordHash = await hashPassword(PASSWORD);
  const [account] = await db.insert(accounts).values({ name: 'Landlord' }).returning();
  const [property] = await db
    .insert(properties)
    .values({
      accountId: account!.id,
      number: '2001',
      name: 'Solgården',
      address: 'Fjordvej 2',
      zipcode: '8000',
      city: 'Aarhus C',
      contactPhone: '+45 70 10 20 30',
      contactEmail: 'udlejning@example.test',
    })
    .returning();
  const apt = (n: string) => ({
    propertyId: property!.id,
    uniqueId: `U-2001-${n}`,
    apartment: n,
    address: `Fjordvej 2, ${n}`,
    zipcode: '8000',
    city: 'Aarhus C',
    areaM2: '70',
    rooms: 3,
  });
  const [a, b, c] = await db
    .insert(apartments)
    .values([apt('st. tv'), apt('1. tv'), apt('2. tv')])
    .returning();
  const [tA, tB, tC] = await db
    .insert(tenancies)
    .values([
      { apartmentId: a!.id, tenancyId: 'T-A', tenant: 'A', start: '2025-01-01' },
      { apartmentId: b!.id, tenancyId: 'T-B', tenant: 'B', start: '2025-02-01', end: '2026-12-31' },
      { apartmentId: c!.id, tenancyId: 'T-C', tenant: 'C', start: '2026-01-01' },
    ])
    .returning();
  const [adminA, tenantA, adminB, portal, inactive] = await db
    .insert(users)
    .values([
      { email: 'admin-a@test.test', name: 'Admin A', passwordHash, language: 'da' },
      { email: 'tenant-a@test.test', name: 'Tenant A', passwordHash, language: 'nb' },
      { email: 'admin-b@test.test', name: 'Admin B', passwordHash },
      { email: 'portal@test.test', name: 'Portal', passwordHash, isAdmin: true },
      { email: 'inactive@test.test', name: 'Inactive', passwordHash, isActive: false },
    ])
    .returning();
  await db.insert(tenancyMembers).values([
    { tenancyId: tA!.id, userId: adminA!.id, isAdmin: true },
    { tenancyId: tA!.id, userId: tenantA!.id, isAdmin: false },
    { tenancyId: tB!.id, userId: adminB!.id, isAdmin: true },
  ]);
  const day = 86_400_000;
  await db.insert(activationCodes).values([
    { code: 'AAAAAAAAAAAA', tenancyId: tA!.id, expiresAt: new Date(Date.now() + 30 * day) },
    { code: 'EXPIREDCODEX', tenancyId: tA!.id, expiresAt: new Date(Date.now() - day) },
    { code: 'USEDCODEUSED', tenancyId: tA!.id, usedAt: new Date(), usedByUserId: adminA!.id },
    { code: 'CCCCCCCCCCCC', tenancyId: tC!.id, expiresAt: new Date(Date.now() + 30 * day) },
  ]);
  const ref = (u: typeof adminA) => ({ id: u!.id, email: u!.email });
  return {
    users: {
      adminA: ref(adminA),
      tenantA: ref(tenantA),
      adminB: ref(adminB),
      portal: ref(portal),
      inactive: ref(inactive),
    },
    tenancyA: tA!.id,
    tenancyB: tB!.id,
    tenancyC: tC!.id,
    codes: { a: 'AAAAAAAAAAAA', expired: 'EXPIREDCODEX', used: 'USEDCODEUSED', c: 'CCCCCCCCCCCC' },
  };
}
