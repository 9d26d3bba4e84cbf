/**
 * The worker: catching up after 40 days of downtime without flooding, mail through a real SMTP server
 * (smtp-server, in-process), and on PostgreSQL two workers that run every job exactly once and a kill -9 in
 * the middle of a job that loses nothing and writes nothing twice.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import {
  alarmEvaluations,
  alarms,
  jobs,
  mailOutbox,
  notifications,
  tenancies,
} from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { smtpTransport } from '../../src/server/jobs/mail.ts';
import { enqueue, runNextJob } from '../../src/server/jobs/queue.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { defineTask, type Task } from '../../src/server/jobs/task.ts';
import { outboxMessageId } from '../../src/server/jobs/tasks/sendMail.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let fx: Fixture;
let tenancyB: number;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  const rows = await database.db.select().from(tenancies);
  tenancyB = rows.find((t) => t.tenancyId === 'T-B-2024')!.id;
  await database.db.execute(sql`CREATE TABLE test_effects (job text NOT NULL)`);
});
afterAll(async () => {
  await database?.close();
});

describe('catching up', () => {
  it('after 40 days down: one evaluation per alarm for the latest period, one report, one summary mail', async () => {
    const [alarm] = await database.db
      .insert(alarms)
      .values({
        userId: fx.users.bob.id,
        tenancyId: tenancyB,
        type: 'threshold',
        quantity: 'heat-energy',
        frequency: 'day',
        threshold: '10',
      })
      .returning();
    const clock = manualClock(new Date('2025-02-25T06:00:00Z'));
    const runner = createJobRunner({ db: database.db, logger: silent, clock });
    await runner.tick();
    expect(await database.db.select().from(alarmEvaluations)).toMatchObject([
      { alarmId: alarm!.id, periodStart: '2025-02-24', state: 'fired' },
    ]);
    clock.advance(120_000);
    await runner.drain();
    const mailsBefore = (await database.db.select().from(mailOutbox)).length;

    // Down for 40 days; the worker comes back on 2025-04-06.
    clock.set(new Date('2025-04-06T06:00:00Z'));
    await runner.tick();
    clock.advance(120_000);
    await runner.drain();
    const evaluations = await database.db
      .select()
      .from(alarmEvaluations)
      .where(eq(alarmEvaluations.alarmId, alarm!.id));
    expect(evaluations.map((e) => e.periodStart).sort()).toEqual(['2025-02-24', '2025-04-05']);
    const bobs = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, fx.users.bob.id));
    expect(bobs.map((n) => [n.kind, n.periodStart]).sort()).toEqual([
      ['consumption_report', '2025-03-01'],
      ['high_consumption', '2025-02-24'],
      ['high_consumption', '2025-04-05'],
    ]);
    const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, fx.users.bob.email));
    expect(mails).toHaveLength(mailsBefore + 1);
    const summary = mails.at(-1)!;
    expect(summary.subject).toBe('2 new notifications');
    expect(summary.body).toContain('Your consumption for March 2025 is ready.');
    expect(summary.body).toContain('Heat energy: 2,229 kWh');
    expect(summary.body).toContain('Heat energy was 72 kWh on 5 April 2025, above your threshold of 10 kWh.');
  });
});

describe('mail', () => {
  it('is delivered to a real SMTP server and marked sent', async () => {
    const received: { from: string; to: string[]; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => {
          data += c.toString('utf8');
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.server.address() as AddressInfo;
      const mail = smtpTransport(`smtp://127.0.0.1:${port}`, 'Tenant App <no-reply@tenant-app.test>');
      const clock = manualClock(new Date('2025-03-31T06:00:00Z'));
      await database.db.update(alarms).set({ enabled: false });
      await database.db.insert(alarms).values({
        userId: fx.users.bob.id,
        tenancyId: tenancyB,
        type: 'zero_consumption',
        quantity: 'heat-energy',
        frequency: 'week',
        threshold: '0',
      });
      await database.db.insert(alarms).values({
        userId: fx.users.bob.id,
        tenancyId: tenancyB,
        type: 'threshold',
        quantity: 'heat-energy',
        frequency: 'week',
        threshold: '400',
      });
      const runner = createJobRunner({ db: database.db, logger: silent, clock, mail });
      await runner.tick();
      clock.advance(120_000);
      await runner.drain();
      expect(received.map((r) => r.to)).toEqual([[fx.users.bob.email]]);
      expect(received[0]!.data).toMatch(/Subject: High consumption: Heat energy/);
      expect(received[0]!.data).toContain('above your threshold of 400 kWh');
      const [last] = await database.db.select().from(mailOutbox).orderBy(sql`id DESC`).limit(1);
      expect(last!.sentAt).not.toBeNull();
      // A crash after SMTP accepted it but before sent_at committed: the retry sends the same Message-ID, so
      // the receiver can drop the repeat.
      const messageId = outboxMessageId(last!);
      expect(received[0]!.data).toContain(`Message-ID: ${messageId}`);
      await database.db.update(mailOutbox).set({ sentAt: null }).where(eq(mailOutbox.id, last!.id));
      await database.db
        .update(jobs)
        .set({ status: 'pending' })
        .where(eq(jobs.key, `send-mail:outbox:${last!.id}:once`));
      await runner.drain();
      expect(received).toHaveLength(2);
      expect(received[1]!.data).toContain(`Message-ID: ${messageId}`);
      // Every other row gets its own.
      expect(outboxMessageId({ ...last!, id: last!.id + 1 })).not.toBe(messageId);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** A task whose only effect is one row in test_effects. */
const effectTask = (pauseMs: number): Task =>
  defineTask({
    name: 'test-effect',
    payload: z.object({ n: z.number().int() }),
    key: (p) => ({ subject: `n:${p.n}`, period: 'once' }),
    async run({ tx }, { n }) {
      await tx.execute(sql`INSERT INTO test_effects (job) VALUES (${`n:${n}`})`);
      if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    },
  }) as unknown as Task;

async function currentUrl(): Promise<string> {
  const [row] = await queryRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}

describe.skipIf(testEngine !== 'postgres')('several workers on PostgreSQL', () => {
  it('two workers run each of 60 jobs exactly once', async () => {
    await database.db.execute(sql`DELETE FROM test_effects`);
    const task = effectTask(5);
    const now = new Date('2025-03-31T06:00:00Z');
    for (let n = 0; n < 60; n++) await enqueue(database.db, task, { n }, now);
    // Enqueueing again is a no-op: the dedupe key exists.
    expect(await enqueue(database.db, task, { n: 0 }, now)).toBe(false);
    const url = await currentUrl();
    const [a, b] = await Promise.all([openDatabase({ url, max: 2 }), openDatabase({ url, max: 2 })]);
    try {
      const clock = manualClock(new Date('2025-03-31T07:00:00Z'));
      const workers = [a, b].map((d) => createJobRunner({ db: d.db, logger: silent, clock, tasks: [task] }));
      const counts = await Promise.all(workers.map((w) => w.drain()));
      expect(counts[0]! + counts[1]!).toBe(60);
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBeGreaterThan(0);
      const [effects] = await queryRows<{ total: number; distinct: number }>(
        database.db,
        sql`SELECT count(*)::int AS total, count(DISTINCT job)::int AS distinct FROM test_effects`,
      );
      expect(effects).toEqual({ total: 60, distinct: 60 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('kill -9 in the middle of a job loses nothing and writes nothing twice', async () => {
    await database.db.execute(sql`DELETE FROM test_effects`);
    const now = new Date('2025-03-31T06:00:00Z');
    await enqueue(database.db, effectTask(0), { n: 1000 }, now);
    const url = await currentUrl();
    const src = (p: string) => fileURLToPath(new URL(`../../src/server/${p}`, import.meta.url));
    // Inside the project, so the child resolves pino, zod and drizzle from its node_modules.
    const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'worker-kill-'));
    const script = join(dir, 'child.mts');
    // The child writes the job's effect, says so, and then hangs inside the job's transaction.
    writeFileSync(
      script,
      `import pino from 'pino';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { openDatabase } from ${JSON.stringify(src('db/client.ts'))};
import { runNextJob } from ${JSON.stringify(src('jobs/queue.ts'))};
import { logTransport } from ${JSON.stringify(src('jobs/mail.ts'))};
const database = await openDatabase({ url: ${JSON.stringify(url)}, max: 1 });
const task = {
  name: 'test-effect',
  payload: z.object({ n: z.number() }),
  key: (p) => ({ subject: 'n:' + p.n, period: 'once' }),
  async run({ tx }, { n }) {
    await tx.execute(sql\`INSERT INTO test_effects (job) VALUES (\${'n:' + n})\`);
    console.log('IN_JOB');
    await new Promise(() => {});
  },
};
await runNextJob(database.db, { tasks: new Map([['test-effect', task]]), now: new Date('2025-03-31T07:00:00Z'), logger: pino({ level: 'silent' }), mail: logTransport });
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('IN_JOB')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });

    // The killed transaction rolled back: no effect, the job is still pending (and free once PostgreSQL
    // notices the dead connection).
    const effects = async () =>
      (await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM test_effects`))[0]!.n;
    expect(await effects()).toBe(0);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.key, 'test-effect:n:1000:once'));
    expect(job).toMatchObject({ status: 'pending', attempts: 0 });

    const restart = createJobRunner({
      db: database.db,
      logger: silent,
      clock: manualClock(new Date('2025-03-31T07:00:00Z')),
      tasks: [effectTask(0)],
    });
    const deadline = Date.now() + 20_000;
    let ran = 0;
    while (ran === 0 && Date.now() < deadline) {
      ran = await restart.drain();
      if (ran === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ran).toBe(1);
    expect(await restart.drain()).toBe(0);
    expect(await effects()).toBe(1);
    const [done] = await database.db.select().from(jobs).where(eq(jobs.key, 'test-effect:n:1000:once'));
    expect(done!.status).toBe('done');
  });
});

describe('retries', () => {
  it('a failing job is retried with backoff, logged with its key, and given up after its attempts', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          lines.push(JSON.parse(line));
        },
      },
    );
    const failing = defineTask({
      name: 'test-failing',
      payload: z.object({}),
      key: () => ({ subject: 'x', period: 'once' }),
      maxAttempts: 3,
      async run({ tx }) {
        await tx.execute(sql`INSERT INTO test_effects (job) VALUES ('failing')`);
        throw new Error('boom');
      },
    }) as unknown as Task;
    const start = new Date('2025-03-31T06:00:00Z');
    await database.db.delete(jobs).where(eq(jobs.status, 'pending'));
    await enqueue(database.db, failing, {}, start);
    const opts = {
      tasks: new Map([[failing.name, failing]]),
      logger,
      mail: { delivers: false, send: async () => {} },
    };
    expect(await runNextJob(database.db, { ...opts, now: start })).toMatchObject({ status: 'retry' });
    // Not due again until the 30 s backoff has passed.
    expect(await runNextJob(database.db, { ...opts, now: new Date(start.getTime() + 29_000) })).toEqual({
      ran: false,
    });
    expect(await runNextJob(database.db, { ...opts, now: new Date(start.getTime() + 30_000) })).toMatchObject(
      {
        status: 'retry',
      },
    );
    expect(
      await runNextJob(database.db, { ...opts, now: new Date(start.getTime() + 120_000) }),
    ).toMatchObject({
      status: 'failed',
    });
    const [job] = await database.db.select().from(jobs).where(eq(jobs.key, 'test-failing:x:once'));
    expect(job).toMatchObject({ status: 'failed', attempts: 3, lastError: 'boom' });
    // Each failed attempt rolled back what it wrote.
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM test_effects WHERE job = 'failing'`,
    );
    expect(row!.n).toBe(0);
    expect(lines.filter((l) => l.job === 'test-failing:x:once').map((l) => l.msg)).toEqual([
      'job failed, will retry',
      'job failed, will retry',
      'job failed for good',
    ]);
  });
});

describe('a job in parts', () => {
  it('commits each part, keeps the job pending, and the running worker wakes for the next part before its poll', async () => {
    let runs = 0;
    const parts = defineTask({
      name: 'test-parts',
      payload: z.object({}),
      key: () => ({ subject: 'x', period: 'once' }),
      async run({ tx, now }) {
        runs++;
        await tx.execute(sql`INSERT INTO test_effects (job) VALUES ('part')`);
        // Two parts that continue 100 ms later, then the last.
        if (runs < 3) return { continueAt: new Date(now.getTime() + 100) };
      },
    }) as unknown as Task;
    await database.db.delete(jobs).where(eq(jobs.status, 'pending'));
    await database.db.execute(sql`DELETE FROM test_effects WHERE job = 'part'`);
    await enqueue(database.db, parts, {}, new Date());
    const opts = {
      tasks: new Map([[parts.name, parts]]),
      logger: silent,
      mail: { delivers: false, send: async () => {} },
    };
    const first = await runNextJob(database.db, { ...opts, now: new Date() });
    expect(first).toMatchObject({ status: 'continued' });
    // The part is committed while the job stays pending, not due before its time.
    const effects = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            database.db,
            sql`SELECT count(*)::int AS n FROM test_effects WHERE job = 'part'`,
          )
        )[0]!.n,
      );
    expect(await effects()).toBe(1);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.task, 'test-parts'));
    expect(job).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await runNextJob(database.db, { ...opts, now: new Date() })).toEqual({ ran: false });
    // A running worker polling once a minute still runs the next parts when they are due: the second once it is
    // due, and the third 100 ms after, woken for it.
    await new Promise((r) => setTimeout(r, 150));
    const runner = createJobRunner({
      db: database.db,
      logger: silent,
      tasks: [parts],
      pollMs: 60_000,
      scheduleEveryMs: 3_600_000,
    });
    const stop = runner.start();
    try {
      const started = performance.now();
      while (runs < 3 && performance.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
      expect(runs).toBe(3);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await stop();
    }
    expect(await effects()).toBe(3);
    const [done] = await database.db.select().from(jobs).where(eq(jobs.task, 'test-parts'));
    expect(done!.status).toBe('done');
  });
});

describe('a job queued in this process', () => {
  it('wakes a running worker at once, not at its next poll', async () => {
    let ran = 0;
    const now = defineTask({
      name: 'test-now',
      payload: z.object({ n: z.number() }),
      key: (p) => ({ subject: 'x', period: String(p.n) }),
      async run() {
        ran++;
      },
    }) as unknown as Task;
    await database.db.delete(jobs).where(eq(jobs.status, 'pending'));
    const runner = createJobRunner({
      db: database.db,
      logger: silent,
      tasks: [now],
      pollMs: 60_000,
      scheduleEveryMs: 3_600_000,
    });
    const stop = runner.start();
    try {
      // The runner has drained and sleeps for a minute.
      await new Promise((r) => setTimeout(r, 300));
      await enqueue(database.db, now, { n: 1 }, new Date());
      const started = performance.now();
      while (ran < 1 && performance.now() - started < 5_000) await new Promise((r) => setTimeout(r, 10));
      expect(ran).toBe(1);
    } finally {
      await stop();
    }
  });
});
