/** tenantGraph: access (another tenant's ids, tenancy dates) and bad input. */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import { tenancies, tenancyMembers, users } from '../../src/server/db/schema.ts';
import { errorCode, gql } from './helpers/api.ts';
import { dataHoursOf, heatA } from './helpers/fixtures.ts';
import {
  api,
  database,
  fx,
  GRAPH,
  type GraphData,
  type GraphInput,
  graph,
  setUpGraphFixture,
} from './helpers/tenantGraph.ts';

setUpGraphFixture();

describe('tenantGraph access', () => {
  it.each([
    ['UNIT', () => fx.apartmentB],
    ['MPOINT', () => fx.points.heatB],
    ['UNIT', () => 999_999],
    ['MPOINT', () => 999_999],
  ])("another tenant's (or an unknown) %s id gives FORBIDDEN and no data", async (kind, id) => {
    const r = await graph({
      resolution: 'DAY',
      periodBegin: '2025-03-10T00:00',
      periodEnd: '2025-03-11T00:00',
      objects: [
        { kind: 'UNIT', id: fx.apartmentA },
        { kind, id: id() },
      ],
    });
    expect(r.data).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]).toMatchObject({ message: 'Adgang ikke tilladt', extensions: { code: 'FORBIDDEN' } });
  });

  it('a member of two tenancies in one apartment sees neither the tenant in between', async () => {
    // The previous tenant of A (to 2025-02-28) moves back in on 2025-10-25; Alice's March is not theirs.
    const [returner] = await database.db
      .insert(users)
      .values({ email: 'returner@test.test', name: 'Returner', passwordHash: 'x' })
      .returning();
    const [again] = await database.db
      .insert(tenancies)
      .values({
        apartmentId: fx.apartmentA,
        tenancyId: 'T-A-2025-2',
        tenant: 'Returner R.',
        start: '2025-10-25',
      })
      .returning();
    const [earlier] = await database.db
      .select({ id: tenancies.id })
      .from(tenancies)
      .where(eq(tenancies.tenancyId, 'T-A-2024'));
    await database.db.insert(tenancyMembers).values([
      { tenancyId: earlier!.id, userId: returner!.id },
      { tenancyId: again!.id, userId: returner!.id },
    ]);
    const { token } = await signAccessToken('tenant', api.services.keys.tenant, returner!, 300);
    const r = await gql<GraphData>(
      api.tenant,
      GRAPH,
      {
        graph: {
          graphType: 'HOURLY_VALUES',
          resolution: 'MONTH',
          periodBegin: '2025-02-01T00:00',
          periodEnd: '2025-12-01T00:00',
          objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
          quantities: ['heat-energy'],
        },
      },
      token,
    );
    expect(r.errors).toBeUndefined();
    const monthly = r.data!.tenantGraph.graphs[0]!.consumption[0]!.values;
    const heatOver = (from: string, to: string) => dataHoursOf(from, to).reduce((s, h) => s + heatA(h), 0);
    expect(monthly).toEqual([
      heatOver('2025-02-01', '2025-03-01'),
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      heatOver('2025-10-25', '2025-11-01'),
      heatOver('2025-11-01', '2025-12-01'),
    ]);
    expect(r.data!.tenantGraph.graphs[0]!.object.unit!.tenantName).toBe('Returner R.');
  });

  it('no token gives "login required"', async () => {
    const r = await gql(api.tenant, GRAPH, {
      graph: {
        graphType: 'HOURLY_VALUES',
        resolution: 'DAY',
        periodBegin: '2025-03-10T00:00',
        periodEnd: '2025-03-11T00:00',
        objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
        quantities: ['heat-energy'],
      },
    });
    expect(r.errors?.[0]).toMatchObject({
      message: 'login required',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(r.data).toBeNull();
  });
});

describe('tenantGraph input', () => {
  const oneDay = { resolution: 'DAY', periodBegin: '2025-03-01T00:00', periodEnd: '2025-03-02T00:00' };
  it.each<[string, GraphInput]>([
    [
      'an impossible date',
      { resolution: 'DAY', periodBegin: '2025-02-30T00:00', periodEnd: '2025-03-02T00:00' },
    ],
    ['a date without time', { resolution: 'DAY', periodBegin: '2025-03-01', periodEnd: '2025-03-02T00:00' }],
    [
      'begin after end',
      { resolution: 'DAY', periodBegin: '2025-03-05T00:00', periodEnd: '2025-03-01T00:00' },
    ],
    [
      'begin equal to end',
      { resolution: 'DAY', periodBegin: '2025-03-05T00:00', periodEnd: '2025-03-05T00:00' },
    ],
    ['an unknown quantity', { ...oneDay, quantities: ['unobtainium'] }],
    [
      'too large a range at HOUR',
      { resolution: 'HOUR', periodBegin: '2025-01-01T00:00', periodEnd: '2025-03-01T00:00' },
    ],
    [
      'too large a range at DAY',
      { resolution: 'DAY', periodBegin: '2001-01-01T00:00', periodEnd: '2025-03-01T00:00' },
    ],
    [
      'scaleToUnitId on a UNIT object',
      { ...oneDay, objects: [{ kind: 'UNIT', id: 1, scaleToUnitId: '1' } as { kind: string; id: number }] },
    ],
    ['a non-numeric id', { ...oneDay, objects: [{ kind: 'UNIT', id: '1 OR 1=1' }] }],
    ['COST of an averaged quantity', { ...oneDay, graphType: 'COST', quantities: ['indoor-temperature'] }],
  ])('%s gives BAD_USER_INPUT and no data', async (_case, input) => {
    const r = await graph(input);
    expect(errorCode(r)).toBe('BAD_USER_INPUT');
    expect(r.data).toBeNull();
  });
});
