import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Logger } from 'drizzle-orm';
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import type { ApiServices } from '../../src/server/services.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { createTenantYoga } from '../../src/server/tenant/yoga.ts';
import { demoTenant, openBenchDatabase, post } from './api.ts';

const CLIENTS = 20;
const REQUESTS = 400;
const DAYS = 400;
const APARTMENTS = 6;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;

async function load(url: string, token: string, query: string, variables: object) {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next += 1;
      const t = performance.now();
      await post(url, query, variables, token);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, worker));
  return latencies.sort((a, b) => a - b);
}

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps partial
  graphs { consumption { values relatedValues { type values } climateCorrection { applied } } } } }`;
const KPIS = `query K($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) { total previousPeriod
  previousYear propertyComparison rooms { label value } meters { value } totalNormalYear climateCorrection { applied } } }`;
const TABLE = `query T($table: TenantTableInput!) { tenantTable(table: $table) { rows { label values comparisonValues } } }`;

export async function benchConsumption(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(
    `\n== consumption API, ${engine === 'pglite' ? 'PGlite (on disk)' : 'PostgreSQL 15 (local)'} ==`,
  );
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  const server = createServer();
  try {
    const now = new Date();
    const t0 = performance.now();
    await seedDemo(database.db, { now, days: DAYS, apartments: APARTMENTS });
    const t1 = performance.now();
    await refreshAllDegreeDays(database.db);
    const t2 = performance.now();
    console.log(
      `demo: ${DAYS} days, ${APARTMENTS} apartments loaded in ${((t1 - t0) / 1000).toFixed(1)} s; ` +
        `degree days for all of it in ${(t2 - t1).toFixed(0)} ms (one statement)`,
    );
    let statements = 0;
    const counter: Logger = {
      logQuery() {
        statements++;
      },
    };
    (database.db as unknown as { session: { logger: Logger } }).session.logger = counter;

    const services: ApiServices = {
      config: parseServerConfig({ DATA_DIR: tmpdir(), LOG_LEVEL: 'warn' }),
      database,
      logger: pino({ level: 'warn' }),
      keys: await generateKeyRing(),
    };
    server.on('request', createTenantYoga(services));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tenant/graphql`;
    const { token, unitId } = await demoTenant(url);
    const today = Temporal.Now.plainDateISO('Europe/Copenhagen');
    const yearAgo = today.subtract({ years: 1 }).with({ day: 1 });
    const yearAtMonth = {
      graphType: 'HOURLY_VALUES',
      resolution: 'MONTH',
      periodBegin: `${yearAgo}T00:00`,
      periodEnd: `${today.with({ day: 1 }).add({ months: 1 })}T00:00`,
      objects: [{ kind: 'UNIT', id: unitId }],
      quantities: ['heat-energy'],
    };
    const scenarios = [
      {
        name: 'baseline: tenantGraph year at MONTH, no comparison',
        query: GRAPH,
        variables: { graph: yearAtMonth },
      },
      {
        name: 'tenantGraph year at MONTH, PROPERTY + LAST_YEAR + climate',
        query: GRAPH,
        variables: { graph: { ...yearAtMonth, related: ['PROPERTY', 'LAST_YEAR'], climateCorrection: {} } },
      },
      {
        name: 'unitQuantityKpis last 365 days, heat + hca, climate',
        query: KPIS,
        variables: {
          input: {
            unitId,
            quantities: ['heat-energy', 'hca'],
            periodBegin: today.subtract({ days: 365 }).toString(),
            periodEnd: today.subtract({ days: 1 }).toString(),
            climateCorrection: {},
          },
        },
      },
      {
        name: 'tenantTable last month per ROOM vs PROPERTY, hca + climate',
        query: TABLE,
        variables: {
          table: {
            unitId,
            quantities: ['hca', 'indoor-temperature'],
            periodBegin: today.with({ day: 1 }).subtract({ months: 1 }).toString(),
            periodEnd: today.with({ day: 1 }).subtract({ days: 1 }).toString(),
            rows: 'ROOM',
            compareWith: 'PROPERTY',
          },
        },
      },
    ];
    for (const s of scenarios) {
      statements = 0;
      await post(url, s.query, s.variables, token);
      const perRequest = statements;
      await load(url, token, s.query, s.variables); // warm-up
      const sorted = await load(url, token, s.query, s.variables);
      console.log(
        `${s.name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms ` +
          `(${REQUESTS} requests, ${CLIENTS} concurrent clients, ${perRequest} SQL statements per request)`,
      );
    }
  } finally {
    server.close();
    await database.close();
    await cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flags = new Set(process.argv.slice(2));
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!flags.has('--postgres-only')) await benchConsumption('pglite');
  if (!flags.has('--pglite-only')) {
    if (pgUrl) await benchConsumption('postgres', pgUrl);
    else console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL=postgres://… to include it)');
  }
}
