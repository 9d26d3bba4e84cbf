/** Part "http" of the live-ingestion bench (tests/bench/ingest-live.ts). */
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { performance as perfHooks } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { generateKeyRing } from '../../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../../src/server/config.ts';
import { properties } from '../../../src/server/db/schema.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { seedDemo } from '../../../src/server/demo/seed.ts';
import { createAppServer } from '../../../src/server/http.ts';
import { createApiKey } from '../../../src/server/ingest/apiKeys.ts';
import { groupCommitStats } from '../../../src/server/ingest/groupCommit.ts';
import { ingestYield } from '../../../src/server/ingest/httpDoor.ts';
import type { ReadingRow } from '../../../src/server/ingest/ingest.ts';
import { PEOPLE_WINDOW_MS } from '../../../src/server/ingest/people.ts';
import { createJobRunner } from '../../../src/server/jobs/runner.ts';
import { copenhagenMinute, demoTenant, openBenchDatabase, post } from '../api.ts';
import { backendCpuSeconds } from '../ingest.ts';
import { APARTMENTS, HOUR, machine, median, p95 } from './common.ts';

/** Phase 3's tenant: one request every this many ms (an open loop). */
const TENANT_EVERY_MS = 10;

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { graphs { consumption { values } } } }`;

/**
 * Watches the server's thread through a timed phase: its event loop's utilisation, and with
 * BENCH_CPU_PROFILE=<prefix> a CPU profile written to <prefix>.<phase>.cpuprofile (for Chrome's DevTools or a
 * script). `stop` answers the utilisation.
 */
async function watchPhase(phase: string): Promise<{ stop(): Promise<number> }> {
  const prefix = process.env.BENCH_CPU_PROFILE;
  const session = prefix ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const elu = perfHooks.eventLoopUtilization();
  return {
    async stop() {
      const utilization = perfHooks.eventLoopUtilization(elu).utilization;
      if (session) {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(`${prefix}.${phase}.cpuprofile`, JSON.stringify(profile));
        session.disconnect();
      }
      return utilization;
    },
  };
}

/** Part "http": HTTP ingest against the bulk loader, tenantGraph under ingestion, freshness. */
export async function benchHttp(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== HTTP ingest (${engine}): 4 clients × 1,000-row batches, against the bulk loader ==`);
  console.log(`machine: ${machine()}`);
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  let server: Server | undefined;
  let clientThread: Worker | undefined;
  let tenant: Worker | undefined;
  try {
    // History up to 144 days ago: the clients send 2 days to warm up, 40 days alone (44 batches of about 1,000
    // rows, about 1.5 s; a week gave 8 batches and ratios that varied 2× between runs, 20 days 22 batches and
    // ratios 3-10 points apart), then 40 days while a tenant reads, 40 more while it asks at fixed arrivals, and
    // one batch of 20,000 rows (20 days) for the job worker.
    const seededTo = new Date(Math.floor(Date.now() / HOUR) * HOUR - 144 * 24 * HOUR);
    const t0 = performance.now();
    await seedDemo(database.db, { now: seededTo, days: 60, apartments: APARTMENTS });
    const bulkSeconds = (performance.now() - t0) / 1000;
    const [count] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM register_readings`,
    );
    const bulkRate = Number(count!.n) / bulkSeconds;
    const services = {
      config: parseServerConfig({
        DATA_DIR: tmpdir(),
        LOG_LEVEL: 'warn',
        INGEST_KEY_RATE_LIMIT: '1000000',
        // The app's default unless the bench is run with another (the transactions' size against the wait).
        ...(process.env.INGEST_CHUNK_ROWS ? { INGEST_CHUNK_ROWS: process.env.INGEST_CHUNK_ROWS } : {}),
        // The app's default for the engine unless set: INGEST_YIELD=0 measures ingestion that never gives way to people.
        ...(process.env.INGEST_YIELD ? { INGEST_YIELD: process.env.INGEST_YIELD } : {}),
        ...(process.env.INGEST_LANE_TRANSACTIONS
          ? { INGEST_LANE_TRANSACTIONS: process.env.INGEST_LANE_TRANSACTIONS }
          : {}),
      }),
      database,
      logger: pino({ level: 'warn' }),
      keys: await generateKeyRing(),
    };
    server = createAppServer({ services });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [property] = await database.db.select().from(properties);
    const { key } = await createApiKey(database.db, {
      name: 'bench',
      propertyIds: [property!.id],
      by: 'bench',
    });
    const registers = await queryRows<{ number: string; value: string }>(
      database.db,
      sql`SELECT m.number, (SELECT r.value::text FROM register_readings r WHERE r.meter_id = m.id
                            ORDER BY r.ts DESC LIMIT 1) AS value
          FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
          WHERE m.removed_at IS NULL AND p.reading_kind = 'register' ORDER BY m.number`,
    );
    const { token, unitId } = await demoTenant(`${origin}/api/tenant/graphql`);
    /** tenantGraph's variables: the tenant's heat at HOUR over the period. */
    const graphVariables = (periodBegin: string, periodEnd: string) => ({
      graph: {
        graphType: 'HOURLY_VALUES',
        resolution: 'HOUR',
        periodBegin,
        periodEnd,
        objects: [{ kind: 'UNIT', id: unitId }],
        quantities: ['heat-energy'],
      },
    });
    /** The period's values, asked from this thread (the freshness check). */
    const graph = async (periodBegin: string, periodEnd: string) => {
      const data = (await post(
        `${origin}/api/tenant/graphql`,
        GRAPH,
        graphVariables(periodBegin, periodEnd),
        token,
      )) as { tenantGraph: { graphs: { consumption: { values: (number | null)[] }[] }[] } };
      return data.tenantGraph.graphs[0]!.consumption[0]!.values;
    };
    const day = (end: Date) =>
      [copenhagenMinute(new Date(end.getTime() - 24 * HOUR)), copenhagenMinute(end)] as const;
    // The tenant's requests for the two latencies come from a thread of its own (tenant.mjs); 200 idle ones
    // (with 40, the p95 was the second slowest, often a cold one, and varied 6-30 ms between runs).
    const tenantThread = new Worker(new URL('./tenant.mjs', import.meta.url), {
      workerData: {
        url: `${origin}/api/tenant/graphql`,
        token,
        body: JSON.stringify({ query: GRAPH, variables: graphVariables(...day(seededTo)) }),
      },
    });
    tenant = tenantThread;
    /** The tenant thread's answer to its next run: each request's ms, and the CPU its thread used (ms). */
    const tenantAnswer = () =>
      new Promise<{ ms: number[]; cpuMs: number }>((resolve, reject) => {
        tenantThread.once('message', (m: { ms?: number[]; cpuMs?: number; error?: string }) =>
          m.error !== undefined ? reject(new Error(m.error)) : resolve({ ms: m.ms!, cpuMs: m.cpuMs! }),
        );
        tenantThread.once('error', reject);
      });
    const idleAnswer = tenantAnswer();
    tenantThread.postMessage({ count: 200 });
    const idle = (await idleAnswer).ms;
    // Nobody asks during phase 1: the tenant's last request is older than the app's window for people using
    // it (INGEST_YIELD gives way to them; ingest/people.ts).
    await new Promise((resolve) => setTimeout(resolve, PEOPLE_WINDOW_MS + 100));

    // Each client owns a quarter of the registers and sends their hours in order, 1,000 rows a batch.
    const clients = [0, 1, 2, 3].map((c) => registers.filter((_, i) => i % 4 === c));
    const csvOf = (rows: ReadingRow[]) =>
      `meter_number,timestamp,value\n${rows.map((r) => `${r.meterNumber},${r.ts},${r.value}`).join('\n')}\n`;
    const post1 = async (rows: ReadingRow[]) => {
      const csv = csvOf(rows);
      const res = await fetch(`${origin}/api/ingest/v1/readings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
        body: csv,
      });
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { totals: { accepted: number } };
    };
    // Each client's registers and their newest values: the phases continue the same series hour by hour.
    const values = clients.map((own) => own.map((m) => Number(m.value)));
    const hoursPerPhase = 40 * 24;
    /** The CSV bodies of the 4 clients for `hours` hours after `from` (hours after seededTo), 1,000 rows each. */
    const bodiesFor = (from: number, hours: number) =>
      clients.map((own, c) => {
        const perBatch = Math.max(1, Math.floor(1000 / own.length));
        const bodies: string[] = [];
        for (let h = from + 1; h <= from + hours; h += perBatch) {
          const rows: ReadingRow[] = [];
          for (let k = h; k < Math.min(h + perBatch, from + hours + 1); k++) {
            const ts = new Date(seededTo.getTime() + k * HOUR).toISOString();
            own.forEach((m, i) => {
              values[c]![i] = values[c]![i]! + 0.1;
              rows.push({
                line: rows.length + 2,
                meterNumber: m.number,
                ts,
                value: values[c]![i]!.toFixed(3),
              });
            });
          }
          bodies.push(csvOf(rows));
        }
        return bodies;
      });
    /**
     * The 4 clients send `hours` hours after `from`, each its batches in order (ingestPhase). The bodies are made
     * before the clock starts, and sent from a worker thread (clients.mjs): the clients' work is not the server's.
     */
    const thread = new Worker(new URL('./clients.mjs', import.meta.url), {
      workerData: { url: `${origin}/api/ingest/v1/readings`, key },
    });
    clientThread = thread;
    /** One phase of the clients: its readings/s, its length (s) and the CPU the clients' thread used (ms). */
    const ingestPhase = async (from: number, hours: number) => {
      const bodies = bodiesFor(from, hours);
      const started = performance.now();
      const answer = new Promise<{ accepted?: number; cpuMs?: number; error?: string }>((resolve, reject) => {
        thread.once('message', resolve);
        thread.once('error', reject);
      });
      thread.postMessage({ clients: bodies });
      const { accepted, cpuMs, error } = await answer;
      if (error !== undefined) throw new Error(error);
      const seconds = (performance.now() - started) / 1000;
      return { rate: accepted! / seconds, seconds, clientsCpuMs: cpuMs! };
    };
    const rateLine = (what: string, rate: number) =>
      `${what}: ${Math.round(rate).toLocaleString('en')} readings/s = ${((100 * rate) / bulkRate).toFixed(0)} % of the bulk rate`;

    // Phase 1, the throughput: the clients alone, as the bulk loader ran (nothing else asks the server).
    // Two days first, not timed: the first batches compile the code and prepare the statements.
    const warmUp = 48;
    await ingestPhase(0, warmUp);
    const merges = { ...groupCommitStats };
    // Where the phase's CPU goes: this process (server, clients, and on PGlite its database thread) and, on
    // PostgreSQL, the database's backends.
    const cpu0 = { app: process.cpuUsage(), db: await backendCpuSeconds(database) };
    const aloneWatch = await watchPhase('alone');
    const alone = (await ingestPhase(warmUp, hoursPerPhase)).rate;
    const aloneElu = await aloneWatch.stop();
    const appCpu = process.cpuUsage(cpu0.app);
    const dbCpu = (await backendCpuSeconds(database)) - cpu0.db;
    console.log(`bulk loader (same run): ${Math.round(bulkRate).toLocaleString('en')} readings/s`);
    console.log(`${rateLine(`HTTP, ${hoursPerPhase * registers.length} readings`, alone)} (goal ≥ 50 %)`);
    console.log(
      `group commit: ${groupCommitStats.batches - merges.batches} batches in ${groupCommitStats.transactions - merges.transactions} merges, ` +
        `committed in transactions of about ${services.config.INGEST_CHUNK_ROWS} rows (INGEST_CHUNK_ROWS); ` +
        `${engine === 'postgres' ? services.config.INGEST_LANE_TRANSACTIONS : 1} at a time (INGEST_LANE_TRANSACTIONS); ` +
        `while people use the app each is followed by ${ingestYield(services.config, engine)}× its time (INGEST_YIELD)`,
    );
    const perReading = (seconds: number) => ((1e6 * seconds) / (hoursPerPhase * registers.length)).toFixed(1);
    console.log(
      `CPU per reading: app ${perReading((appCpu.user + appCpu.system) / 1e6)} µs` +
        (engine === 'postgres'
          ? `, database backends ${perReading(dbCpu)} µs`
          : ' (the database thread included)'),
    );

    // Phase 2, the tenant's wait: the next 40 days while one tenant asks for a day at HOUR again and again.
    const duringAnswer = tenantAnswer();
    tenantThread.postMessage({ start: true });
    const duringWatch = await watchPhase('during');
    const cpu1 = {
      process: process.cpuUsage(),
      server: process.threadCpuUsage(),
      db: await backendCpuSeconds(database),
    };
    const underReads = await ingestPhase(warmUp + hoursPerPhase, hoursPerPhase);
    const cpuEnd = {
      process: process.cpuUsage(cpu1.process),
      server: process.threadCpuUsage(cpu1.server),
      db: (await backendCpuSeconds(database)) - cpu1.db,
    };
    const duringElu = await duringWatch.stop();
    tenantThread.postMessage({ stop: true });
    const { ms: during, cpuMs: tenantCpuMs } = await duringAnswer;
    console.log(
      `tenantGraph (24 h at HOUR) p95: idle ${p95(idle).toFixed(0)} ms, while ingesting ${p95(during).toFixed(0)} ms ` +
        `(${(p95(during) / p95(idle)).toFixed(1)}×, goal ≤ 2×; ${during.length} requests)`,
    );
    console.log(`${rateLine('HTTP meanwhile (one tenant asking all the time)', underReads.rate)}`);
    // Where the two cores went while the tenant was measured: this process by thread (the server's, the bench's
    // clients and tenant; the rest is the CSV worker, PGlite's thread, GC and libuv), and PostgreSQL's backends.
    const seconds = (u: { user: number; system: number }) => (u.user + u.system) / 1e6;
    const serverCpu = seconds(cpuEnd.server);
    const { clientsCpuMs } = underReads;
    const rest = seconds(cpuEnd.process) - serverCpu - clientsCpuMs / 1000 - tenantCpuMs / 1000;
    const share = (s: number) => `${s.toFixed(2)} s (${((100 * s) / (2 * underReads.seconds)).toFixed(0)} %)`;
    console.log(
      `CPU of the two cores in those ${underReads.seconds.toFixed(2)} s: server thread ${share(serverCpu)}, ` +
        `bench clients ${share(clientsCpuMs / 1000)}, bench tenant ${share(tenantCpuMs / 1000)}, ` +
        `other threads ${share(rest)}` +
        (engine === 'postgres' ? `, database backends ${share(cpuEnd.db)}` : ''),
    );
    // How busy the server's event loop was: a tenant's request waits behind its work at each of its awaits.
    console.log(
      `server event loop busy: ${(100 * aloneElu).toFixed(0)} % while the clients send alone, ` +
        `${(100 * duringElu).toFixed(0)} % while the tenant reads too`,
    );

    // Phase 3, the same at fixed arrivals: one request every TENANT_EVERY_MS whether the last was answered or not
    // (an open loop), as people arriving on their own would. Phase 2's tenant asks again as soon as it has its
    // answer, so it asks more often while answers are quick and under-weights the slow moments.
    const openAnswer = tenantAnswer();
    tenantThread.postMessage({ start: true, everyMs: TENANT_EVERY_MS });
    const underArrivals = await ingestPhase(warmUp + 2 * hoursPerPhase, hoursPerPhase);
    tenantThread.postMessage({ stop: true });
    const arrivals = (await openAnswer).ms;
    console.log(
      `tenantGraph at fixed arrivals (one every ${TENANT_EVERY_MS} ms) p95: ${p95(arrivals).toFixed(0)} ms ` +
        `(${(p95(arrivals) / p95(idle)).toFixed(1)}× idle, goal ≤ 2×; ${arrivals.length} requests); ` +
        `${rateLine('HTTP meanwhile', underArrivals.rate)}`,
    );

    // Phase 4, a large batch (answered 202) while the tenant asks at fixed arrivals: the job worker (as in
    // `npm start`, polling every 15 s and woken when the batch is queued) ingests it in parts of
    // INGEST_CHUNK_ROWS, giving way to the tenant between them (ingest/batchTask.ts).
    const bigHours = Math.ceil(20_000 / registers.length);
    const bigFrom = warmUp + 3 * hoursPerPhase;
    const bigRows: ReadingRow[] = [];
    for (let k = bigFrom + 1; k <= bigFrom + bigHours; k++) {
      const ts = new Date(seededTo.getTime() + k * HOUR).toISOString();
      for (const [c, own] of clients.entries()) {
        for (const [i, m] of own.entries()) {
          values[c]![i] = values[c]![i]! + 0.1;
          bigRows.push({
            line: bigRows.length + 2,
            meterNumber: m.number,
            ts,
            value: values[c]![i]!.toFixed(3),
          });
        }
      }
    }
    const runner = createJobRunner({
      db: database.db,
      logger: pino({ level: process.env.BENCH_JOB_LOG ?? 'warn' }),
      pollMs: 15_000,
      scheduleEveryMs: 3_600_000,
    });
    const stopRunner = runner.start();
    try {
      const bigAnswer = tenantAnswer();
      tenantThread.postMessage({ start: true, everyMs: TENANT_EVERY_MS });
      const bigStarted = performance.now();
      const posted = await fetch(`${origin}/api/ingest/v1/readings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
        body: csvOf(bigRows),
      });
      if (posted.status !== 202)
        throw new Error(`the large batch answered ${posted.status}: ${await posted.text()}`);
      const { href } = (await posted.json()) as { href: string };
      let receipt: { status: string; totals?: { accepted: number } };
      for (;;) {
        const res = await fetch(`${origin}${href}`, { headers: { authorization: `Bearer ${key}` } });
        receipt = (await res.json()) as typeof receipt;
        if (receipt.status !== 'pending') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const bigSeconds = (performance.now() - bigStarted) / 1000;
      tenantThread.postMessage({ stop: true });
      const bigArrivals = (await bigAnswer).ms;
      if (receipt.totals?.accepted !== bigRows.length)
        throw new Error(`the large batch: ${JSON.stringify(receipt).slice(0, 500)}`);
      console.log(
        `a batch of ${bigRows.length.toLocaleString('en')} rows (202), ingested by the job worker in parts of at ` +
          `most ${services.config.INGEST_CHUNK_ROWS} rows (1,000 while people use the app) in ${bigSeconds.toFixed(1)} s ` +
          `(${Math.round(bigRows.length / bigSeconds).toLocaleString('en')} readings/s) while the tenant asked at fixed ` +
          `arrivals: tenantGraph p95 ${p95(bigArrivals).toFixed(0)} ms (${(p95(bigArrivals) / p95(idle)).toFixed(1)}× idle; ` +
          `${bigArrivals.length} requests)`,
      );
    } finally {
      await stopRunner();
    }
    const hoursToSend = bigFrom + bigHours;

    // Freshness: one new hour of the tenant's heat register, then tenantGraph until it shows the hour.
    const [heat] = await queryRows<{ number: string; value: string }>(
      database.db,
      sql`SELECT m.number, (SELECT r.value::text FROM register_readings r WHERE r.meter_id = m.id
                            ORDER BY r.ts DESC LIMIT 1) AS value
          FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
          WHERE p.apartment_id = ${Number(unitId)} AND p.quantity = 'heat-energy' AND m.removed_at IS NULL`,
    );
    let value = Number(heat!.value);
    const fresh: number[] = [];
    for (let k = hoursToSend + 1; k <= hoursToSend + 20; k++) {
      const ts = new Date(seededTo.getTime() + k * HOUR);
      value += 0.5;
      await post1([{ line: 2, meterNumber: heat!.number, ts: ts.toISOString(), value: value.toFixed(3) }]);
      const answered = performance.now();
      const hourStart = new Date(ts.getTime() - HOUR);
      for (;;) {
        const values = await graph(copenhagenMinute(hourStart), copenhagenMinute(ts));
        if (values[0] !== null && values[0] !== undefined) break;
      }
      fresh.push(performance.now() - answered);
    }
    console.log(
      `freshness (POST answered → tenantGraph shows the hour): p95 ${p95(fresh).toFixed(0)} ms, median ${median(fresh).toFixed(0)} ms (goal p95 ≤ 2 s)`,
    );
  } finally {
    await clientThread?.terminate();
    await tenant?.terminate();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database.close();
    await cleanup();
  }
}
