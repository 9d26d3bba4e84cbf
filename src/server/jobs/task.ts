/**
 * A job is defined once (graphql-hive's `defineTask` is the model): a name, a zod schema for its payload, the
 * dedupe key it is enqueued under, and the work. The work runs in the transaction that marks the job done.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { MailTransport } from './mail.ts';

/** What a task's work sees: the job's transaction, the injected clock's time, a logger with the job key. */
export interface TaskContext {
  tx: Db;
  now: Date;
  logger: Logger;
  mail: MailTransport;
}

/**
 * Done; or "not ready yet, run me again at" (`retryAt`): the job stays pending and nothing it wrote is kept; or
 * "one part done, run me again at" (`continueAt`): what it wrote is committed and the job stays pending for its next
 * part (a large ingestion batch in parts, batchTask.ts), its failed attempts forgotten.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a task that only writes returns nothing
export type TaskOutcome = void | { retryAt: Date } | { continueAt: Date };

/** The key parts: which subject (alarm:7, tenancy:3, user:5) and which period (2026-11-21, 2026-10). */
interface DedupeKey {
  subject: string;
  period: string;
}

/** A defined task. */
export interface Task<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  key(payload: z.output<S>): DedupeKey;
  run(ctx: TaskContext, payload: z.output<S>): Promise<TaskOutcome>;
  /** Failed attempts before the job is given up as failed; default 8. */
  maxAttempts?: number;
}

/** Defines a task; the identity function, there for the types. */
export function defineTask<S extends z.ZodType>(task: Task<S>): Task<S> {
  return task;
}

/** The job key of a payload: task, subject and period. */
export function jobKey<S extends z.ZodType>(task: Task<S>, payload: z.output<S>): string {
  const { subject, period } = task.key(payload);
  return `${task.name}:${subject}:${period}`;
}
