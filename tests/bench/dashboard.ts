/**
 * The tenant dashboard under concurrency (issue 20: "the dashboard at 20 clients ≤ 3× its latency alone"), small
 * enough for a shared machine:
 *
 *   node --import tsx tests/bench/dashboard.ts [--engines pglite,postgres] [--apartments 24] [--days 35] [--seconds 5]
 *
 * Per engine, a database of its own (PGlite in a temp folder; a new PostgreSQL database on BENCH_DATABASE_URL or
 * TEST_DATABASE_URL, dropped after) gets the demo property through the bulk loader; the app's HTTP server runs in
 * this process. Prints the SQL statements of one dashboard (drizzle's query logger), then p50 / p95 alone
 * (1 connection) and at 20, with CPU per request (this process, less the load generator's thread, plus the
 * PostgreSQL backends of the database), the ratio, and the floor that CPU sets for it on this machine's cores:
 * 20 requests in flight on N cores wait at least 20 × CPU ÷ N each, so the ratio cannot fall under
 * 20 ÷ N × CPU ÷ latency alone. Nothing here passes or fails on speed (docs/scale.md has the figures).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import pino from 'pino';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { createAppServer } from '../../src/server/http.ts';
import type { ApiServices } from '../../src/server/services.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { demoTenant, load, openBenchDatabase, post } from './api.ts';
import { backendCpuSeconds } from './ingest.ts';
import { CLIENTS, operations } from './scale-ops.ts';

const args = process.argv.slice(2);
const value = (flag: string, fallback: string) => {
  const at = args.indexOf(flag);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const engines = value('--engines', 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
const apartments = Number(value('--apartments', '24'));
const days = Number(value('--days', '35'));
const seconds = Number(value('--seconds', '5'));
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** CPU seconds so far of this process and of the database's PostgreSQL backends (none on PGlite: in-process). */
async function cpuSeconds(database: Database) {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6 + (await backendCpuSeconds(database));
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const { database, cleanup } = await openBenchDatabase(engine, pgUrl);
  // drizzle's logger sees every statement the app sends; a prepared statement keeps the logger it was prepared
  // with, so it is set before the first request.
  let statements = 0;
  (database.db as unknown as { session: { logger: Logger } }).session.logger = {
    logQuery: () => statements++,
  };
  let server: Server | undefined;
  try {
    const today = new Date();
    const now = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
    await seedDemo(database.db, { now, days, apartments });
    await refreshAllDegreeDays(database.db);
    const services: ApiServices = {
      config: parseServerConfig({ DATA_DIR: tmpdir(), LOG_LEVEL: 'warn', ACCESS_TOKEN_TTL: '3600' }),
      database,
      logger: pino({ level: 'warn' }),
      keys: await generateKeyRing(),
    };
    server = createAppServer({ services });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tenant/graphql`;
    const { token, unitId } = await demoTenant(endpoint);
    const [tenancy] = await queryRows<{ id: number }>(
      database.db,
      sql`SELECT t.id FROM tenancies t JOIN tenancy_members m ON m.tenancy_id = t.id
          JOIN users u ON u.id = m.user_id WHERE u.email = 'tenant@demo.test' ORDER BY t.id LIMIT 1`,
    );
    const ops = operations(now, unitId, String(tenancy!.id)).filter((o) =>
      o.name.startsWith('tenancyDashboard'),
    );
    const dashboard = ops[0]!;
    // Statements of one dashboard request (the logger was set before anything was prepared, see above).
    statements = 0;
    await post(endpoint, dashboard.query, dashboard.variables, token); // answers without errors, or throws
    const perDashboard = statements;
    console.log(
      `\n== ${engine}: ${apartments} apartments × ${days} days; ${perDashboard} SQL statements per dashboard ` +
        `(load average ${loadAverage()}) ==`,
    );
    const figures = new Map<number, { p50: number; p95: number; cpuMs: number }>();
    // Alone, at 20, and alone again: the machine's background changes under a run.
    for (const connections of [1, CLIENTS, 1]) {
      const request = {
        url: endpoint,
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: dashboard.query, variables: dashboard.variables }),
        connections,
        timeout: 120,
      };
      await load({ ...request, duration: 1 });
      const before = await cpuSeconds(database);
      const r = await load({ ...request, duration: seconds });
      const after = await cpuSeconds(database);
      const cpuMs = (1000 * (after - before - r.loaderCpuUs / 1e6)) / r.requests;
      // Of the two windows alone, the quicker one (a burst of the machine's background slows either).
      const known = figures.get(connections);
      if (!known || r.p50 < known.p50) figures.set(connections, { p50: r.p50, p95: r.p95, cpuMs });
      console.log(
        `  ${String(connections).padStart(2)} conns  p50 ${ms(r.p50).padStart(6)}  p95 ${ms(r.p95).padStart(6)}  ` +
          `(${r.rps.toFixed(1)} req/s, CPU ${ms(cpuMs)} ms/request${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''})`,
      );
    }
    const alone = figures.get(1)!;
    const busy = figures.get(CLIENTS)!;
    const cores = os.cpus().length;
    const floor = ((CLIENTS / cores) * busy.cpuMs) / alone.p50;
    console.log(
      `  at ${CLIENTS} against alone (the quicker window): p50 ${(busy.p50 / alone.p50).toFixed(2)}×, p95 ` +
        `${(busy.p95 / alone.p95).toFixed(2)}× (goal ≤ 3×); the CPU floor on ${cores} cores: ${CLIENTS} ÷ ${cores} × ` +
        `${ms(busy.cpuMs)} ms ÷ ${ms(alone.p50)} ms = ${floor.toFixed(2)}× (load average ${loadAverage()})`,
    );
  } finally {
    // The load generator stops without waiting for its last answers: let their requests finish first.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    server?.closeAllConnections();
    server?.close();
    await database.close();
    await cleanup();
  }
}

console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadAverage()}`,
);
for (const engine of engines) {
  if (engine === 'postgres' && !pgUrl) {
    console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL=postgres://…)');
    continue;
  }
  await benchEngine(engine);
}
process.exit(0);
