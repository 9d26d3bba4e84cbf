/**
 * Ingest rate and API throughput. The backends run on the real HTTP server (src/server/http.ts) in this
 * process; autocannon sends requests over loopback from a worker thread (tests/bench/load-worker.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { createSchema, createYoga } from 'graphql-yoga';
import pino from 'pino';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { connectPostgres, type Database, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/demo/logins.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { createAppServer } from '../../src/server/http.ts';
import type { ApiServices } from '../../src/server/services.ts';
import type { LoadOptions, LoadResult } from './load-worker.ts';

/** Seconds per measured row. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Six quantities × 768 hours: the largest HOUR graph under the default GRAPH_MAX_POINTS (5,000). */
const MAXIMAL_QUANTITIES = [
  'heat-energy',
  'hca',
  'hot-water-volume',
  'cold-water-volume',
  'electricity-energy',
  'indoor-temperature',
];
const DAYS = 400;
const APARTMENTS = 6;

/** The PostgreSQL pool the benches use: the app's default (DATABASE_POOL_SIZE), or BENCH_PG_POOL. */
export function benchPoolSize(): number {
  return Number(process.env.BENCH_PG_POOL || parseServerConfig({}).DATABASE_POOL_SIZE);
}

/** A migrated, empty database of its own (a temp PGlite folder, or a new PostgreSQL database) and its cleanup. */
export async function openBenchDatabase(
  engine: 'pglite' | 'postgres',
  adminUrl?: string,
  pglitePool?: number,
) {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'tenant-bench-'));
    const database = await openDatabase({ dataDir: dir, ...(pglitePool ? { max: pglitePool } : {}) });
    await migrateDatabase(database);
    return { database, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = await connectPostgres(adminUrl!, { max: 1 });
  const name = `bench_${randomBytes(5).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: benchPoolSize() });
  await migrateDatabase(database);
  return {
    database,
    cleanup: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export async function post(url: string, query: string, variables: object, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data!;
}

/** The demo tenant's login mutation and credentials (a login is also one of the start bench's requests). */
export const LOGIN = `mutation L($c: CredentialsInput!) { loginWithEmailAndPassword(credentials: $c) { ok { token } } }`;
export const CREDENTIALS = { email: DEMO_USERS[0].email, password: DEMO_PASSWORD, targetResource: 'tenant' };

/** Logs the demo tenant in at a tenant GraphQL `url`; returns the token and the id of its first unit. */
export async function demoTenant(url: string): Promise<{ token: string; unitId: string }> {
  const login = (await post(url, LOGIN, { c: CREDENTIALS })) as {
    loginWithEmailAndPassword: { ok: { token: string } };
  };
  const token = login.loginWithEmailAndPassword.ok.token;
  const units = (await post(url, '{ tenantUnits { unit { id } } }', {}, token)) as {
    tenantUnits: { unit: { id: string } }[];
  };
  return { token, unitId: units.tenantUnits[0]!.unit.id };
}

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps graphs { consumption { values } } } }`;

/** Runs autocannon in a worker thread against `url`; resolves with its figures. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.ts', import.meta.url), { workerData: options });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** A bare GraphQL Yoga hello-world on its own port of this process: the ceiling to compare with. */
async function startHelloWorld(): Promise<{ server: Server; url: string }> {
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { hello: String! }',
      resolvers: { Query: { hello: () => 'world' } },
    }),
    logging: false,
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Local 'YYYY-MM-DDTHH:mm' in Europe/Copenhagen for a Date. */
export function copenhagenMinute(date: Date): string {
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Copenhagen',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  return parts.replace(' ', 'T');
}

/**
 * Prints, for one engine: the ingest rate; req/s and p50/p95/p99 of tenantGraph (HOUR, DAY, MONTH) at 20 and
 * 50 connections beside a Yoga hello-world on the same Node, with the ratio; /api/health while the largest
 * allowed tenantGraph runs.
 */
export async function benchApi(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(
    `\n== ${engine === 'pglite' ? 'PGlite (on disk)' : `PostgreSQL 15 (local), a pool of ${benchPoolSize()} connections`} ==`,
  );
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  let server: Server | undefined;
  let hello: { server: Server; url: string } | undefined;
  try {
    const now = new Date();
    const t0 = performance.now();
    await seedDemo(database.db, { now, days: DAYS, apartments: APARTMENTS });
    const seconds = (performance.now() - t0) / 1000;
    const counts = await countRows(database);
    console.log(
      `ingest: ${counts.readings.toLocaleString('en')} readings → ${counts.hourly.toLocaleString('en')} hourly values ` +
        `(${DAYS} days, ${APARTMENTS} apartments) in ${seconds.toFixed(1)} s = ` +
        `${Math.round(counts.hourly / seconds).toLocaleString('en')} hourly readings/s (incl. rollups)`,
    );

    const services: ApiServices = {
      config: parseServerConfig({ DATA_DIR: tmpdir(), LOG_LEVEL: 'warn' }),
      database,
      logger: pino({ level: 'warn' }),
      keys: await generateKeyRing(),
    };
    // The production server of src/server/http.ts: API first, headers, compression (not asked for here).
    server = createAppServer({ services });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = `${origin}/api/tenant/graphql`;
    hello = await startHelloWorld();

    const { token, unitId } = await demoTenant(url);
    const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    const ago = (ms: number) => copenhagenMinute(new Date(hour.getTime() - ms));
    const day = 86_400_000;
    const graphOf = (resolution: string, periodBegin: string, quantities = ['heat-energy']) => ({
      graphType: 'HOURLY_VALUES',
      resolution,
      periodBegin,
      periodEnd: copenhagenMinute(hour),
      objects: [{ kind: 'UNIT', id: unitId }],
      quantities,
    });
    const scenarios = [
      { name: 'tenantGraph 24 h at HOUR  ', graph: graphOf('HOUR', ago(day)) },
      { name: 'tenantGraph 30 d at DAY   ', graph: graphOf('DAY', ago(30 * day)) },
      { name: 'tenantGraph year at MONTH ', graph: graphOf('MONTH', ago(365 * day)) },
    ];
    const graphRequest = (graph: object) => ({
      url,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: GRAPH, variables: { graph } }),
    });
    const helloRequest = {
      url: hello.url,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ hello }' }),
    };
    for (const s of scenarios) {
      const data = (await post(url, GRAPH, { graph: s.graph }, token)) as {
        tenantGraph: { timestamps: string[] };
      };
      s.name += `(${data.tenantGraph.timestamps.length} points)`;
    }

    console.log(
      `req/s and latency over ${SECONDS} s per row (after 1 s of warm-up), autocannon in a worker thread, server on the main thread:`,
    );
    const row = (name: string, c: number, r: LoadResult, ratio?: number) =>
      console.log(
        `  ${name.padEnd(40)} ${String(c).padStart(2)} conns  ${r.rps.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${ms(r.p50).padStart(9)}  p95 ${ms(r.p95).padStart(9)}  p99 ${ms(r.p99).padStart(9)}` +
          (ratio === undefined ? '' : `  ${(100 * ratio).toFixed(1).padStart(5)}% of hello-world`) +
          (r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : ''),
      );
    for (const connections of [20, 50]) {
      await load({ ...helloRequest, connections, duration: 1 });
      const base = await load({ ...helloRequest, connections, duration: SECONDS });
      row('Yoga hello-world (same Node)', connections, base);
      for (const s of scenarios) {
        await load({ ...graphRequest(s.graph), connections, duration: 1 });
        const r = await load({ ...graphRequest(s.graph), connections, duration: SECONDS });
        row(s.name, connections, r, r.rps / base.rps);
      }
    }

    // /api/health while the largest graph the limits allow runs back to back on one connection.
    const maximal = graphOf('HOUR', ago(32 * day - 3_600_000), MAXIMAL_QUANTITIES);
    const maxData = (await post(url, GRAPH, { graph: maximal }, token)) as {
      tenantGraph: { timestamps: string[] };
    };
    const points = maxData.tenantGraph.timestamps.length * MAXIMAL_QUANTITIES.length;
    const healthLoad = { url: `${origin}/api/health`, connections: 1, duration: SECONDS, overallRate: 50 };
    const idle = await load(healthLoad);
    const [busy, heavy] = await Promise.all([
      load(healthLoad),
      load({ ...graphRequest(maximal), connections: 1, duration: SECONDS }),
    ]);
    console.log(
      `/api/health at 50 req/s, idle: p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)}, max ${ms(idle.max)}`,
    );
    console.log(
      `/api/health at 50 req/s while the largest allowed tenantGraph runs back to back ` +
        `(${points} points, ${MAXIMAL_QUANTITIES.length} quantities × ${maxData.tenantGraph.timestamps.length} hours; ` +
        `p50 ${ms(heavy.p50)} each): p50 ${ms(busy.p50)}, p99 ${ms(busy.p99)}, max ${ms(busy.max)} (goal: p99 ≤ 50 ms)`,
    );
  } finally {
    server?.closeAllConnections();
    server?.close();
    hello?.server.close();
    await database.close();
    await cleanup();
  }
}

async function countRows(database: Database) {
  const [r] = await queryRows<{ readings: string; hourly: string }>(
    database.db,
    sql`select (select count(*) from register_readings) as readings, (select count(*) from hourly_consumption) as hourly`,
  );
  return { readings: Number(r!.readings), hourly: Number(r!.hourly) };
}
