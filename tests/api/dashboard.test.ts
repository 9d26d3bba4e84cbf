/**
 * `tenancyDashboard` (issue 6 §3): the dashboard of a tenancy in one request gives exactly what tenantUnits,
 * tenantGraph and unitQuantityKpis give for the tenancy's unit, and refuses every tenancy that is not the caller's
 * with the same FORBIDDEN as tenantGraph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
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
});
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

function dashboard(tenancyId: string | number, who: 'alice' | 'bob' | null = 'alice') {
  return gql<{ tenancyDashboard: Record<string, unknown> }>(
    api.tenant,
    DASHBOARD,
    { input: { ...MARCH, tenancyId: String(tenancyId) } },
    who ? tokens[who] : null,
  );
}

describe('tenancyDashboard', () => {
  it('gives what tenantUnits, tenantGraph and unitQuantityKpis give for the tenancy’s unit', async () => {
    const unitId = String(fx.apartmentA);
    const kpiInput = {
      unitId,
      quantities: MARCH.quantities,
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
          quantities: MARCH.quantities,
          related: MARCH.related,
        },
        kpis: kpiInput,
        co2: { ...kpiInput, graphType: 'CO2' },
        rating: { ...kpiInput, periodBegin: MARCH.ratingBegin, periodEnd: MARCH.ratingEnd, normalized: true },
      },
      tokens.alice,
    );
    expect(separate.errors).toBeUndefined();
    const r = await dashboard(fx.tenancyA);
    expect(r.errors).toBeUndefined();
    const d = r.data!.tenancyDashboard;
    expect(d.unitId).toBe(unitId);
    const { tenantUnits, ...figures } = separate.data!;
    expect(d.units).toEqual(tenantUnits);
    expect({ tenantGraph: d.tenantGraph, kpis: d.kpis, co2: d.co2, rating: d.rating }).toEqual(figures);
    // Real figures, not empty lists: March 2025 has heat data for A.
    const kpis = d.kpis as { total: number | null }[];
    expect(kpis[0]!.total).toBeGreaterThan(0);
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
