/**
 * One expensive request must not stall the rest: /api/health answers while a tenantGraph as large as the
 * limits allow is running, on the real HTTP server. Judged by a ratio, so a slow machine cannot fail it. The
 * heavy queries run back to back and health is asked every 5 ms meanwhile: if health had to wait for a heavy
 * query, its median would be close to a heavy query's whole time; it must stay under a third of it.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;
let token = '';
let server: Server;
let base = '';

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  server = createAppServer({ services: api.services });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await database?.close();
});

/** A graph at the default limit (5,000 points): 1 unit × 6 quantities × 767 hours = 4,602. */
function heavyGraph() {
  const unit = { kind: 'UNIT', id: String(fx.apartmentA) };
  return {
    graphType: 'HOURLY_VALUES',
    resolution: 'HOUR',
    periodBegin: '2025-03-01T00:00',
    periodEnd: '2025-04-02T00:00',
    objects: [unit],
    quantities: Array(6).fill('heat-energy'),
  };
}

async function heavy(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/tenant/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query:
        'query ($g: TenantGraphInput!) { tenantGraph(graph: $g) { timestamps graphs { consumption { values } } } }',
      variables: { g: heavyGraph() },
    }),
  });
  const body = (await res.json()) as { errors?: unknown[]; data?: { tenantGraph: { timestamps: string[] } } };
  expect(body.errors).toBeUndefined();
  expect(body.data?.tenantGraph.timestamps).toHaveLength(767); // 32 days, one of them 23 hours
  return performance.now() - started;
}

async function health(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/health`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return performance.now() - started;
}

// On PGlite the database still runs on the HTTP thread, so health queues behind the heavy query's SQL (measured:
// median 276 ms during 381 ms queries). Moving PGlite off the thread is platform-db's part of issue 6; when it
// lands, drop this skip so the test guards both engines.
it.skipIf(testEngine === 'pglite')(
  'health answers while the heaviest allowed tenantGraph runs, in a fraction of its time',
  async () => {
    await heavy(); // warm-up
    const alone: number[] = [];
    for (let i = 0; i < 3; i += 1) alone.push(await heavy());
    const heavyMs = Math.min(...alone);

    // Five heavy queries back to back; health is asked every 5 ms meanwhile, one at a time.
    const during: number[] = [];
    let running = true;
    const poller = (async () => {
      while (running) {
        during.push(await health());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    for (let i = 0; i < 5; i += 1) await heavy();
    running = false;
    await poller;

    const sorted = [...during].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    console.log(
      `${testEngine}: heavy tenantGraph ${heavyMs.toFixed(0)} ms alone; health during it: ${during.length} answers, median ${median.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms`,
    );
    expect(during.length).toBeGreaterThan(5);
    expect(median).toBeLessThan(heavyMs / 3);
  },
);
