/**
 * `npm run bench -- --scale [--sizes 24,240,2400] [--days 730] [--seconds 5]` (issue 20, "Scale, measured"): for each
 * size, a PostgreSQL database of its own (made and dropped here, on BENCH_DATABASE_URL or TEST_DATABASE_URL) gets
 * the demo property with that many apartments and `--days` of history through the bulk loader, then prints:
 *   - the ingest rate (register readings per second of the whole seed) and the database's size per apartment-year;
 *   - p50 / p95 of tenantGraph (a year at MONTH, 30 days at DAY, 24 h at HOUR), the property comparison at HOUR,
 *     unitQuantityKpis, tenantTable and tenancyDashboard at 20 connections, and the dashboard alone (1 connection);
 *   - the worker's month-end pass for every tenancy (a member and a monthly alarm each): reports, alarms, mails.
 * Then each figure against the first size of the same run, with the load average. Goals in docs/scale.md. Runs
 * under the caller's `nice`; this bench's database backends are reniced to 19 too. `--keep` leaves each size's
 * database in place; `--reuse` then measures the newest kept one of each size again (migrated to this code, the
 * month-end pass's output emptied) without seeding: the same data before and after a change.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { connectPostgres, type Database, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { scheduleDueJobs } from '../../src/server/jobs/schedule.ts';
import type { ApiServices } from '../../src/server/services.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { benchPoolSize, demoTenant, load, post } from './api.ts';
import { processCpuSeconds } from './ingest.ts';
import { CLIENTS, operations } from './scale-ops.ts';

const WORKER_TASKS = ['consumption-report', 'evaluate-alarm', 'notification-mail', 'send-mail'];

export interface ScaleOptions {
  sizes: number[];
  days: number;
  /** Seconds of load per operation (after 1 s of warm-up). */
  seconds: number;
  /** Niceness of the measured windows (latency, worker); loads always run at 19. */
  measureNice: number;
  /** Tenancies given a member and an alarm for the worker's pass (`--worker-tenancies`); default all. */
  workerTenancies: number;
  /** `--keep`: leave each size's database in place (its name is printed) instead of dropping it. */
  keep: boolean;
  /**
   * `--reuse`: measure each size on the newest database an earlier `--keep` run left (`bench_scale_<size>_…`), after
   * migrating it and emptying what the month-end pass writes, instead of seeding one (it is kept again).
   */
  reuse: boolean;
}

interface SizeResult {
  apartments: number;
  readings: number;
  hourly: number;
  seedSeconds: number;
  bytes: number;
  latency: Map<string, { p50: number; p95: number; rps: number; cpuMs: number }>;
  worker: {
    seconds: number;
    cpu: number;
    tenancies: number;
    jobs: Record<string, number>;
    notDone: string[];
  };
  load: string;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** Parses `--sizes`, `--days`, `--seconds`, `--measure-nice` and `--worker-tenancies` from the command line. */
export function scaleOptions(args: string[]): ScaleOptions {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const sizes = (value('--sizes') ?? '24,240,2400').split(',').map((s) => Number(s.replace(/_/g, '')));
  const days = Number(value('--days') ?? 730);
  const seconds = Number(value('--seconds') ?? process.env.BENCH_SECONDS ?? 5);
  if (sizes.some((n) => !Number.isInteger(n) || n < 3) || !(days >= 34) || !(seconds >= 1))
    throw new Error(
      '--sizes takes apartments ≥ 3 (e.g. 24,240,2400); --days ≥ 34 (a whole month); --seconds ≥ 1',
    );
  const measureNice = Number(value('--measure-nice') ?? os.getPriority());
  const workerTenancies = Number(value('--worker-tenancies') ?? 2 ** 31 - 1);
  return {
    sizes,
    days,
    seconds,
    measureNice,
    workerTenancies,
    keep: args.includes('--keep'),
    reuse: args.includes('--reuse'),
  };
}

/** The niceness now wanted: 19 for loads; `--measure-nice` (default: as started) for the measured windows. */
let niceness = 19;
/** Sets every thread of this process (Linux renices per thread) to `n`; skips what it may not. */
function setNice(n: number) {
  niceness = n;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      os.setPriority(Number(tid), n);
    } catch {
      // Not permitted (raising priority needs root): stays as it was.
    }
  }
}

/** Renices this database's backends to the niceness wanted now; quietly skips what it may not. */
async function reniceBackends(admin: Awaited<ReturnType<typeof connectPostgres>>, name: string) {
  const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = ${name}`;
  for (const { pid } of rows) {
    try {
      if (os.getPriority(pid) !== niceness) os.setPriority(pid, niceness);
    } catch {
      // Not ours to renice (or gone): leave it.
    }
  }
}

/** Gives the first `limit` tenancies without a member one, and every member a monthly heat alarm. */
async function membersAndAlarms(database: Database, limit: number): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO users (email, name) SELECT 'scale' || t.id || '@bench.test', 'Bench'
      FROM tenancies t WHERE NOT EXISTS (SELECT 1 FROM tenancy_members m WHERE m.tenancy_id = t.id)
        AND t.id IN (SELECT id FROM tenancies ORDER BY id LIMIT ${limit})`);
    await tx.execute(sql`INSERT INTO tenancy_members (tenancy_id, user_id)
      SELECT t.id, u.id FROM tenancies t JOIN users u ON u.email = 'scale' || t.id || '@bench.test'
      ON CONFLICT DO NOTHING`);
    await tx.execute(sql`INSERT INTO alarms (user_id, tenancy_id, type, quantity, frequency, threshold)
      SELECT m.user_id, m.tenancy_id, 'threshold', 'heat-energy', 'month', 1 FROM tenancy_members m
      WHERE NOT EXISTS (SELECT 1 FROM alarms a WHERE a.tenancy_id = m.tenancy_id AND a.user_id = m.user_id
                          AND a.frequency = 'month')`);
  });
}

/**
 * One month-end pass: the schedule at `now`, only the month's tasks kept (reports and alarm evaluations), drained by
 * one runner; then, a minute later as the worker would, the notification mails they queued (and their sends).
 */
async function monthEndPass(database: Database, now: Date) {
  // A reused database holds an earlier pass's output (and the allocator months it stored): without them, the
  // pass does all its work again.
  await database.db.execute(
    sql`TRUNCATE jobs, monthly_reports, notifications, mail_outbox, alarm_evaluations, property_allocator_months CASCADE`,
  );
  await scheduleDueJobs(database.db, now);
  await database.db.execute(
    sql`DELETE FROM jobs WHERE task NOT IN ('consumption-report', 'evaluate-alarm') AND status = 'pending'`,
  );
  const logger = pino({ level: 'silent' });
  const started = performance.now();
  await createJobRunner({ db: database.db, logger, clock: { now: () => now } }).drain();
  const later = new Date(now.getTime() + 120_000);
  await createJobRunner({ db: database.db, logger, clock: { now: () => later } }).drain();
  const seconds = (performance.now() - started) / 1000;
  const rows = await queryRows<{ task: string; status: string; n: number }>(
    database.db,
    sql`SELECT task, status, count(*)::int AS n FROM jobs GROUP BY 1, 2`,
  );
  const jobs: Record<string, number> = {};
  const notDone: string[] = [];
  for (const r of rows) {
    if (!WORKER_TASKS.includes(r.task)) continue;
    if (r.status === 'done') jobs[r.task] = (jobs[r.task] ?? 0) + r.n;
    else notDone.push(`${r.task} ${r.status} ${r.n}`);
  }
  return { seconds, jobs, notDone };
}

/** CPU seconds so far of this process (server and load generator threads) and of each of this database's backends. */
async function cpuSeconds(admin: Awaited<ReturnType<typeof connectPostgres>>, name: string) {
  const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = ${name}`;
  const u = process.cpuUsage();
  return {
    app: (u.user + u.system) / 1e6,
    backends: new Map(rows.map((r) => [r.pid, processCpuSeconds(r.pid)])),
  };
}

/**
 * The app's and the backends' CPU seconds between two cpuSeconds readings. A backend that is there only at the end
 * counts whole; one that ended in between is not counted (its last part is lost, so this errs low, never negative:
 * the first version subtracted the earlier total of backends that had since closed, and printed a negative CPU).
 */
function cpuBetween(
  before: Awaited<ReturnType<typeof cpuSeconds>>,
  after: Awaited<ReturnType<typeof cpuSeconds>>,
): { app: number; database: number } {
  let database = 0;
  for (const [pid, seconds] of after.backends) database += seconds - (before.backends.get(pid) ?? 0);
  return { app: after.app - before.app, database };
}

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

async function measureSize(adminUrl: string, apartments: number, opts: ScaleOptions): Promise<SizeResult> {
  const admin = await connectPostgres(adminUrl, { max: 1 });
  const [reused] = opts.reuse
    ? await admin<{ datname: string }[]>`SELECT datname FROM pg_database
        WHERE datname ~ ${`^bench_scale_${apartments}_[0-9a-f]+$`} ORDER BY oid DESC LIMIT 1`
    : [];
  if (opts.reuse && !reused)
    throw new Error(`--reuse: no database bench_scale_${apartments}_… (run with --keep first)`);
  const name = reused?.datname ?? `bench_scale_${apartments}_${randomBytes(3).toString('hex')}`;
  if (!reused) await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: benchPoolSize() });
  const renice = setInterval(() => void reniceBackends(admin, name).catch(() => {}), 2_000);
  let server: Server | undefined;
  try {
    setNice(19);
    await migrateDatabase(database);
    // History ends on the 3rd of this month (UTC; of last month before the 3rd): the last complete month is in any
    // history of 34 days or more, so the worker's month-end pass has a whole month to report on.
    const today = new Date();
    const back = today.getUTCDate() < 3 ? 1 : 0;
    const now = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 3));
    const t0 = performance.now();
    if (!reused) await seedDemo(database.db, { now, days: opts.days, apartments });
    const seedSeconds = reused ? Number.NaN : (performance.now() - t0) / 1000;
    if (!reused) await refreshAllDegreeDays(database.db);
    const [counts] = await queryRows<{ readings: number; hourly: number; bytes: number }>(
      database.db,
      sql`SELECT (SELECT count(*) FROM register_readings)::bigint::float8 AS readings,
                 (SELECT count(*) FROM hourly_consumption)::bigint::float8 AS hourly,
                 pg_database_size(current_database())::float8 AS bytes`,
    );
    const perAptYear = counts!.bytes / (apartments * (opts.days / 365));
    console.log(
      `\n== ${apartments.toLocaleString('en')} apartments × ${opts.days} days (database ${name}, load average ${loadAverage()}) ==`,
    );
    console.log(
      `ingest: ${counts!.readings.toLocaleString('en')} readings → ${counts!.hourly.toLocaleString('en')} hourly values in ` +
        (reused
          ? 'an earlier run (--reuse: the seed is not timed)'
          : `${seedSeconds.toFixed(1)} s = ${Math.round(counts!.readings / seedSeconds).toLocaleString('en')} readings/s ` +
            `(the whole seed: entities, readings, rollups, analyze)`),
    );
    console.log(
      `size: ${(counts!.bytes / 2 ** 30).toFixed(2)} GiB = ${(perAptYear / 2 ** 20).toFixed(1)} MiB per apartment-year`,
    );

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
    setNice(opts.measureNice);
    await reniceBackends(admin, name);
    const latency: SizeResult['latency'] = new Map();
    console.log(
      `p50 / p95 ms (req/s), ${opts.seconds} s per operation after 1 s of warm-up, pool ${benchPoolSize()}:`,
    );
    for (const op of operations(now, unitId, String(tenancy!.id))) {
      await post(endpoint, op.query, op.variables, token); // answers without errors, or throws
      const request = {
        url: endpoint,
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: op.query, variables: op.variables }),
        connections: op.connections,
        timeout: 120,
      };
      await load({ ...request, duration: 1 });
      const before = await cpuSeconds(admin, name);
      const r = await load({ ...request, duration: opts.seconds });
      const used = cpuBetween(before, await cpuSeconds(admin, name));
      // CPU per request: the app's (less the load generator's own) and the database backends'.
      const cpuMs = (1000 * (used.app - r.loaderCpuUs / 1e6 + used.database)) / r.requests;
      latency.set(op.name, { p50: r.p50, p95: r.p95, rps: r.rps, cpuMs });
      console.log(
        `  ${op.name.padEnd(44)} ${String(op.connections).padStart(2)} conns  p50 ${ms(r.p50).padStart(6)}  ` +
          `p95 ${ms(r.p95).padStart(6)}  (${r.rps.toFixed(0)} req/s, CPU ${ms(cpuMs)} ms/request${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''})`,
      );
    }
    server.closeAllConnections();
    server.close();
    server = undefined;

    await membersAndAlarms(database, opts.workerTenancies);
    const cpuBefore = await cpuSeconds(admin, name);
    const pass = await monthEndPass(database, now);
    const used = cpuBetween(cpuBefore, await cpuSeconds(admin, name));
    const cpu = used.app + used.database;
    // The pass's tenancies: one consumption report each.
    const tenancies = pass.jobs['consumption-report'] ?? 0;
    const jobs = Object.entries(pass.jobs).map(([k, v]) => `${k} ${v}`);
    console.log(
      `worker, one month-end pass for ${tenancies.toLocaleString('en')} tenancies: ${pass.seconds.toFixed(1)} s, ` +
        `${((1000 * pass.seconds) / tenancies).toFixed(1)} ms per tenancy (CPU ${((1000 * cpu) / tenancies).toFixed(1)} ms); ` +
        `jobs done: ${jobs.join(', ')}${pass.notDone.length ? `; not done: ${pass.notDone.join(', ')}` : ''} ` +
        `(load average ${loadAverage()})`,
    );
    return {
      apartments,
      readings: counts!.readings,
      hourly: counts!.hourly,
      seedSeconds,
      bytes: counts!.bytes,
      latency,
      worker: { ...pass, tenancies, cpu },
      load: loadAverage(),
    };
  } finally {
    clearInterval(renice);
    server?.closeAllConnections();
    server?.close();
    await database.close();
    if (opts.keep || reused) console.log(`kept database ${name} (--keep)`);
    else await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end({ timeout: 5 });
  }
}

/** Runs every size, then prints each figure against the first size's. */
export async function benchScale(adminUrl: string, opts: ScaleOptions): Promise<void> {
  console.log(
    `\nScale on PostgreSQL: sizes ${opts.sizes.join(', ')} apartments, ${opts.days} days each, ${CLIENTS} clients`,
  );
  const results: SizeResult[] = [];
  for (const n of opts.sizes) results.push(await measureSize(adminUrl, n, opts));
  const base = results[0]!;
  console.log(
    `\nRatios against ${base.apartments} apartments (same run; goals: latency ≤ 1.3×, worker linear):`,
  );
  for (const r of results.slice(1)) {
    const scale = r.apartments / base.apartments;
    console.log(
      `  ${r.apartments} apartments (${scale}× the apartments; load average at its end ${r.load}):`,
    );
    const rate = (x: SizeResult) => x.readings / x.seedSeconds;
    const perAptYear = (x: SizeResult) => x.bytes / (x.apartments * (opts.days / 365));
    // A reused database's seed was not timed (seedSeconds NaN): no rate to compare.
    const ingest = opts.reuse
      ? 'ingest rate not timed (--reuse)'
      : `ingest rate ${(rate(r) / rate(base)).toFixed(2)}×`;
    console.log(`    ${ingest}; size per apartment-year ${(perAptYear(r) / perAptYear(base)).toFixed(2)}×`);
    for (const [name, l] of r.latency) {
      const b = base.latency.get(name)!;
      const p50 = l.p50 / b.p50;
      const p95 = l.p95 / b.p95;
      const verdict = p50 <= 1.3 && p95 <= 1.3 ? 'met' : 'MISSED';
      // CPU per request (app + database) does not depend on how busy the shared machine is: the work itself.
      console.log(
        `    ${name.padEnd(44)} p50 ${p50.toFixed(2)}×  p95 ${p95.toFixed(2)}×  ${verdict}  (CPU per request ${(l.cpuMs / b.cpuMs).toFixed(2)}×)`,
      );
    }
    const worker = r.worker.seconds / r.worker.tenancies / (base.worker.seconds / base.worker.tenancies);
    console.log(
      `    worker time per tenancy ${worker.toFixed(2)}× (1.0 = linear) ${worker <= 1.3 ? 'met' : 'MISSED'}; CPU per tenancy ` +
        `${(r.worker.cpu / r.worker.tenancies / (base.worker.cpu / base.worker.tenancies)).toFixed(2)}×`,
    );
  }
  console.log('\nDashboard at 20 clients against alone (goal ≤ 3×):');
  for (const r of results) {
    const busy = r.latency.get('tenancyDashboard 30 d at DAY + PROPERTY')!;
    const alone = r.latency.get('tenancyDashboard alone')!;
    console.log(
      `  ${String(r.apartments).padStart(5)} apartments: p50 ${(busy.p50 / alone.p50).toFixed(2)}×, p95 ${(busy.p95 / alone.p95).toFixed(2)}× ` +
        `(${busy.p50 / alone.p50 <= 3 ? 'met' : 'MISSED'}); CPU ${ms(busy.cpuMs)} ms per dashboard at 20 clients, so ` +
        `${CLIENTS} in flight on ${os.cpus().length} cores wait at least ${ms((CLIENTS * busy.cpuMs) / os.cpus().length)} ms`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!pgUrl)
    throw new Error(
      'set BENCH_DATABASE_URL or TEST_DATABASE_URL=postgres://… (the scale bench is PostgreSQL only)',
    );
  await benchScale(pgUrl, scaleOptions(process.argv.slice(2)));
}
