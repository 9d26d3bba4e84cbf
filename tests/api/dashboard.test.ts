/**
 * `tenancyDashboard` (issue 6 §3): the dashboard of a tenancy in one request gives exactly what tenantUnits,
 * tenantGraph and unitQuantityKpis give for the tenancy's unit, and refuses every tenancy that is not the caller's
 * with the same FORBIDDEN as tenantGraph.
 */
import { eq } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { accounts, tenancies, users } from '../../src/server/db/schema.ts';
import { type ConsumptionFixture, seedConsumptionFixture } from './consumption.fixture.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: ConsumptionFixture;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedConsumptionFixture(database.db);
  api = await createTestApi(database);
  for (const name of ['alice', 'bob'] as const) {
    tokens[name] = (await signAccessToken('tenant', api.services.keys.tenant, fx.users[name], 300)).token;
  }
  (database.db as unknown as { session: { logger: Logger } }).session.logger = {
    logQuery: () => statements++,
  };
});

/** SQL statements run since the last reset (drizzle's query logger). */
let statements = 0;
afterAll(async () => {
  await database?.close();
});

const UNIT =
  'unit { id unitUniqueId name tenantName } path { property { id number settings { kind } co2Factors { quantity gramPerQuantityUnit } } }';
const GRAPH =
  'timestamps partial graphs { type object { id kind } consumption { quantityDescriptor { quantity normalized } values relatedValues { type values } } }';
const KPI =
  'quantityDescriptor { quantity normalized expressedAs } total partial previousPeriod propertyComparison';

const DASHBOARD = `query ($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) {
  units { ${UNIT} } unitId tenantGraph { ${GRAPH} } kpis { ${KPI} } co2 { ${KPI} } rating { ${KPI} } } }`;

const MARCH = {
  quantities: ['heat-energy'],
  resolution: 'DAY',
  graphBegin: '2025-03-01T00:00',
  graphEnd: '2025-04-01T00:00',
  related: ['PROPERTY'],
  periodBegin: '2025-03-01',
  periodEnd: '2025-03-31',
  ratingBegin: '2024-04-01',
  ratingEnd: '2025-03-31',
};

function dashboard(
  tenancyId: string | number,
  who: 'alice' | 'bob' | null = 'alice',
  more: Partial<typeof MARCH> = {},
) {
  return gql<{ tenancyDashboard: Record<string, unknown> }>(
    api.tenant,
    DASHBOARD,
    { input: { ...MARCH, ...more, tenancyId: String(tenancyId) } },
    who ? tokens[who] : null,
  );
}

describe('tenancyDashboard', () => {
  const lists = [[['heat-energy']], [['heat-energy', 'hca', 'cold-water-volume']]];
  it.each(lists)(
    'gives what tenantUnits, tenantGraph and unitQuantityKpis give for the tenancy’s unit (%j)',
    async (quantities) => {
      const unitId = String(fx.apartmentA);
      const kpiInput = {
        unitId,
        quantities,
        periodBegin: MARCH.periodBegin,
        periodEnd: MARCH.periodEnd,
      };
      const separate = await gql<Record<string, unknown>>(
        api.tenant,
        `query ($graph: TenantGraphInput!, $kpis: UnitQuantityKpisInput!, $co2: UnitQuantityKpisInput!, $rating: UnitQuantityKpisInput!) {
        tenantUnits { ${UNIT} }
        tenantGraph(graph: $graph) { ${GRAPH} }
        kpis: unitQuantityKpis(input: $kpis) { ${KPI} }
        co2: unitQuantityKpis(input: $co2) { ${KPI} }
        rating: unitQuantityKpis(input: $rating) { ${KPI} } }`,
        {
          graph: {
            graphType: 'HOURLY_VALUES',
            resolution: MARCH.resolution,
            periodBegin: MARCH.graphBegin,
            periodEnd: MARCH.graphEnd,
            objects: [{ kind: 'UNIT', id: unitId }],
            quantities,
            related: MARCH.related,
          },
          kpis: kpiInput,
          co2: { ...kpiInput, graphType: 'CO2' },
          rating: {
            ...kpiInput,
            periodBegin: MARCH.ratingBegin,
            periodEnd: MARCH.ratingEnd,
            normalized: true,
          },
        },
        tokens.alice,
      );
      expect(separate.errors).toBeUndefined();
      const r = await dashboard(fx.tenancyA, 'alice', { quantities });
      expect(r.errors).toBeUndefined();
      const d = r.data!.tenancyDashboard;
      expect(d.unitId).toBe(unitId);
      const { tenantUnits, ...figures } = separate.data!;
      expect(d.units).toEqual(tenantUnits);
      expect({ tenantGraph: d.tenantGraph, kpis: d.kpis, co2: d.co2, rating: d.rating }).toEqual(figures);
      // Real figures, not empty lists: March 2025 has heat data for A.
      const kpis = d.kpis as { total: number | null }[];
      expect(kpis).toHaveLength(quantities.length);
      expect(kpis[0]!.total).toBeGreaterThan(0);
    },
  );

  it('runs five SQL statements, whatever the periods and quantities', async () => {
    const countOf = async (more: Partial<typeof MARCH>) => {
      statements = 0;
      const r = await dashboard(fx.tenancyA, 'alice', more);
      expect(r.errors).toBeUndefined();
      return statements;
    };
    // The token and tenancies, tenantGraph's two, the unit's points and meters, the three KPI sets' series.
    expect(await countOf({})).toBe(5);
    expect(
      await countOf({
        quantities: ['heat-energy', 'hca', 'cold-water-volume', 'electricity-energy'],
        graphBegin: '2024-03-01T00:00',
        periodBegin: '2024-01-01',
        ratingBegin: '2023-01-01',
        ratingEnd: '2025-12-31',
      }),
    ).toBe(5);
  });

  it('counts only the caller’s tenancy: a year’s rating holds only the days since the tenancy began', async () => {
    // T-A-2025 began on 1 March 2025; the apartment's earlier data is the previous tenant's.
    const year = await dashboard(fx.tenancyA);
    const march = await dashboard(fx.tenancyA, 'alice', { ratingBegin: '2025-03-01' });
    const totals = (r: typeof year) =>
      (r.data!.tenancyDashboard.rating as { total: number | null }[]).map((k) => k.total);
    expect(totals(year)[0]).toBeGreaterThan(0);
    expect(totals(year)).toEqual(totals(march));
  });

  it('refuses a tenancy whose grace period has ended, and a deactivated caller', async () => {
    expect((await dashboard(fx.tenancyB, 'bob')).errors).toBeUndefined();
    // Moved out mid-2024 with 12 months of grace (the fixture's landlord gives 120): ended in 2025.
    await database.db.update(tenancies).set({ end: '2024-06-30' }).where(eq(tenancies.id, fx.tenancyB));
    await database.db.update(accounts).set({ moveOutGraceMonths: 12 }).where(eq(accounts.id, fx.accountId));
    try {
      const r = await dashboard(fx.tenancyB, 'bob');
      expect(errorCode(r)).toBe('FORBIDDEN');
      expect(r.data).toBeNull();
    } finally {
      await database.db.update(tenancies).set({ end: null }).where(eq(tenancies.id, fx.tenancyB));
      await database.db
        .update(accounts)
        .set({ moveOutGraceMonths: 120 })
        .where(eq(accounts.id, fx.accountId));
    }
    expect((await dashboard(fx.tenancyB, 'bob')).errors).toBeUndefined();
    // The dashboard checks the caller's token in its own first statement (callerCheckPlugin leaves it to it).
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, fx.users.bob.id));
    try {
      const r = await dashboard(fx.tenancyB, 'bob');
      expect(errorCode(r)).toBe('UNAUTHENTICATED');
      expect(r.data).toBeNull();
    } finally {
      await database.db.update(users).set({ isActive: true }).where(eq(users.id, fx.users.bob.id));
    }
  });

  const refused: [string, () => ReturnType<typeof dashboard>][] = [
    ['another user’s tenancy', () => dashboard(fx.tenancyB, 'alice')],
    ['another user’s tenancy, the other way round', () => dashboard(fx.tenancyA, 'bob')],
    ['an unknown tenancy', () => dashboard(999_999, 'alice')],
  ];
  it.each(refused)('refuses %s with the FORBIDDEN of tenantGraph', async (_name, call) => {
    const r = await call();
    expect(errorCode(r)).toBe('FORBIDDEN');
    expect(r.errors![0]!.message).toBe('Adgang ikke tilladt');
    expect(r.data).toBeNull();
  });

  it('refuses a malformed tenancy id and a missing login, and gives nothing', async () => {
    const malformed = await dashboard('T-A-2025');
    expect(errorCode(malformed)).toBe('BAD_USER_INPUT');
    expect(malformed.data).toBeNull();
    const anonymous = await dashboard(fx.tenancyA, null);
    expect(errorCode(anonymous)).toBe('UNAUTHENTICATED');
    expect(anonymous.data).toBeNull();
  });

  it('refuses bad figures input as tenantGraph does', async () => {
    const r = await gql(
      api.tenant,
      DASHBOARD,
      { input: { ...MARCH, tenancyId: String(fx.tenancyA), graphBegin: 'yesterday' } },
      tokens.alice,
    );
    expect(errorCode(r)).toBe('BAD_USER_INPUT');
    expect(r.data).toBeNull();
  });
});
