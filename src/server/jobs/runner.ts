/** Runs the queue: the schedule every minute, due jobs as they come; embedded in `npm start` or in `npm run worker`. */
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { type Clock, systemClock } from './clock.ts';
import { logTransport, type MailTransport } from './mail.ts';
import { onEnqueued, runNextJob } from './queue.ts';
import { ALL_TASKS } from './registry.ts';
import { scheduleDueJobs } from './schedule.ts';
import type { Task } from './task.ts';

export interface JobRunnerOptions {
  db: Db;
  logger: Logger;
  clock?: Clock;
  mail?: MailTransport;
  tasks?: readonly Task[];
  /** Pause between polls when the queue is empty; default 5 s. */
  pollMs?: number;
  /** Pause between schedule runs; default 60 s. */
  scheduleEveryMs?: number;
  /** Days finished job rows are kept (JOB_RETENTION_DAYS); default 90. */
  jobRetentionDays?: number;
  /** Years raw register readings are kept (READING_RETENTION_YEARS); unset: all. */
  readingRetentionYears?: number | undefined;
  /** The hourly meter check's limits (METER_SILENT_HOURS, METER_STUCK_DAYS); default 48 hours, 7 days. */
  meterHealth?: { silentHours: number; stuckDays: number };
  /** MQTT_ORGANISATION: whose admins the feed check tells (mqtt/alert.ts). */
  mqttOrganisation?: string | undefined;
}

/** A job runner over one database. */
export interface JobRunner {
  /** Runs due jobs until none is left (or `max`); returns how many ran. */
  drain(max?: number): Promise<number>;
  /** Queues what is due now, then drains. */
  tick(): Promise<number>;
  /** Runs in the background until the returned stop() resolves (it lets the job in flight finish). */
  start(): () => Promise<void>;
}

/** Creates a runner; nothing runs until tick(), drain() or start(). */
export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const clock = opts.clock ?? systemClock;
  const tasks = new Map((opts.tasks ?? ALL_TASKS).map((t) => [t.name, t]));
  const mail = opts.mail ?? logTransport;
  const logger = opts.logger.child({ component: 'worker' });

  /** When the jobs that continued here (a large batch's next part) are due; each forgotten once it is. */
  let continueAt: number[] = [];

  async function drain(max = Number.POSITIVE_INFINITY): Promise<number> {
    let n = 0;
    while (n < max) {
      const result = await runNextJob(opts.db, { tasks, now: clock.now(), logger, mail });
      if (!result.ran) break;
      n++;
      if (result.continueAt) continueAt.push(result.continueAt.getTime());
      // Let the HTTP server answer between jobs when it shares the process (embedded PGlite).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return n;
  }

  async function tick(): Promise<number> {
    await scheduleDueJobs(opts.db, clock.now(), {
      jobRetentionDays: opts.jobRetentionDays,
      readingRetentionYears: opts.readingRetentionYears,
      meterHealth: opts.meterHealth,
      mqttOrganisation: opts.mqttOrganisation,
    });
    return drain();
  }

  function start(): () => Promise<void> {
    let stopped = false;
    let lastSchedule = 0;
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    /** A job was queued in this process since the last drain began. */
    let queued = false;
    const loop = (async () => {
      while (!stopped) {
        queued = false;
        try {
          if (Date.now() - lastSchedule >= (opts.scheduleEveryMs ?? 60_000)) {
            lastSchedule = Date.now();
            await scheduleDueJobs(opts.db, clock.now(), {
              jobRetentionDays: opts.jobRetentionDays,
              readingRetentionYears: opts.readingRetentionYears,
              meterHealth: opts.meterHealth,
              mqttOrganisation: opts.mqttOrganisation,
            });
          }
          await drain();
        } catch (err) {
          logger.error({ err }, 'worker loop failed; trying again');
        }
        if (stopped) break;
        if (queued) continue;
        // The next poll, or sooner when a job's next part is due before it.
        const at = clock.now().getTime();
        continueAt = continueAt.filter((t) => t > at);
        const pollMs = Math.min(opts.pollMs ?? 5_000, ...continueAt.map((t) => t - at));
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, pollMs);
          timer.unref?.();
        });
        wake = undefined;
      }
    })();
    // A job queued in this process (a 202 batch of the ingestion API) wakes the runner at once rather than at its
    // next poll; one queued while a drain runs makes the loop drain again right after.
    const unsubscribe = onEnqueued(() => {
      queued = true;
      if (timer) clearTimeout(timer);
      wake?.();
    });
    return async () => {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    };
  }

  return { drain, tick, start };
}
