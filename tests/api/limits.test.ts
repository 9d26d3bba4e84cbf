/**
 * Cost limits on both backends: tokens (a huge document is refused while lexing), aliases, depth, directives,
 * the static field cost, tenantGraph's objects × quantities × buckets, and introspection and suggestions off
 * in production (on in development).
 */
import { eq } from 'drizzle-orm';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverErrorCode } from '../../src/lib/errors.ts';
import { createAccountYoga } from '../../src/server/account/yoga.ts';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { tenancyMembers } from '../../src/server/db/schema.ts';
import { DOCUMENT_LIMITS, estimateBuckets, QUERY_TOO_COMPLEX } from '../../src/server/graphql/limits.ts';
import type { BackendYoga } from '../../src/server/graphql/yoga.ts';
import { createTenantYoga } from '../../src/server/tenant/yoga.ts';
import { createTestApi, type GqlResult, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;
let token = '';
/** Both backends as development builds them: introspection and suggestions on. */
let dev: { account: BackendYoga; tenant: BackendYoga };

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  const devServices = { ...api.services, config: { ...api.services.config, graphqlIntrospection: true } };
  dev = { account: createAccountYoga(devServices), tenant: createTenantYoga(devServices) };
});
afterAll(async () => {
  await database?.close();
});

/** The limit errors of a response: each must carry our code; returns their limit names. */
function limitsHit(r: GqlResult<unknown>): string[] {
  const hits = (r.errors ?? []).filter((e) => e.extensions?.code === QUERY_TOO_COMPLEX);
  return hits.map((e) => (e.extensions as { limit?: string }).limit ?? '?');
}

const backends = () =>
  [
    ['account', api.account],
    ['tenant', api.tenant],
  ] as const;

describe('document limits, on both backends', () => {
  it('aliases: 15 pass, 16 are refused with QUERY_TOO_COMPLEX', async () => {
    // __typename is on graphql-armor's allow-list, so the aliases are of `me`.
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
    for (const [, yoga] of backends()) {
      const ok = await gql(yoga, aliases(DOCUMENT_LIMITS.aliases));
      expect(limitsHit(ok)).toEqual([]);
      const refused = await gql(yoga, aliases(DOCUMENT_LIMITS.aliases + 1));
      expect(refused.data ?? null).toBeNull();
      expect(limitsHit(refused)).toEqual(['aliases']);
      expect(refused.errors?.[0]?.message).toMatch(/alias/i);
      // What the browser shows for it, in the user's language.
      expect(serverErrorCode(refused.errors)).toBe('request_too_large');
    }
    const fifteen = Array.from(
      { length: DOCUMENT_LIMITS.aliases },
      (_, i) => `u${i}: tenantUnits { unit { id } }`,
    );
    const units = await gql(api.tenant, `{ ${fifteen.join(' ')} }`, {}, token);
    expect(units.errors).toBeUndefined();
  });

  it('tokens: a document past the token limit is refused', async () => {
    // `{ __typename(x: [1 1 …]) }`: 9 tokens plus one per list item (commas are not tokens).
    const tokens = (n: number) => `{ __typename(x: [${'1 '.repeat(n - 9)}]) }`;
    for (const [, yoga] of backends()) {
      const atLimit = await gql(yoga, tokens(DOCUMENT_LIMITS.tokens));
      expect(limitsHit(atLimit)).toEqual([]);
      expect(atLimit.errors?.[0]?.message).toMatch(/Unknown argument/);
      const refused = await gql(yoga, tokens(DOCUMENT_LIMITS.tokens + 1));
      expect(refused.data ?? null).toBeNull();
      expect(limitsHit(refused)).toEqual(['tokens']);
      expect(refused.errors?.[0]?.message).toContain(`Token limit of ${DOCUMENT_LIMITS.tokens}`);
    }
  });

  it('a huge document is refused before it is parsed: far faster than parsing it', async () => {
    const huge = `{ ${'__typename '.repeat(500_000)}}`; // 5.5 MB, 500,002 tokens
    const parseStarted = performance.now();
    parse(huge);
    const parseMs = performance.now() - parseStarted;
    for (const [, yoga] of backends()) {
      const started = performance.now();
      const refused = await gql(yoga, huge);
      const refuseMs = performance.now() - started;
      expect(limitsHit(refused)).toEqual(['tokens']);
      // The lexer stops at token 2,001; what is left is reading the JSON body.
      expect(refuseMs).toBeLessThan(parseMs / 2);
    }
  });

  it('depth: more than the maximum nesting is refused', async () => {
    const nested = (depth: number) => `{ ${'a { '.repeat(depth - 1)}b${' }'.repeat(depth - 1)} }`;
    for (const [, yoga] of backends()) {
      const refused = await gql(yoga, nested(DOCUMENT_LIMITS.depth + 2));
      expect(limitsHit(refused)).toContain('depth');
    }
    // A real query of the app's deepest shape passes.
    const units = await gql(
      api.tenant,
      '{ tenantUnits { path { property { settings { kind } co2Factors { quantity } } } } }',
      {},
      token,
    );
    expect(units.errors).toBeUndefined();
  });

  it('directives: more than the maximum is refused', async () => {
    const directives = (n: number) => `{ __typename ${'@include(if: true) '.repeat(n)}}`;
    for (const [, yoga] of backends()) {
      const refused = await gql(yoga, directives(DOCUMENT_LIMITS.directives + 1));
      expect(limitsHit(refused)).toContain('directives');
    }
  });

  it('static cost: many fields deep down are refused, under the token limit', async () => {
    const query = `{ tenantUnits { path { property { settings { ${'kind '.repeat(1_000)}} } } } }`;
    const refused = await gql(api.tenant, query, {}, token);
    expect(refused.data ?? null).toBeNull();
    expect(limitsHit(refused)).toEqual(['cost']);
    const account = await gql(
      api.account,
      `{ allTenanciesForCurrentUser { apartment { apartmentInfo { ${'city '.repeat(1_500)}} } } }`,
    );
    expect(limitsHit(account)).toEqual(['cost']);
  });
});

describe('tenantGraph points: objects × quantities × buckets, per operation', () => {
  const GRAPH = `query ($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps } }`;
  const unit = () => ({ kind: 'UNIT', id: String(fx.apartmentA) });
  // 2025-01-01 to 2028-01-06 at DAY: 1,100 buckets.
  const days1100 = {
    graphType: 'HOURLY_VALUES',
    resolution: 'DAY',
    periodBegin: '2025-01-01T00:00',
    periodEnd: '2028-01-06T00:00',
  };

  it('estimates buckets like the resolver plans them', () => {
    expect(estimateBuckets('DAY', days1100.periodBegin, days1100.periodEnd)).toBe(1100);
    expect(estimateBuckets('HOUR', '2025-03-29T00:00', '2025-03-31T00:00')).toBeGreaterThanOrEqual(47);
    expect(estimateBuckets('HOUR', '2025-03-29T00:00', '2025-03-31T00:00')).toBeLessThanOrEqual(49);
    expect(estimateBuckets('MONTH', '2025-01-15T00:00', '2026-01-01T00:00')).toBe(12);
    expect(estimateBuckets('YEAR', '2020-06-01T00:00', '2025-01-01T00:00')).toBe(5);
    expect(estimateBuckets('WEEK', '2025-01-06T00:00', '2025-01-20T00:00')).toBeGreaterThanOrEqual(2);
    expect(estimateBuckets('DAY', 'garbage', '2025-01-01T00:00')).toBe(0);
  });

  it('one field within the limit runs; one past it is refused before reading anything', async () => {
    // 1 × 4 × 1,100 = 4,400 points: allowed (the default limit is 5,000).
    const allowed = await gql<{ tenantGraph: { timestamps: string[] } }>(
      api.tenant,
      GRAPH,
      { graph: { ...days1100, objects: [unit()], quantities: Array(4).fill('heat-energy') } },
      token,
    );
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data?.tenantGraph.timestamps).toHaveLength(1100);
    // 1 × 5 × 1,100 = 5,500 points: refused.
    const refused = await gql(
      api.tenant,
      GRAPH,
      { graph: { ...days1100, objects: [unit()], quantities: Array(5).fill('heat-energy') } },
      token,
    );
    expect(refused.data ?? null).toBeNull();
    expect(limitsHit(refused)).toEqual(['graphPoints']);
    expect(refused.errors?.[0]?.message).toContain('5500 points');
  });

  it('aliases and fragments add up: 4 × 2,200 points are refused, 2 × 2,200 run', async () => {
    const field = (alias: string) =>
      `${alias}: tenantGraph(graph: { graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-01-01T00:00", periodEnd: "2028-01-06T00:00", objects: [{ kind: UNIT, id: "${fx.apartmentA}" }, { kind: UNIT, id: "${fx.apartmentA}" }], quantities: ["heat-energy"] }) { timestamps }`;
    const two = await gql(api.tenant, `{ ${field('a')} ${field('b')} }`, {}, token);
    expect(limitsHit(two)).toEqual([]);
    expect(two.errors).toBeUndefined();
    const four = await gql(
      api.tenant,
      `query { ${field('a')} ...F ... on Query { ${field('d')} } } fragment F on Query { ${field('b')} ${field('c')} }`,
      {},
      token,
    );
    expect(four.data ?? null).toBeNull();
    expect(limitsHit(four)).toEqual(['graphPoints']);
    expect(four.errors?.[0]?.message).toContain('8800 points');
  });

  it('the same field spread twice runs once and counts once (3,300 points, not 6,600)', async () => {
    const f = `tenantGraph(graph: { graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-01-01T00:00", periodEnd: "2028-01-06T00:00", objects: [{ kind: UNIT, id: "${fx.apartmentA}" }], quantities: ${JSON.stringify(Array(3).fill('heat-energy'))} }) { timestamps }`;
    const r = await gql(api.tenant, `query { ...F ...F ${f} } fragment F on Query { ${f} }`, {}, token);
    expect(r.errors).toBeUndefined();
  });
});

describe('one points limit for every graph-shaped field (issue 24)', () => {
  const days1100 = { resolution: 'DAY', graphBegin: '2025-01-01T00:00', graphEnd: '2028-01-06T00:00' };
  const dashboardInput = async (quantities: number) => {
    const [membership] = await database.db
      .select({ tenancyId: tenancyMembers.tenancyId })
      .from(tenancyMembers)
      .where(eq(tenancyMembers.userId, fx.users.alice.id));
    return {
      tenancyId: String(membership!.tenancyId),
      quantities: Array(quantities).fill('heat-energy'),
      ...days1100,
      periodBegin: '2025-03-01',
      periodEnd: '2025-03-31',
      ratingBegin: '2024-04-01',
      ratingEnd: '2025-03-31',
    };
  };
  const DASHBOARD = `query ($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) { unitId tenantGraph { timestamps } } }`;

  it('tenancyDashboard: 4 quantities × 1,100 days run, 5 × 1,100 are refused before reading anything', async () => {
    const allowed = await gql<{ tenancyDashboard: { tenantGraph: { timestamps: string[] } } }>(
      api.tenant,
      DASHBOARD,
      { input: await dashboardInput(4) },
      token,
    );
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data?.tenancyDashboard.tenantGraph.timestamps).toHaveLength(1100);
    const refused = await gql(api.tenant, DASHBOARD, { input: await dashboardInput(5) }, token);
    expect(refused.data ?? null).toBeNull();
    expect(limitsHit(refused)).toEqual(['graphPoints']);
    expect(refused.errors?.[0]?.message).toContain('5500 points');
  });

  it('tenancyDashboard, tenantGraph and fixedCharges count against the one limit together', async () => {
    const graph = `g: tenantGraph(graph: { graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-01-01T00:00", periodEnd: "2028-01-06T00:00", objects: [{ kind: UNIT, id: "${fx.apartmentA}" }], quantities: ["heat-energy"] }) { timestamps }`;
    const both = await gql(
      api.tenant,
      `query ($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) { unitId } ${graph} }`,
      { input: await dashboardInput(4) },
      token,
    );
    expect(limitsHit(both)).toEqual(['graphPoints']);
    expect(both.errors?.[0]?.message).toContain('5500 points');
    // 600 monthly buckets of fixed charges beside 4,400 graph points: 5,000, at the limit; 12 more are past it.
    const charges = (alias: string, end: string) =>
      `${alias}: fixedCharges(input: { unitId: "${fx.apartmentA}", periodBegin: "2000-01-01", periodEnd: "${end}", resolution: MONTH }) { timestamps }`;
    const four = graph.replace(
      'quantities: ["heat-energy"]',
      'quantities: ["heat-energy", "heat-energy", "heat-energy", "heat-energy"]',
    );
    const atLimit = await gql(api.tenant, `{ ${four} ${charges('c', '2049-12-31')} }`, {}, token);
    expect(limitsHit(atLimit)).toEqual([]);
    const past = await gql(
      api.tenant,
      `{ ${four} ${charges('c', '2049-12-31')} ${charges('d', '2000-12-31')} }`,
      {},
      token,
    );
    expect(limitsHit(past)).toEqual(['graphPoints']);
    expect(past.errors?.[0]?.message).toContain('5012 points');
  });
});

describe('introspection and field suggestions', () => {
  const SCHEMA = '{ __schema { queryType { name } } }';
  const TYPE = '{ __type(name: "Query") { name } }';

  it('are off in production, on both backends; __typename still answers', async () => {
    for (const [, yoga] of backends()) {
      for (const query of [SCHEMA, TYPE]) {
        const r = await gql(yoga, query);
        expect(r.data ?? null).toBeNull();
        expect(r.errors?.[0]?.extensions?.code).toBe('INTROSPECTION_DISABLED');
      }
      const typename = await gql(yoga, '{ __typename }');
      expect(typename.data).toEqual({ __typename: 'Query' });
      const typo = await gql(yoga, '{ mee { id } }');
      expect(typo.errors?.[0]?.message).toContain('Cannot query field "mee"');
      expect(typo.errors?.[0]?.message).not.toMatch(/did you mean/i);
    }
  });

  it('are on in development', async () => {
    for (const yoga of [dev.account, dev.tenant]) {
      const r = await gql<{ __schema: { queryType: { name: string } } }>(yoga, SCHEMA);
      expect(r.errors).toBeUndefined();
      expect(r.data?.__schema.queryType.name).toBe('Query');
      const typo = await gql(yoga, '{ mee { id } }');
      expect(typo.errors?.[0]?.message).toMatch(/did you mean "me"/i);
    }
  });
});
