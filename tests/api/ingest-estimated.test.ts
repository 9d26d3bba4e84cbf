/**
 * Issue 19 §4: hours filled in between two readings far apart are stored as estimated, the tenant API marks every
 * bucket and KPI that counts one, and the reading that arrives late replaces the estimate.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';
import { registerMeter } from './helpers/property.ts';

const GRAPH = `query ($graph: TenantGraphInput!) {
  tenantGraph(graph: $graph) { timestamps graphs { consumption { values estimated } } }
}`;
const KPIS = `query ($input: UnitQuantityKpisInput!) {
  unitQuantityKpis(input: $input) { total estimatedHours }
}`;
const NOW = new Date('2025-06-01T12:00:00Z');
const METER = 'M-EL-A';

let database: Database;
let api: TestApi;
let fx: Fixture;
let token: string;
let pointId: number;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  ({ token } = await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300));
  pointId = await registerMeter(
    database.db,
    { propertyId: fx.propertyId, apartmentId: fx.apartmentA },
    'electricity-energy',
    METER,
  );
});
afterAll(async () => {
  await database?.close();
});

/** One reading per UTC hour from `from`, the register rising 1 kWh an hour, except the hours in `skip`. */
function hourlyRows(from: string, hours: number, skip: (i: number) => boolean = () => false): ReadingRow[] {
  const start = Date.parse(from);
  const rows: ReadingRow[] = [];
  for (let i = 0; i <= hours; i++) {
    if (skip(i)) continue;
    rows.push({
      line: rows.length + 2,
      meterNumber: METER,
      ts: new Date(start + i * 3_600_000).toISOString(),
      value: String(100 + i),
    });
  }
  return rows;
}

async function graph(resolution: string, periodBegin: string, periodEnd: string, kind = 'UNIT') {
  const id = kind === 'UNIT' ? fx.apartmentA : fx.propertyId;
  const r = await gql<{
    tenantGraph: {
      timestamps: string[];
      graphs: { consumption: { values: number[]; estimated: boolean[] }[] }[];
    };
  }>(
    api.tenant,
    GRAPH,
    {
      graph: {
        graphType: 'HOURLY_VALUES',
        resolution,
        periodBegin,
        periodEnd,
        objects: [{ kind, id: String(id) }],
        quantities: ['electricity-energy'],
      },
    },
    token,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.tenantGraph.graphs[0]!.consumption[0]!;
}

async function estimatedHours(periodBegin: string, periodEnd: string) {
  const r = await gql<{ unitQuantityKpis: { total: number; estimatedHours: number }[] }>(
    api.tenant,
    KPIS,
    { input: { unitId: String(fx.apartmentA), quantities: ['electricity-energy'], periodBegin, periodEnd } },
    token,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.unitQuantityKpis[0]!;
}

async function storedFlags(point = pointId) {
  const [row] = await queryRows<{ hours: string; days: number; months: number }>(
    database.db,
    sql`SELECT (SELECT string_agg(to_char(hour_start AT TIME ZONE 'UTC', 'HH24'), ',' ORDER BY hour_start)
                FROM hourly_consumption WHERE measurement_point_id = ${point} AND estimated) AS hours,
               (SELECT coalesce(sum(estimated), 0)::int FROM daily_rollups WHERE measurement_point_id = ${point}) AS days,
               (SELECT coalesce(sum(estimated), 0)::int FROM monthly_rollups WHERE measurement_point_id = ${point}) AS months`,
  );
  return row!;
}

describe('estimated hours', () => {
  it('are stored and marked when readings are missing, and nothing else is', async () => {
    // Local 10 and 11 March (UTC+1): readings every hour, except 05:00–08:00 UTC on the 10th (four missing).
    const receipt = await ingestBatch(
      database.db,
      hourlyRows('2025-03-09T23:00:00Z', 48, (i) => i >= 6 && i <= 9),
      { now: NOW },
    );
    expect(receipt).toMatchObject({ refused: 0, quarantined: 0 });
    // The interval 04:00–09:00 UTC spreads its 5 kWh over five hours, each estimated.
    expect(await storedFlags()).toEqual({ hours: '04,05,06,07,08', days: 5, months: 5 });

    const hours = await graph('HOUR', '2025-03-10T00:00', '2025-03-10T12:00');
    expect(hours.values).toEqual(Array(12).fill(1));
    // Local 05:00–09:00 are the UTC hours 04–08.
    expect(hours.estimated).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0].map(Boolean));
    expect((await graph('DAY', '2025-03-10T00:00', '2025-03-12T00:00')).estimated).toEqual([true, false]);
    expect((await graph('MONTH', '2025-03-01T00:00', '2025-05-01T00:00')).estimated).toEqual([true, false]);
    // The property's average is no one's own reading, and never marked.
    const property = await graph('DAY', '2025-03-10T00:00', '2025-03-12T00:00', 'PROPERTY');
    expect(property.estimated).toEqual([false, false]);

    expect(await estimatedHours('2025-03-10', '2025-03-11')).toEqual({ total: 48, estimatedHours: 5 });
    expect(await estimatedHours('2025-03-11', '2025-03-11')).toEqual({ total: 24, estimatedHours: 0 });
  });

  it('are replaced by the measured values when the missing readings arrive late, in any order', async () => {
    // One of the four arrives first: the gap is split in two, still estimated on both sides.
    await ingestBatch(
      database.db,
      hourlyRows('2025-03-09T23:00:00Z', 48, (i) => i !== 7),
      { now: NOW },
    );
    expect((await storedFlags()).hours).toBe('04,05,06,07,08');
    await ingestBatch(
      database.db,
      hourlyRows('2025-03-09T23:00:00Z', 48, (i) => ![9, 6, 8].includes(i)),
      { now: NOW },
    );
    expect(await storedFlags()).toEqual({ hours: null, days: 0, months: 0 });
    const hours = await graph('HOUR', '2025-03-10T00:00', '2025-03-10T12:00');
    expect(hours.values).toEqual(Array(12).fill(1));
    expect(hours.estimated.some(Boolean)).toBe(false);
    expect((await graph('MONTH', '2025-03-01T00:00', '2025-04-01T00:00')).estimated).toEqual([false]);
    expect(await estimatedHours('2025-03-10', '2025-03-11')).toEqual({ total: 48, estimatedHours: 0 });
  });

  it('are marked in hours derived before the flag existed, by migration 0012', async () => {
    const old = await registerMeter(
      database.db,
      { propertyId: fx.propertyId, apartmentId: fx.apartmentA },
      'electricity-energy',
      'M-EL-OLD',
    );
    const rows = hourlyRows('2025-03-09T23:00:00Z', 24, (i) => i === 3 || i === 4).map((r) => ({
      ...r,
      meterNumber: 'M-EL-OLD',
    }));
    await ingestBatch(database.db, rows, { now: NOW });
    const derived = await storedFlags(old);
    expect(derived).toEqual({ hours: '01,02,03', days: 3, months: 3 });
    // As stored before migration 0009: every hour measured.
    await database.db.execute(
      sql`UPDATE hourly_consumption SET estimated = false WHERE measurement_point_id = ${old}`,
    );
    await database.db.execute(
      sql`UPDATE daily_rollups SET estimated = 0 WHERE measurement_point_id = ${old}`,
    );
    await database.db.execute(
      sql`UPDATE monthly_rollups SET estimated = 0 WHERE measurement_point_id = ${old}`,
    );
    const migration = readFileSync(
      new URL('../../src/server/db/migrations/0012_estimated-backfill.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint'))
      await database.db.execute(sql.raw(statement));
    expect(await storedFlags(old)).toEqual(derived);
  });

  it('are not made by a gateway whose readings drift a few minutes off the hour', async () => {
    // Early 12 March (after the reading of 11 March 23:00 UTC, 148): readings at hh:00 and hh:12 alternately,
    // intervals of 48 and 72 minutes.
    const rows = hourlyRows('2025-03-12T00:00:00Z', 6).map((r, i) => ({
      ...r,
      ts: new Date(Date.parse(r.ts) + (i % 2) * 12 * 60_000).toISOString(),
      value: String(149 + i),
    }));
    await ingestBatch(database.db, rows, { now: NOW });
    expect((await storedFlags()).hours).toBeNull();
  });
});
