/**
 * The embedded database's socket under load (issue 24, finding 2). The PGlite worker handed its reused output
 * buffer to a congested socket, so the client read bytes overwritten by the next chunk, gave up on a garbled
 * row, and the one shared connection hung until a restart. Here: many parallel statements and dashboards with
 * big answers get exactly what the same requests get one at a time, health stays 200 throughout and after, and
 * a protocol error injected into the connection is followed by a request that succeeds.
 */
import type { Server } from 'node:http';
import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import { type Database, embeddedOptions, startPgliteWorker } from '../../src/server/db/client.ts';
import { framedSocket } from '../../src/server/db/framing.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;
let server: Server;
let base = '';
let token = '';
let tenancyA = '';

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  // Every hour of 2024 and 2025 for apartment A's points, so a long hourly graph reads thousands of rows.
  await database.db.execute(sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value)
    SELECT p, h, 1 + (extract(epoch FROM h)::bigint / 3600 % 7) * 0.125
    FROM unnest(${`{${[fx.points.heatA, fx.points.livingRoom, fx.points.bedroom].join(',')}}`}::int[]) p,
         generate_series('2024-01-01T00:00Z'::timestamptz, '2025-12-31T23:00Z', '1 hour') h
    ON CONFLICT DO NOTHING`);
  await database.db.execute(sql`DELETE FROM daily_rollups`);
  await database.db.execute(sql`DELETE FROM monthly_rollups`);
  await database.db.execute(sql`INSERT INTO daily_rollups (measurement_point_id, day, sum, min, max, count)
    SELECT measurement_point_id, (hour_start AT TIME ZONE 'Europe/Copenhagen')::date, sum(value), min(value), max(value), count(*)
    FROM hourly_consumption GROUP BY 1, 2`);
  await database.db.execute(sql`INSERT INTO monthly_rollups (measurement_point_id, month, sum, min, max, count)
    SELECT measurement_point_id, date_trunc('month', day::timestamp)::date, sum(sum), min(min), max(max), sum(count)
    FROM daily_rollups GROUP BY 1, 2`);
  api = await createTestApi(database);
  token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 3600)).token;
  const [row] = await queryRows<{ id: number }>(
    database.db,
    sql`SELECT id FROM tenancies WHERE tenancy_id = 'T-A-2025'`,
  );
  tenancyA = String(row!.id);
  server = createAppServer({ services: api.services });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await database?.close();
});

describe.skipIf(testEngine !== 'pglite')('the PGlite worker under load', () => {
  it('50 parallel statements with big answers each get exactly their own rows', async () => {
    const big = (n: number) =>
      queryRows<{ i: number; s: string }>(
        database.db,
        sql`SELECT i, md5((i * ${n})::text) || repeat('x', 150) AS s FROM generate_series(1, 8000) i`,
      );
    const alone = await big(7);
    const together = await Promise.all(Array.from({ length: 50 }, (_, k) => big(k)));
    for (const [k, rows] of together.entries()) {
      expect(rows).toHaveLength(8000);
      if (k === 7) expect(rows).toEqual(alone);
      // Checked in SQL's terms without a second query: each row's i counts up from 1.
      expect(rows.every((r, i) => Number(r.i) === i + 1)).toBe(true);
    }
    expect(await queryRows(database.db, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  }, 120_000);

  // The longest dashboards allowed: 32 days by the hour (768 buckets, the most for HOUR) and 1,100 days by the
  // day (the most for DAY), of heat, with the property's series beside them.
  const DASHBOARD = `query ($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) {
    unitId tenantGraph { timestamps graphs { consumption { values relatedValues { values } } } }
    kpis { total } co2 { total } rating { total } } }`;
  const KINDS = {
    hour: { resolution: 'HOUR', graphBegin: '2025-03-01T00:00', graphEnd: '2025-04-02T00:00' },
    day: { resolution: 'DAY', graphBegin: '2023-01-01T00:00', graphEnd: '2026-01-05T00:00' },
  } as const;
  const input = (kind: keyof typeof KINDS) => ({
    tenancyId: tenancyA,
    quantities: ['heat-energy'],
    ...KINDS[kind],
    related: ['PROPERTY'],
    periodBegin: '2025-03-01',
    periodEnd: '2025-12-31',
    ratingBegin: '2025-01-01',
    ratingEnd: '2025-12-31',
  });
  const dashboard = async (kind: keyof typeof KINDS) => {
    const res = await fetch(`${base}/api/tenant/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: DASHBOARD, variables: { input: input(kind) } }),
    });
    return (await res.json()) as { data?: unknown; errors?: unknown[] };
  };

  for (const parallel of [10, 50]) {
    it(`${parallel} parallel dashboards over the longest allowed period equal the same made one at a time; health stays 200`, async () => {
      const kinds = ['hour', 'day'] as const;
      const alone = new Map<string, unknown>();
      for (const q of kinds) {
        const one = await dashboard(q);
        expect(one.errors, JSON.stringify(one.errors)).toBeUndefined();
        alone.set(q, one);
      }
      const statuses: number[] = [];
      let running = true;
      const poller = (async () => {
        while (running) {
          const res = await fetch(`${base}/api/health`);
          statuses.push(res.status);
          await res.arrayBuffer();
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const asked = Array.from({ length: parallel }, (_, k) => kinds[k % 2]!);
      const answers = await Promise.all(asked.map(dashboard));
      running = false;
      await poller;
      for (const [k, answer] of answers.entries()) expect(answer).toEqual(alone.get(asked[k]!));
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const after = await fetch(`${base}/api/health`);
      expect(after.status).toBe(200);
    }, 300_000);
  }
});

/**
 * A proxy between a client and the worker's socket that can put bytes into the stream towards the client, as a
 * garbled answer would. The client is built with the app's own options for the embedded connection.
 */
async function garblingProxy(target: string) {
  const path = join(tmpdir(), `garble-${process.pid}-${Math.random().toString(36).slice(2)}.sock`);
  const clients: Socket[] = [];
  let garble: Buffer | null = null;
  const proxy = createServer((client) => {
    clients.push(client);
    const upstream = createConnection(target);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      if (garble) {
        // Garbage in place of the answer's first bytes: the stream's framing is lost from here on.
        client.write(Buffer.concat([garble, d.subarray(garble.length)]));
        garble = null;
      } else client.write(d);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(path, resolve));
  return {
    path,
    garbleNext(bytes: Buffer) {
      garble = bytes;
    },
    close: () => {
      for (const c of clients) c.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe.skipIf(testEngine !== 'pglite')('a protocol error on the embedded connection', () => {
  const garbage = [
    ['an unknown message type', Buffer.from([0xfe, 0, 0, 0, 9, 1, 2, 3, 4])],
    ['a ReadyForQuery with a wrong length', Buffer.from([0x5a, 0, 0, 0, 9, 0x49, 0, 0, 0])],
    ['a negative length', Buffer.from([0x44, 0xff, 0xff, 0xff, 0xf0])],
  ] as const;

  it('each kind of garbage: the statement fails, the connection is replaced, the next request succeeds', async () => {
    const worker = await startPgliteWorker(undefined);
    const proxy = await garblingProxy(worker.socketPath);
    const client = postgres(embeddedOptions({ onnotice: () => {} }, proxy.path));
    try {
      expect(await client`SELECT 41 + 1 AS n`).toEqual([{ n: 42 }]);
      for (const [what, bytes] of garbage) {
        proxy.garbleNext(bytes);
        await expect(client`SELECT i FROM generate_series(1, 100) i`, what).rejects.toThrow(/protocol error/);
        // At once, not after the stall time: the guard saw the bad frame.
        const next = await Promise.race([
          client`SELECT ${what}::text AS s`,
          new Promise((_, reject) => setTimeout(() => reject(new Error(`wedged after ${what}`)), 10_000)),
        ]);
        expect(next).toEqual([{ s: what }]);
      }
    } finally {
      await client.end({ timeout: 1 });
      await proxy.close();
      await worker.stop();
    }
  }, 300_000);

  it('a message that stops arriving halfway is given up after the stall time', async () => {
    // A DataRow that announces 1,000 bytes and never sends them.
    const server = createServer((s) => s.write(Buffer.from([0x44, 0, 0, 3, 0xe8, 0, 1])));
    const path = join(tmpdir(), `stall-${process.pid}.sock`);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const socket = framedSocket(path, { stallMs: 200 });
      socket.on('data', () => {});
      const error = await new Promise<Error>((resolve) => socket.on('error', resolve));
      expect(error.message).toMatch(/protocol error \(a message stopped arriving/);
      expect(socket.destroyed).toBe(true);
    } finally {
      server.close();
    }
  });
});
