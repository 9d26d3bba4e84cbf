/** The whole login-to-graph path over the demo dataset, as the web app drives it, on both backends. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { accounts } from '../../src/server/db/schema.ts';
import { DEMO_PASSWORD } from '../../src/server/demo/logins.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

// Three days up to just after the autumn DST change, so one DAY bucket has 25 hours.
const NOW = new Date('2025-10-27T11:30:00Z');

let database: Database;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  await seedDemo(database.db, { now: NOW, days: 3, apartments: 3 });
  // The demo is dated a year back, and access to an ended tenancy ends after the organisation's grace period
  // (12 months by default) counted from today: keep multi's ended tenancy readable, as the demo is on its own day.
  await database.db.update(accounts).set({ moveOutGraceMonths: 120 });
  api = await createTestApi(database);
});
afterAll(async () => {
  await database?.close();
});

async function logins(email: string) {
  const account = await gql<{ tokenAuth: { token: string } }>(
    api.account,
    'mutation ($e: String!, $p: String!) { tokenAuth(email: $e, password: $p) { token } }',
    { e: email, p: DEMO_PASSWORD },
  );
  const tenant = await gql<{ loginWithEmailAndPassword: { ok: { token: string } } }>(
    api.tenant,
    `mutation ($e: String!, $p: String!) {
      loginWithEmailAndPassword(credentials: { email: $e, password: $p, targetResource: "tenant" }) { ok { token } } }`,
    { e: email, p: DEMO_PASSWORD },
  );
  expect(account.errors).toBeUndefined();
  expect(tenant.errors).toBeUndefined();
  return { account: account.data!.tokenAuth.token, tenant: tenant.data!.loginWithEmailAndPassword.ok.token };
}

const UNITS = '{ tenantUnits { unit { id unitUniqueId } path { property { settings { kind } } } } }';
const GRAPH = `query ($g: TenantGraphInput!) { tenantGraph(graph: $g) { timestamps graphs { consumption { values } } } }`;

describe('demo walkthrough', () => {
  it('tenant@demo.test logs in, sees one tenancy and unit, and its heat graph adds up', async () => {
    const tokens = await logins('tenant@demo.test');
    const user = await gql<{
      me: { email: string };
      allTenanciesForCurrentUser: Array<{ apartment: { uniqueId: string } }>;
    }>(
      api.account,
      'query UserQuery { me { email } allTenanciesForCurrentUser { apartment { uniqueId } dataAvailability { start end } } }',
      {},
      tokens.account,
    );
    expect(user.data!.me.email).toBe('tenant@demo.test');
    expect(user.data!.allTenanciesForCurrentUser).toHaveLength(1);
    const units = await gql<{ tenantUnits: Array<{ unit: { id: string; unitUniqueId: string } }> }>(
      api.tenant,
      UNITS,
      {},
      tokens.tenant,
    );
    expect(units.data!.tenantUnits).toHaveLength(1);
    const unit = units.data!.tenantUnits[0]!.unit;
    expect(unit.unitUniqueId).toBe(user.data!.allTenanciesForCurrentUser[0]!.apartment.uniqueId);

    const ask = (resolution: string) =>
      gql<{
        tenantGraph: {
          timestamps: string[];
          graphs: Array<{ consumption: Array<{ values: (number | null)[] }> }>;
        };
      }>(
        api.tenant,
        GRAPH,
        {
          g: {
            graphType: 'HOURLY_VALUES',
            resolution,
            periodBegin: '2025-10-25T00:00',
            periodEnd: '2025-10-27T00:00',
            objects: [{ kind: 'UNIT', id: unit.id }],
            quantities: ['heat-energy'],
          },
        },
        tokens.tenant,
      );
    const hourly = await ask('HOUR');
    const daily = await ask('DAY');
    expect(hourly.errors).toBeUndefined();
    expect(hourly.data!.tenantGraph.timestamps).toHaveLength(24 + 25);
    const hourValues = hourly.data!.tenantGraph.graphs[0]!.consumption[0]!.values;
    expect(hourValues.filter((v) => v !== null).length).toBeGreaterThan(24);
    const dayValues = daily.data!.tenantGraph.graphs[0]!.consumption[0]!.values;
    expect(dayValues).toHaveLength(2);
    const hourTotal = hourValues.reduce<number>((s, v) => s + (v ?? 0), 0);
    expect((dayValues[0] ?? 0) + (dayValues[1] ?? 0)).toBeCloseTo(hourTotal, 6);
    expect(hourTotal).toBeGreaterThan(0);
  });

  it("multi@demo.test sees two units; tenant@demo.test may not graph multi's other unit", async () => {
    const multi = await logins('multi@demo.test');
    const tenant = await logins('tenant@demo.test');
    const multiUnits = await gql<{ tenantUnits: Array<{ unit: { id: string } }> }>(
      api.tenant,
      UNITS,
      {},
      multi.tenant,
    );
    expect(multiUnits.data!.tenantUnits).toHaveLength(2);
    const tenantUnits = await gql<{ tenantUnits: Array<{ unit: { id: string } }> }>(
      api.tenant,
      UNITS,
      {},
      tenant.tenant,
    );
    const own = new Set(tenantUnits.data!.tenantUnits.map((u) => u.unit.id));
    const foreign = multiUnits.data!.tenantUnits.find((u) => !own.has(u.unit.id))!.unit.id;
    const r = await gql(
      api.tenant,
      GRAPH,
      {
        g: {
          graphType: 'HOURLY_VALUES',
          resolution: 'DAY',
          periodBegin: '2025-10-25T00:00',
          periodEnd: '2025-10-27T00:00',
          objects: [{ kind: 'UNIT', id: foreign }],
          quantities: ['heat-energy'],
        },
      },
      tenant.tenant,
    );
    expect(errorCode(r)).toBe('FORBIDDEN');
    expect(r.data).toBeNull();
  });
});
