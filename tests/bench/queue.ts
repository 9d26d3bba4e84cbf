/**
 * Job queues compared (issue 9: "graphile-worker or pg-boss where it fits both engines, or a measured reason
 * for the small jobs table"). In one run, for our `jobs` table (FOR UPDATE SKIP LOCKED, src/server/jobs/queue.ts),
 * pg-boss and graphile-worker:
 *   - on PostgreSQL: jobs/s with 1 and 4 runners, for a no-op job and for a job that does one transactional
 *     write; every job is enqueued twice under the same key, and the effects are counted (duplicates = effects
 *     beyond one per key);
 *   - on PGlite behind our PG-wire socket (src/server/db/pglite-worker.mjs): whether each starts and runs jobs,
 *     and what the socket does with advisory locks and LISTEN/NOTIFY, which the libraries rely on.
 * Nothing here passes or fails on speed. Alone: `node --import tsx tests/bench/queue.ts` (with TEST_DATABASE_URL
 * for PostgreSQL). Env: QUEUE_BENCH_JOBS (default 1000 on PostgreSQL; PGlite runs a fifth of it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { z } from 'zod';
import {
  type Database,
  migrateDatabase,
  openDatabase,
  startPgliteWorker,
} from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { logTransport } from '../../src/server/jobs/mail.ts';
import { runNextJob } from '../../src/server/jobs/queue.ts';
import { defineTask, type Task } from '../../src/server/jobs/task.ts';

/**
 * noop; one transactional write; or the write and then a failure on the job's first attempt (the stand-in for a
 * crash between the write's commit and the job's completion: the job must run again, the write must not count twice).
 */
type Kind = 'noop' | 'write' | 'fail-once';
type QueueName = 'jobs table' | 'pg-boss' | 'graphile-worker';

/** One measured run. */
export interface QueueResult {
  queue: QueueName;
  engine: 'postgres' | 'pglite';
  kind: Kind;
  runners: number;
  jobs: number;
  seconds: number;
  perSecond: number;
  /** Handler calls beyond one per key. */
  extraRuns: number;
  /** Committed effect rows beyond one per key (write jobs). */
  duplicates: number;
  error?: string;
}

/** Where a run connects: a pg-style connection config and a URL for postgres.js (or the PGlite socket). */
interface Target {
  engine: 'postgres' | 'pglite';
  pgConfig: pg.ClientConfig;
  url?: string;
  socketPath?: string;
  cleanup(): Promise<void>;
}

const TIMEOUT_MS = 60_000;
const silent = pino({ level: 'silent' });

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no progress within ${ms / 1000} s`)), ms);
    }),
  ]);
}

/** Waits until `done()` is true, polling every 20 ms; rejects after the timeout. */
async function until(done: () => boolean | Promise<boolean>, what: () => string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what()}: not done within ${TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A fresh PostgreSQL database. */
async function postgresTarget(adminUrl: string): Promise<Target> {
  const name = `queue_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    engine: 'postgres',
    pgConfig: { connectionString: url.toString() },
    url: url.toString(),
    async cleanup() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * A fresh in-memory PGlite in its worker thread, reachable by node-postgres: pg finds a Unix socket as
 * `<dir>/.s.PGSQL.<port>`, so a directory with that link to our socket serves.
 */
async function pgliteTarget(): Promise<Target> {
  const worker = await startPgliteWorker(undefined);
  const dir = mkdtempSync(join(tmpdir(), 'pglite-pg-'));
  symlinkSync(worker.socketPath, join(dir, '.s.PGSQL.5432'));
  return {
    engine: 'pglite',
    pgConfig: { host: dir, port: 5432, user: 'postgres', database: 'postgres' },
    socketPath: worker.socketPath,
    async cleanup() {
      await worker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function effects(pool: pg.Pool): Promise<{ rows: number; keys: number }> {
  const { rows } = await pool.query<{ rows: string; keys: string }>(
    'SELECT count(*) AS rows, count(DISTINCT key) AS keys FROM bench_effects',
  );
  return { rows: Number(rows[0]!.rows), keys: Number(rows[0]!.keys) };
}

/** A pool whose connections may be cut by the DROP DATABASE … WITH (FORCE) of the cleanup without crashing us. */
function quietPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `job-${i}`);

/** Our jobs table: N concurrent runNextJob loops (as N worker processes would), sharing one pool. */
async function runJobsTable(target: Target, kind: Kind, runners: number, n: number): Promise<QueueResult> {
  // On PGlite, the app's own path: openDatabase starts PGlite in its worker behind the same socket server.
  const database: Database = await openDatabase(
    target.url ? { url: target.url, max: runners + 1 } : { max: runners + 1 },
  );
  await migrateDatabase(database);
  const db = database.db;
  await db.execute(sql`CREATE TABLE IF NOT EXISTS bench_effects (key text NOT NULL)`);
  const calls = new Map<string, number>();
  const task = defineTask({
    name: 'bench',
    payload: z.object({ key: z.string() }),
    key: (p) => ({ subject: p.key, period: 'once' }),
    async run({ tx }, { key }) {
      const attempt = (calls.get(key) ?? 0) + 1;
      calls.set(key, attempt);
      // The write commits with the job's "done": the same transaction.
      if (kind !== 'noop') await tx.execute(sql`INSERT INTO bench_effects (key) VALUES (${key})`);
      if (kind === 'fail-once' && attempt === 1) throw new Error('fails after its write');
    },
  }) as unknown as Task;
  // Every key twice: the second insert is a no-op (ON CONFLICT on the dedupe key).
  for (let round = 0; round < 2; round++)
    await db.execute(
      sql`INSERT INTO jobs (task, key, payload, run_at)
          SELECT 'bench', 'bench:' || k || ':once', jsonb_build_object('key', k), now()
          FROM unnest(${`{${keys(n).join(',')}}`}::text[]) AS k
          ON CONFLICT (key) DO NOTHING`,
    );
  const tasks = new Map([[task.name, task]]);
  const started = performance.now();
  // Retries wait 30 s by the backoff; the second pass runs with a clock an hour on, so they are due at once.
  for (const ahead of kind === 'fail-once' ? [0, 3_600_000] : [0])
    await withTimeout(
      Promise.all(
        Array.from({ length: runners }, async () => {
          const opts = { tasks, now: new Date(Date.now() + ahead), logger: silent, mail: logTransport };
          while ((await runNextJob(db, opts)).ran) {}
        }),
      ),
      TIMEOUT_MS,
      'jobs table',
    );
  const seconds = (performance.now() - started) / 1000;
  const [row] = await queryRows<{ rows: number; keys: number }>(
    db,
    sql`SELECT count(*)::int AS rows, count(DISTINCT key)::int AS keys FROM bench_effects`,
  );
  await database.close();
  return result(
    'jobs table',
    target,
    kind,
    runners,
    n,
    seconds,
    calls,
    row ? { rows: row.rows, keys: row.keys } : null,
  );
}

function result(
  queue: QueueName,
  target: Target,
  kind: Kind,
  runners: number,
  n: number,
  seconds: number,
  calls: Map<string, number>,
  effect: { rows: number; keys: number } | null,
): QueueResult {
  let total = 0;
  for (const c of calls.values()) total += c;
  return {
    queue,
    engine: target.engine,
    kind,
    runners,
    jobs: n,
    seconds,
    perSecond: n / seconds,
    // A fail-once job runs twice by design; count only runs beyond that.
    extraRuns: total - calls.size * (kind === 'fail-once' ? 2 : 1),
    duplicates: kind !== 'noop' && effect ? effect.rows - effect.keys : 0,
  };
}

/** A uuid derived from a key: pg-boss dedupes an insert by job id, so this is its dedupe key. */
function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * pg-boss: N instances (as N processes), each one work() loop. pg-boss polls (at least every 0.5 s) and waits
 * out the interval after each fetch, so a runner takes a batch of up to 50 jobs per poll; each job's write is
 * its own transaction, and pg-boss marks the batch complete after the handler returns.
 */
async function runPgBoss(target: Target, kind: Kind, runners: number, n: number): Promise<QueueResult> {
  const { default: PgBoss } = await import('pg-boss');
  const pool = quietPool({ ...target.pgConfig, max: runners + 1 });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_effects (key text NOT NULL)');
  const config = {
    ...(target.pgConfig as Record<string, unknown>),
    max: 2,
    supervise: false,
    schedule: false,
  };
  const bosses = Array.from({ length: runners }, () => new PgBoss(config as never));
  const errors: unknown[] = [];
  let stopping = false;
  for (const b of bosses) b.on('error', (err) => !stopping && errors.push(err));
  try {
    await withTimeout(bosses[0]!.start(), TIMEOUT_MS, 'pg-boss start');
    for (const b of bosses.slice(1)) await withTimeout(b.start(), TIMEOUT_MS, 'pg-boss start');
    await bosses[0]!.createQueue('bench');
    for (let round = 0; round < 2; round++) {
      const all = keys(n).map((key) => ({
        id: uuidOf(key),
        name: 'bench',
        data: { key },
        retryLimit: 3,
        retryDelay: 0,
      }));
      for (let i = 0; i < all.length; i += 500) await bosses[0]!.insert(all.slice(i, i + 500));
    }
    const calls = new Map<string, number>();
    let done = 0;
    const started = performance.now();
    for (const b of bosses)
      await b.work<{ key: string }>(
        'bench',
        { batchSize: 50, pollingIntervalSeconds: 0.5 },
        async (batch) => {
          let failed = false;
          for (const job of batch) {
            const attempt = (calls.get(job.data.key) ?? 0) + 1;
            calls.set(job.data.key, attempt);
            if (kind !== 'noop')
              await pool.query('INSERT INTO bench_effects (key) VALUES ($1)', [job.data.key]);
            if (kind === 'fail-once' && attempt === 1) failed = true;
          }
          // pg-boss fails or completes a fetched batch as a whole.
          if (failed) throw new Error('fails after its write');
          done += batch.length;
        },
      );
    await until(
      () => errors.length > 0 || done >= n,
      () => `pg-boss (${done} of ${n} jobs ran)`,
    );
    if (errors.length) throw errors[0];
    const seconds = (performance.now() - started) / 1000;
    // Let a second delivery of anything show up before counting.
    await new Promise((r) => setTimeout(r, 1_000));
    return result('pg-boss', target, kind, runners, n, seconds, calls, await effects(pool));
  } finally {
    stopping = true;
    await Promise.all(
      bosses.map((b) => b.stop({ graceful: false, wait: true, close: true }).catch(() => {})),
    );
    await pool.end();
  }
}

/**
 * graphile-worker: N runners (as N processes), each with concurrency 1; they wake by LISTEN/NOTIFY. The write
 * is its own transaction; graphile-worker completes the job in another statement after the task returns.
 */
async function runGraphileWorker(
  target: Target,
  kind: Kind,
  runners: number,
  n: number,
): Promise<QueueResult> {
  const gw = await import('graphile-worker');
  const pool = quietPool({ ...target.pgConfig, max: runners * 2 + 2 });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_effects (key text NOT NULL)');
  const calls = new Map<string, number>();
  let done = 0;
  const workerRunners: { stop(): Promise<void> }[] = [];
  const logFactory = () => () => {};
  const logger = new gw.Logger(logFactory);
  // graphile-worker brings its own copy of the pg types; the pool is the same pg.Pool at runtime.
  const pgPool = pool as never;
  try {
    await withTimeout(gw.runMigrations({ pgPool, logger }), TIMEOUT_MS, 'graphile-worker migrations');
    const utils = await gw.makeWorkerUtils({ pgPool, logger });
    for (let round = 0; round < 2; round++) {
      const all = keys(n).map((key) => ({ identifier: 'bench', payload: { key }, jobKey: key }));
      for (let i = 0; i < all.length; i += 500) await utils.addJobs(all.slice(i, i + 500), true);
    }
    await utils.release();
    const started = performance.now();
    for (let i = 0; i < runners; i++)
      workerRunners.push(
        await withTimeout(
          gw.run({
            pgPool,
            concurrency: 1,
            noHandleSignals: true,
            pollInterval: 500,
            logger,
            taskList: {
              bench: async (payload) => {
                const { key } = payload as { key: string };
                const attempt = (calls.get(key) ?? 0) + 1;
                calls.set(key, attempt);
                if (kind !== 'noop') await pool.query('INSERT INTO bench_effects (key) VALUES ($1)', [key]);
                // graphile-worker retries after exp(attempts) s: about 2.7 s for the first retry.
                if (kind === 'fail-once' && attempt === 1) throw new Error('fails after its write');
                done++;
              },
            },
          }),
          TIMEOUT_MS,
          'graphile-worker run',
        ),
      );
    await until(
      () => done >= n,
      () => `graphile-worker (${done} of ${n} jobs ran)`,
    );
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 1_000));
    return result('graphile-worker', target, kind, runners, n, seconds, calls, await effects(pool));
  } finally {
    await Promise.all(workerRunners.map((r) => r.stop().catch(() => {})));
    await pool.end();
  }
}

const RUNS: Record<QueueName, (t: Target, k: Kind, r: number, n: number) => Promise<QueueResult>> = {
  'jobs table': runJobsTable,
  'pg-boss': runPgBoss,
  'graphile-worker': runGraphileWorker,
};

/** What the PGlite socket does with the two features the libraries lean on; each line is an observation. */
async function probeSocket(): Promise<string[]> {
  const target = await pgliteTarget();
  const out: string[] = [];
  const a = new pg.Client(target.pgConfig);
  const b = new pg.Client(target.pgConfig);
  try {
    await a.connect();
    await b.connect();
    const lockA = (await a.query('SELECT pg_try_advisory_lock(42) AS ok')).rows[0].ok;
    const lockB = (await b.query('SELECT pg_try_advisory_lock(42) AS ok')).rows[0].ok;
    out.push(
      `advisory lock 42: connection A got ${lockA}, connection B got ${lockB}` +
        (lockA && lockB ? ' — both: one shared session, so advisory locks exclude nobody' : ''),
    );
    let heard = false;
    a.on('notification', () => {
      heard = true;
    });
    await a.query('LISTEN bench_channel');
    await b.query("NOTIFY bench_channel, 'x'");
    await new Promise((r) => setTimeout(r, 500));
    await a.query('SELECT 1');
    await new Promise((r) => setTimeout(r, 200));
    out.push(`LISTEN on A, NOTIFY from B: ${heard ? 'A heard it' : 'A never heard it'}`);
  } catch (err) {
    out.push(`probe failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await a.end().catch(() => {});
    await b.end().catch(() => {});
    await target.cleanup();
  }
  return out;
}

function line(r: QueueResult): string {
  if (r.error)
    return `  ${r.queue.padEnd(16)} ${r.kind.padEnd(9)} ${r.runners} runner(s): FAILED — ${r.error}`;
  return (
    `  ${r.queue.padEnd(16)} ${r.kind.padEnd(9)} ${r.runners} runner(s): ${r.perSecond.toFixed(0).padStart(5)} jobs/s` +
    ` (${r.jobs} jobs in ${r.seconds.toFixed(2)} s), extra runs ${r.extraRuns}, duplicate effects ${r.duplicates}`
  );
}

async function measure(
  queue: QueueName,
  make: () => Promise<Target>,
  kind: Kind,
  runners: number,
  n: number,
): Promise<QueueResult> {
  const target = await make();
  try {
    return await RUNS[queue](target, kind, runners, n);
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    return {
      queue,
      engine: target.engine,
      kind,
      runners,
      jobs: n,
      seconds: 0,
      perSecond: 0,
      extraRuns: 0,
      duplicates: 0,
      error: message,
    };
  } finally {
    await target.cleanup().catch(() => {});
  }
}

/** Prints the comparison; PostgreSQL only with a URL. */
export async function benchQueue(pgUrl?: string): Promise<QueueResult[]> {
  const n = Number(process.env.QUEUE_BENCH_JOBS ?? 1000);
  const results: QueueResult[] = [];
  const queues: QueueName[] = ['jobs table', 'pg-boss', 'graphile-worker'];
  if (pgUrl) {
    console.log(`\nJob queues on PostgreSQL (${n} keys, each enqueued twice):`);
    for (const kind of ['noop', 'write'] as const)
      for (const runners of [1, 4])
        for (const queue of queues) {
          const r = await measure(queue, () => postgresTarget(pgUrl), kind, runners, n);
          results.push(r);
          console.log(line(r));
        }
    const few = Math.max(20, Math.round(n / 10));
    console.log(
      `\nA failure after the write (the crash window between a job's effect and its completion), ${few} keys,` +
        ' 4 runners; jobs/s includes the retry wait:',
    );
    for (const queue of queues) {
      const r = await measure(queue, () => postgresTarget(pgUrl), 'fail-once', 4, few);
      results.push(r);
      console.log(line(r));
    }
  } else console.log('\n(Job queues on PostgreSQL skipped: set TEST_DATABASE_URL)');
  const small = Math.max(20, Math.round(n / 5));
  console.log(`\nJob queues on PGlite behind the PG-wire socket (${small} keys, each enqueued twice):`);
  for (const line of await probeSocket()) console.log(`  ${line}`);
  for (const runners of [1, 4])
    for (const queue of queues) {
      const r = await measure(queue, pgliteTarget, 'write', runners, small);
      results.push(r);
      console.log(line(r));
    }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchQueue(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
  process.exit(0);
}
