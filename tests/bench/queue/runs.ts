/**
 * The three queues' measured runs (tests/bench/queue.ts): our jobs table, pg-boss and graphile-worker, each
 * running every key's job (enqueued twice) on a target and counting handler calls and committed effects.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import pino from 'pino';
import { z } from 'zod';
import { type Database, migrateDatabase, openDatabase } from '../../../src/server/db/client.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { logTransport } from '../../../src/server/jobs/mail.ts';
import { runNextJob } from '../../../src/server/jobs/queue.ts';
import { defineTask, type Task } from '../../../src/server/jobs/task.ts';
import { quietPool, type Target } from './targets.ts';

/**
 * noop; one transactional write; or the write and then a failure on the job's first attempt (the stand-in for a
 * crash between the write's commit and the job's completion: the job must run again, the write must not count twice).
 */
export type Kind = 'noop' | 'write' | 'fail-once';
export type QueueName = 'jobs table' | 'pg-boss' | 'graphile-worker';

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

async function effects(pool: pg.Pool): Promise<{ rows: number; keys: number }> {
  const { rows } = await pool.query<{ rows: string; keys: string }>(
    'SELECT count(*) AS rows, count(DISTINCT key) AS keys FROM bench_effects',
  );
  return { rows: Number(rows[0]!.rows), keys: Number(rows[0]!.keys) };
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

export const RUNS: Record<QueueName, (t: Target, k: Kind, r: number, n: number) => Promise<QueueResult>> = {
  'jobs table': runJobsTable,
  'pg-boss': runPgBoss,
  'graphile-worker': runGraphileWorker,
};
