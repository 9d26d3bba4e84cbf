/**
 * The job queue on one table (`jobs`): enqueue by dedupe key, claim with FOR UPDATE SKIP LOCKED, and run the
 * task inside the claiming transaction. A crash mid-job rolls everything back and the row stays pending, so
 * nothing is lost and nothing is written twice; several workers never run the same job.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { getMetrics } from '../metrics.ts';
import { currentRequestId } from '../requestScope.ts';
import type { MailTransport } from './mail.ts';
import { jobKey, type Task } from './task.ts';

/** Retry delay after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at 6 h. */
function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}

/** Called after each new job is queued in this process (a runner here wakes for it: runner.ts). */
const enqueuedListeners = new Set<() => void>();

/** Calls `listener` whenever this process queues a new job; returns how to stop. */
export function onEnqueued(listener: () => void): () => void {
  enqueuedListeners.add(listener);
  return () => enqueuedListeners.delete(listener);
}

/**
 * Enqueues a job unless one with its key exists; true when it was new. Enqueued on behalf of a request, the job
 * keeps the request's id, and its log lines carry it.
 */
export async function enqueue<S extends z.ZodType>(
  db: Db,
  task: Task<S>,
  payload: z.input<S>,
  runAt: Date,
): Promise<boolean> {
  const parsed = task.payload.parse(payload) as z.output<S>;
  const rows = await db
    .insert(jobs)
    .values({
      task: task.name,
      key: jobKey(task, parsed),
      payload: parsed,
      runAt,
      requestId: currentRequestId() ?? null,
    })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  // A runner in this process claims it now rather than at its next poll (inside a transaction not yet committed,
  // it finds nothing new and sleeps again).
  if (rows.length > 0) for (const listener of enqueuedListeners) listener();
  return rows.length > 0;
}

/** What one claim did. */
export type RunResult =
  | { ran: false }
  | {
      ran: true;
      key: string;
      task: string;
      status: 'done' | 'continued' | 'postponed' | 'retry' | 'failed';
      /** A task that continues: when its next part is due. */
      continueAt?: Date;
    };

class Postponed extends Error {
  constructor(readonly retryAt: Date) {
    super('postponed');
  }
}

interface JobRow extends Record<string, unknown> {
  id: number;
  task: string;
  key: string;
  payload: unknown;
  attempts: number;
  request_id: string | null;
}

/** Options of one run. */
export interface RunOptions {
  tasks: ReadonlyMap<string, Task>;
  now: Date;
  logger: Logger;
  mail: MailTransport;
}

/**
 * Claims the next due job and runs it in the claiming transaction; `{ ran: false }` when none is due. Counts the
 * run by task and outcome, with its time (metrics.ts); a transaction that fails outright counts as `error`.
 */
export async function runNextJob(db: Db, opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const metrics = getMetrics();
  let task = 'unknown';
  try {
    const result = await claimAndRun(db, opts, (name) => {
      task = name;
    });
    if (result.ran) {
      metrics.jobRuns.inc({ task: result.task, status: result.status });
      metrics.jobDuration.observe({ task: result.task }, (performance.now() - started) / 1000);
    }
    return result;
  } catch (err) {
    metrics.jobRuns.inc({ task, status: 'error' });
    throw err;
  }
}

async function claimAndRun(db: Db, opts: RunOptions, claimed: (task: string) => void): Promise<RunResult> {
  const { now } = opts;
  const iso = now.toISOString();
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const [job] = await queryRows<JobRow>(
      tx,
      sql`SELECT id, task, key, payload, attempts, request_id FROM jobs
          WHERE status = 'pending' AND run_at <= ${iso}::timestamptz
          ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    if (!job) return { ran: false } as const;
    claimed(job.task);
    const attempt = Number(job.attempts) + 1;
    const logger = opts.logger.child({
      job: job.key,
      attempt,
      ...(job.request_id ? { requestId: job.request_id } : {}),
    });
    const ran = { ran: true, key: job.key, task: job.task } as const;
    const task = opts.tasks.get(job.task);
    try {
      if (!task) throw new Error(`unknown task ${job.task}`);
      const payload = task.payload.parse(job.payload);
      // A savepoint, so a failure or postponement undoes the work but keeps the claim to record it.
      const continueAt = await tx.transaction(async (sp) => {
        const outcome = await task.run({ tx: sp as unknown as Db, now, logger, mail: opts.mail }, payload);
        if (outcome && 'retryAt' in outcome) throw new Postponed(outcome.retryAt);
        return outcome && 'continueAt' in outcome ? outcome.continueAt : null;
      });
      if (continueAt) {
        await tx.execute(
          sql`UPDATE jobs SET run_at = ${continueAt.toISOString()}::timestamptz, attempts = 0, last_error = NULL
              WHERE id = ${job.id}`,
        );
        logger.debug({ continueAt: continueAt.toISOString() }, 'job part done, more to come');
        return { ...ran, status: 'continued', continueAt } as const;
      }
      await tx.execute(
        sql`UPDATE jobs SET status = 'done', finished_at = ${iso}::timestamptz, last_error = NULL WHERE id = ${job.id}`,
      );
      logger.debug('job done');
      return { ...ran, status: 'done' } as const;
    } catch (err) {
      if (err instanceof Postponed) {
        await tx.execute(
          sql`UPDATE jobs SET run_at = ${err.retryAt.toISOString()}::timestamptz WHERE id = ${job.id}`,
        );
        logger.info({ retryAt: err.retryAt.toISOString() }, 'job postponed: data not complete yet');
        return { ...ran, status: 'postponed' } as const;
      }
      const message = err instanceof Error ? err.message : String(err);
      const max = task?.maxAttempts ?? 8;
      if (!task || attempt >= max) {
        await tx.execute(
          sql`UPDATE jobs SET status = 'failed', attempts = ${attempt}, last_error = ${message},
              finished_at = ${iso}::timestamptz WHERE id = ${job.id}`,
        );
        logger.error({ err }, 'job failed for good');
        return { ...ran, status: 'failed' } as const;
      }
      const retryAt = new Date(now.getTime() + backoffMs(attempt));
      await tx.execute(
        sql`UPDATE jobs SET attempts = ${attempt}, last_error = ${message},
            run_at = ${retryAt.toISOString()}::timestamptz WHERE id = ${job.id}`,
      );
      logger.warn({ err, retryAt: retryAt.toISOString() }, 'job failed, will retry');
      return { ...ran, status: 'retry' } as const;
    }
  });
}
