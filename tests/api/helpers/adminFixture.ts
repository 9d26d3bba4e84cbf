/**
 * Two organisations for the console's tests: organisation 1 with properties P1 and P2, an organisation admin,
 * a manager of P1 and a manager of P2; organisation 2 with P3 and its own admin; and a tenant of P1.
 */
import { createOperator } from '../../../src/server/admin/operators.ts';
import { hashPassword } from '../../../src/server/auth/password.ts';
import type { Database, Db } from '../../../src/server/db/client.ts';
import {
  accounts,
  apartments,
  properties,
  tenancies,
  tenancyMembers,
  users,
} from '../../../src/server/db/schema.ts';
import { PASSWORD } from './accountsFixture.ts';
import { createTestApi, type TestApi } from './api.ts';
import { freshDatabase } from './db.ts';

export interface AdminFixture {
  org1: number;
  org2: number;
  p1: number;
  p2: number;
  p3: number;
  tenancy1: number;
  ops: Record<'admin1' | 'manager1' | 'manager2' | 'admin2', { id: number; email: string }>;
  tenant: { id: number; email: string };
}

export async function seedAdminFixture(db: Db): Promise<AdminFixture> {
  const [org1, org2] = await db
    .insert(accounts)
    .values([{ name: 'Org One' }, { name: 'Org Two' }])
    .returning();
  const prop = (accountId: number, number: string) => ({
    accountId,
    number,
    name: `Property ${number}`,
    address: `Street ${number}`,
    zipcode: '8000',
    city: 'Aarhus C',
  });
  const [p1, p2, p3] = await db
    .insert(properties)
    .values([prop(org1!.id, 'P1'), prop(org1!.id, 'P2'), prop(org2!.id, 'P3')])
    .returning();
  const [apt] = await db
    .insert(apartments)
    .values({
      propertyId: p1!.id,
      uniqueId: 'U-P1-1',
      apartment: 'st. tv',
      address: 'Street P1, st. tv',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: '70',
      rooms: 3,
    })
    .returning();
  const [tenancy] = await db
    .insert(tenancies)
    .values({ apartmentId: apt!.id, tenancyId: 'T-P1-1', tenant: 'Tenant', start: '2025-01-01' })
    .returning();
  const [tenant] = await db
    .insert(users)
    .values({ email: 'tenant@p1.test', name: 'Tenant', passwordHash: await hashPassword(PASSWORD) })
    .returning();
  await db.insert(tenancyMembers).values({ tenancyId: tenancy!.id, userId: tenant!.id, isAdmin: true });
  const seed = { operatorId: null, actor: 'test' } as const;
  const make = async (
    email: string,
    role: 'org_admin' | 'property_manager',
    accountId: number,
    propertyIds: number[],
  ) => {
    const { operator } = await createOperator(db, seed, {
      email,
      role,
      accountId,
      propertyIds,
      password: PASSWORD,
    });
    return { id: operator.id, email: operator.email };
  };
  return {
    org1: org1!.id,
    org2: org2!.id,
    p1: p1!.id,
    p2: p2!.id,
    p3: p3!.id,
    tenancy1: tenancy!.id,
    ops: {
      admin1: await make('admin1@org1.test', 'org_admin', org1!.id, []),
      manager1: await make('manager1@org1.test', 'property_manager', org1!.id, [p1!.id]),
      manager2: await make('manager2@org1.test', 'property_manager', org1!.id, [p2!.id]),
      admin2: await make('admin2@org2.test', 'org_admin', org2!.id, []),
    },
    tenant: { id: tenant!.id, email: tenant!.email },
  };
}

/** A fresh database with the fixture, and the backends over it behind a trusted proxy (the tests set client IPs). */
export async function setUpAdminApi(): Promise<{ database: Database; fx: AdminFixture; api: TestApi }> {
  const database = await freshDatabase();
  const fx = await seedAdminFixture(database.db);
  const api = await createTestApi(database, { TRUST_PROXY: '1' });
  return { database, fx, api };
}
