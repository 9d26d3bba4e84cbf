/**
 * The property figure's privacy floor (SPEC: no neighbour's numbers by subtraction), from below: on a day when
 * only two of the property's apartments have data the PROPERTY series is a gap, at DAY and at HOUR, while the day
 * before, with three, it has a value. The tests/api/consumption-graph.test.ts values are the floor from above.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { dailyRollups, hourlyConsumption, measurementPoints } from '../../src/server/db/schema.ts';
import { rebuildPropertyHourlyRollups } from '../../src/server/ingest/propertyHourly.ts';
import { updatePropertyRollups } from '../../src/server/ingest/rollups.ts';
import { MIN_PROPERTY_APARTMENTS } from '../../src/server/tenant/graph/series.ts';
import { type ConsumptionFixture, seedConsumptionFixture } from './consumption.fixture.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

const GRAPH = `query ($graph: TenantGraphInput!) {
  tenantGraph(graph: $graph) { timestamps graphs { consumption { values } } }
}`;
/** Apartment C has no heat on this day: A and B are left, one fewer than the floor. */
const TWO_APARTMENTS = '2025-03-11';
const THREE_APARTMENTS = '2025-03-10';

let database: Database;
let api: TestApi;
let fx: ConsumptionFixture;
let token = '';

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedConsumptionFixture(database.db);
  api = await createTestApi(database);
  token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  const db = database.db;
  const [heatC] = await db
    .select()
    .from(measurementPoints)
    .where(
      and(eq(measurementPoints.apartmentId, fx.apartmentC), eq(measurementPoints.quantity, 'heat-energy')),
    );
  // C's heat of that day is gone (as if its meter sent nothing), and the property rollups are rebuilt as
  // ingestion rebuilds them.
  await db
    .delete(hourlyConsumption)
    .where(
      and(
        eq(hourlyConsumption.measurementPointId, heatC!.id),
        sql`(${hourlyConsumption.hourStart} AT TIME ZONE 'Europe/Copenhagen')::date = ${TWO_APARTMENTS}::date`,
      ),
    );
  await db
    .delete(dailyRollups)
    .where(and(eq(dailyRollups.measurementPointId, heatC!.id), eq(dailyRollups.day, TWO_APARTMENTS)));
  await updatePropertyRollups(db, [{ pointId: heatC!.id, dayLo: TWO_APARTMENTS, dayHi: TWO_APARTMENTS }]);
  await rebuildPropertyHourlyRollups(db);
});
afterAll(async () => {
  await database?.close();
});

async function propertyValues(resolution: 'DAY' | 'HOUR', begin: string, end: string) {
  const r = await gql<{ tenantGraph: { graphs: { consumption: { values: (number | null)[] }[] }[] } }>(
    api.tenant,
    GRAPH,
    {
      graph: {
        graphType: 'HOURLY_VALUES',
        resolution,
        periodBegin: begin,
        periodEnd: end,
        objects: [{ kind: 'PROPERTY', id: String(fx.propertyId) }],
        quantities: ['heat-energy'],
      },
    },
    token,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.tenantGraph.graphs[0]!.consumption[0]!.values;
}

describe('the property privacy floor', () => {
  it('is three apartments', () => {
    expect(MIN_PROPERTY_APARTMENTS).toBe(3);
  });

  it('with three apartments the day has a property value; with two it is a gap', async () => {
    const values = await propertyValues('DAY', `${THREE_APARTMENTS}T00:00`, '2025-03-12T00:00');
    expect(values[0]).toBeGreaterThan(0);
    expect(values[1]).toBeNull();
  });

  it('with two apartments every hour of the day is a gap; with three the hour has a value', async () => {
    const twoHours = await propertyValues('HOUR', `${TWO_APARTMENTS}T00:00`, '2025-03-12T00:00');
    expect(twoHours).toHaveLength(24);
    expect(twoHours.every((v) => v === null)).toBe(true);
    const threeHours = await propertyValues('HOUR', `${THREE_APARTMENTS}T12:00`, `${THREE_APARTMENTS}T13:00`);
    expect(threeHours[0]).toBeGreaterThan(0);
  });
});
