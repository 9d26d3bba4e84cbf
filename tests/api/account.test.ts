/** The account backend's UserQuery and the tenant backend's tenantUnits: every field, only the caller's tenancies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

const USER_QUERY = `query UserQuery {
  me { id email }
  allTenanciesForCurrentUser {
    id propertyNumber tenancyId tenant start end useNewBackend isAdmin
    dataAvailability { start end } billingPeriod { start end }
    apartment { apartmentInfo { city zipcode } uniqueId apartment address }
    latestAllocationStatement { fileName url periodStartDate periodEndDate expenseTypes }
    meterUnits { kind unit }
  }
}`;
const UNITS = `{ tenantUnits {
  unit { id unitUniqueId name tenantName }
  object { id kind property { id number address city zipcode } unit { id } group { id } measurementPoint { id } }
  path { property { id number settings { kind } co2Factors { quantity gramPerQuantityUnit } } }
} }`;

let database: Database;
let api: TestApi;
let fx: Fixture;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
});
afterAll(async () => {
  await database?.close();
});

const tokenFor = async (backend: 'account' | 'tenant', user: { id: number; email: string }) =>
  (await signAccessToken(backend, api.services.keys[backend], user, 300)).token;

describe('UserQuery', () => {
  it("lists the caller's tenancy with every field; data availability starts at the tenancy start", async () => {
    const r = await gql<{ allTenanciesForCurrentUser: unknown[] }>(
      api.account,
      USER_QUERY,
      {},
      await tokenFor('account', fx.users.alice),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.allTenanciesForCurrentUser).toEqual([
      {
        id: expect.any(String),
        propertyNumber: '1001',
        tenancyId: 'T-A-2025',
        tenant: 'Alice A.',
        start: '2025-03-01',
        end: null,
        useNewBackend: true,
        isAdmin: true,
        // Data exists from 2025-02-20, but before 2025-03-01 it is the previous tenant's.
        dataAvailability: { start: '2025-03-01', end: '2025-11-02' },
        billingPeriod: { start: '2025-01-01', end: '2025-12-31' },
        apartment: {
          apartmentInfo: { city: 'Aarhus C', zipcode: '8000' },
          uniqueId: 'U-1001-A',
          apartment: '1. tv',
          address: 'Testvej 1, 1. tv',
        },
        latestAllocationStatement: null,
        meterUnits: [
          { kind: 'energy', unit: 'kilo-watt-hour' },
          { kind: 'temperature', unit: 'degree-celsius' },
        ],
      },
    ]);
  });

  it("the previous tenant's availability ends at their move-out date", async () => {
    const r = await gql<{
      allTenanciesForCurrentUser: Array<{ dataAvailability: unknown; isAdmin: boolean }>;
    }>(api.account, USER_QUERY, {}, await tokenFor('account', fx.users.previous));
    expect(r.data!.allTenanciesForCurrentUser).toHaveLength(1);
    expect(r.data!.allTenanciesForCurrentUser[0]).toMatchObject({
      dataAvailability: { start: '2025-02-20', end: '2025-02-28' },
      isAdmin: false,
    });
  });
});

describe('tenantUnits', () => {
  it("returns only the caller's unit, with details and the property path", async () => {
    const r = await gql<{ tenantUnits: unknown[] }>(
      api.tenant,
      UNITS,
      {},
      await tokenFor('tenant', fx.users.bob),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.tenantUnits).toEqual([
      {
        unit: {
          id: String(fx.apartmentB),
          unitUniqueId: 'U-1001-B',
          name: 'Testvej 1, 1. th',
          tenantName: 'Bob B.',
        },
        object: {
          id: String(fx.apartmentB),
          kind: 'UNIT',
          property: {
            id: String(fx.propertyId),
            number: '1001',
            address: 'Testvej 1',
            city: 'Aarhus C',
            zipcode: '8000',
          },
          unit: { id: String(fx.apartmentB) },
          group: null,
          measurementPoint: null,
        },
        path: [
          {
            property: {
              id: String(fx.propertyId),
              number: '1001',
              settings: [{ kind: 'HOURLY_VALUES' }],
              co2Factors: [{ quantity: 'heat-energy', gramPerQuantityUnit: 100 }],
            },
          },
        ],
      },
    ]);
  });
});

describe('unexpected errors', () => {
  it('are masked for the caller and logged with the request id the response carries', async () => {
    // A database that fails the way a lost connection would, with a detail that must not reach the client.
    const broken = new Proxy(database.db, {
      get(target, prop, receiver) {
        if (prop === 'select') throw new Error('connection to postgres://admin:s3cret@db failed');
        return Reflect.get(target, prop, receiver);
      },
    });
    const failing = await createTestApi({ ...database, db: broken });
    const { token } = await signAccessToken('tenant', failing.services.keys.tenant, fx.users.bob, 300);
    const r = await gql<{ tenantUnits: unknown }>(failing.tenant, UNITS, {}, token);
    // The caller check reads the database while the context is built, so the failure comes before any data.
    expect(r.data ?? null).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.message).toBe('Unexpected error.');
    expect(JSON.stringify(r.errors)).not.toContain('s3cret');
    const requestId = r.response.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    const logged = failing.logs.find((l) => l.msg === 'unexpected error');
    expect(logged).toMatchObject({ requestId, backend: 'tenant' });
    expect(JSON.stringify(logged)).toContain('connection to postgres');
  });
});
