/**
 * Ingest rate and tenantGraph latency under load. The backends run on a real HTTP server in this process;
 * 20 concurrent clients (in the same process) send requests over loopback.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { type Database, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import type { ApiServices } from '../../src/server/services.ts';
import { createTenantYoga } from '../../src/server/tenant/yoga.ts';

const CLIENTS = 20;
const REQUESTS_PER_SCENARIO = 600;
const DAYS = 400;
const APARTMENTS = 6;

async function openBenchDatabase(engine: 'pglite' | 'postgres', adminUrl?: string) {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'tenant-bench-'));
    const database = await openDatabase({ dataDir: dir });
    await migrateDatabase(database);
    return { database, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const { default: postgres } = await import('postgres');
  const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
  const name = `bench_${randomBytes(5).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 10 });
  await migrateDatabase(database);
  return {
    database,
    cleanup: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

async function post(url: string, query: string, variables: object, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data!;
}

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps graphs { consumption { values } } } }`;

/** Runs one scenario with CLIENTS concurrent loops; returns sorted latencies in ms and points per response. */
async function load(url: string, token: string, graph: object) {
  const latencies: number[] = [];
  let points = 0;
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS_PER_SCENARIO) {
      next += 1;
      const t = performance.now();
      const data = (await post(url, GRAPH, { graph }, token)) as { tenantGraph: { timestamps: string[] } };
      latencies.push(performance.now() - t);
      points = data.tenantGraph.timestamps.length;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, worker));
  return { sorted: latencies.sort((a, b) => a - b), points };
}

/** Local 'YYYY-MM-DDTHH:mm' in Europe/Copenhagen for a Date. */
function copenhagenMinute(date: Date): string {
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

/** Prints ingest rate and tenantGraph p50/p95 for one engine. */
export async function benchApi(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== ${engine === 'pglite' ? 'PGlite (on disk)' : 'PostgreSQL 15 (local)'} ==`);
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  const server = createServer();
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
    const yoga = createTenantYoga(services);
    server.on('request', yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tenant/graphql`;

    const login = (await post(
      url,
      `mutation L($c: CredentialsInput!) { loginWithEmailAndPassword(credentials: $c) { ok { token } } }`,
      { c: { email: 'tenant@demo.test', password: 'Demo#Tenant2026', targetResource: 'tenant' } },
    )) as { loginWithEmailAndPassword: { ok: { token: string } } };
    const token = login.loginWithEmailAndPassword.ok.token;
    const units = (await post(url, '{ tenantUnits { unit { id } } }', {}, token)) as {
      tenantUnits: { unit: { id: string } }[];
    };
    const unitId = units.tenantUnits[0]!.unit.id;
    const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    const ago = (ms: number) => copenhagenMinute(new Date(hour.getTime() - ms));
    const day = 86_400_000;
    const scenarios = [
      { name: 'last 24 h at HOUR ', resolution: 'HOUR', periodBegin: ago(day) },
      { name: 'last 30 d at DAY  ', resolution: 'DAY', periodBegin: ago(30 * day) },
      { name: 'last year at MONTH', resolution: 'MONTH', periodBegin: ago(365 * day) },
    ];
    const p50s: Record<string, number> = {};
    for (const s of scenarios) {
      const graph = {
        graphType: 'HOURLY_VALUES',
        resolution: s.resolution,
        periodBegin: s.periodBegin,
        periodEnd: copenhagenMinute(hour),
        objects: [{ kind: 'UNIT', id: unitId }],
        quantities: ['heat-energy'],
      };
      await load(url, token, graph); // warm-up
      const { sorted, points } = await load(url, token, graph);
      p50s[s.resolution] = percentile(sorted, 50);
      console.log(
        `tenantGraph ${s.name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms ` +
          `(${points} points, ${REQUESTS_PER_SCENARIO} requests, ${CLIENTS} concurrent clients)`,
      );
    }
    console.log(`ratio year-at-MONTH / 24h-at-HOUR p50: ${(p50s.MONTH! / p50s.HOUR!).toFixed(2)}`);
  } finally {
    server.close();
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
