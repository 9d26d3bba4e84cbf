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
 * The targets (a fresh database on either engine) are in queue/targets.ts, the three queues' runs in queue/runs.ts;
 * this file probes the PGlite socket, measures and prints.
 */
import pg from 'pg';
import { type Kind, type QueueName, type QueueResult, RUNS } from './queue/runs.ts';
import { pgliteTarget, postgresTarget, type Target } from './queue/targets.ts';

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
