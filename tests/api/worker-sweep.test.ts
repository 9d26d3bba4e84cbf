/**
 * The daily sweep: finished job rows older than the retention go, newer ones stay, pending jobs (a job being run
 * is still pending) are never swept, and expired throttle rows (report lookups, account rate limits) go; the
 * planner's statistics are refreshed.
 * Runs on PGlite and PostgreSQL.
 */
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limiterOptions } from '../../src/server/auth/throttle.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  apiKeyDays,
  ingestBatches,
  jobs,
  mqttFeed,
  mqttUnmatched,
  rateLimits,
  reportLookupLimits,
} from '../../src/server/db/schema.ts';
import { queryRows, refreshGrownStatistics, refreshStatistics } from '../../src/server/db/sql.ts';
import { createApiKey } from '../../src/server/ingest/apiKeys.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { freshDatabase } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

const DAY = 86_400_000;
const now = new Date('2026-06-15T04:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);

describe('sweep', () => {
  it('deletes finished jobs older than the retention and expired throttle rows; keeps the rest', async () => {
    const job = (key: string, status: 'pending' | 'done' | 'failed', age: number) => ({
      task: 'evaluate-alarm',
      key,
      payload: {},
      status,
      runAt: daysAgo(age + 1),
      createdAt: daysAgo(age + 1),
      finishedAt: status === 'pending' ? null : daysAgo(age),
    });
    await database.db
      .insert(jobs)
      .values([
        job('old-done', 'done', 41),
        job('old-failed', 'failed', 200),
        job('new-done', 'done', 39),
        job('new-failed', 'failed', 1),
        job('old-pending', 'pending', 400),
      ]);
    await database.db.insert(reportLookupLimits).values([
      { key: 'report:1.2.3.4', points: 5, expire: new Date(now.getTime() - 1_000) },
      { key: 'report:5.6.7.8', points: 5, expire: new Date(now.getTime() + 60_000) },
    ]);
    await database.db.insert(rateLimits).values([
      { key: 'login:old@example.test', points: 3, expire: daysAgo(2) },
      { key: 'login:new@example.test', points: 3, expire: new Date(now.getTime() + 600_000) },
    ]);

    const clock = manualClock(now);
    const runner = createJobRunner({
      db: database.db,
      logger: pino({ level: 'silent' }),
      clock,
      jobRetentionDays: 40,
    });
    // A job created 401 days ago and still pending (waiting, or being run: a running job is pending until its
    // transaction commits). Its run_at is tomorrow, so this tick does not run it.
    await database.db
      .update(jobs)
      .set({ runAt: new Date(now.getTime() + DAY) })
      .where(eq(jobs.key, 'old-pending'));
    const statistics = async () =>
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 'public' AND tablename = 'jobs'`,
        )
      )[0]!.n;
    expect(await statistics()).toBe(0);
    await runner.tick();
    // The sweep refreshed the planner's statistics (PGlite has no autovacuum to do it).
    expect(await statistics()).toBeGreaterThan(0);

    const keys = (await database.db.select({ key: jobs.key, status: jobs.status }).from(jobs))
      .map((j) => `${j.key}:${j.status}`)
      // The hourly meter-health check (ingestion) and the daily partition run also run in this tick; they are
      // not the sweep's concern.
      .filter((k) => !k.startsWith('meter-health:') && !k.startsWith('partitions:'))
      .sort();
    expect(keys).toEqual([
      'new-done:done',
      'new-failed:failed',
      'old-pending:pending',
      // The sweep's own row, done now, and kept for the retention like any other.
      'sweep:rows:2026-06-15:done',
    ]);
    expect((await database.db.select().from(reportLookupLimits)).map((r) => r.key)).toEqual([
      'report:5.6.7.8',
    ]);
    expect((await database.db.select().from(rateLimits)).map((r) => r.key)).toEqual([
      'login:new@example.test',
    ]);

    // Once a day: another tick the same day queues no second sweep; the next day does.
    clock.advance(3_600_000);
    await runner.tick();
    clock.advance(DAY);
    await runner.tick();
    const rows = await queryRows<{ key: string }>(
      database.db,
      sql`SELECT key FROM jobs WHERE task = 'sweep' ORDER BY key`,
    );
    expect(rows.map((r) => r.key)).toEqual(['sweep:rows:2026-06-15', 'sweep:rows:2026-06-16']);
  });

  it("deletes finished ingestion batches, API keys' days and MQTT no-reading counts older than the retention; keeps pending batches", async () => {
    const at = new Date('2026-07-01T04:00:00Z');
    const ago = (d: number) => new Date(at.getTime() - d * DAY);
    const { propertyId } = await testProperty(database.db, [{ uniqueId: 'S1', areaM2: '50' }], 'SWEEP');
    const key = await createApiKey(database.db, { name: 'sweep', propertyIds: [propertyId], by: 'test' });
    const batch = (idem: string, status: 'pending' | 'done' | 'failed', age: number) => ({
      apiKeyId: key.info.id,
      idempotencyKey: idem,
      bodySha256: 'x',
      status,
      rowCount: 1,
      createdAt: ago(age),
      finishedAt: status === 'pending' ? null : ago(age),
    });
    await database.db
      .insert(ingestBatches)
      .values([
        batch('old-done', 'done', 41),
        batch('old-failed', 'failed', 50),
        batch('new-done', 'done', 39),
        batch('old-pending', 'pending', 60),
      ]);
    const day = (d: number) => ({
      apiKeyId: key.info.id,
      day: ago(d).toISOString().slice(0, 10),
      batches: 1,
    });
    await database.db.insert(apiKeyDays).values([day(45), day(41), day(39), day(0)]);
    // Telegrams that gave no reading, by when they were last seen (first seen long before: it does not count).
    const unmatched = (radioId: string, seen: number) => ({
      radioId,
      reason: 'unknown_id',
      telegrams: 1,
      firstSeen: ago(400),
      lastSeen: ago(seen),
      lastPayload: '{}',
    });
    await database.db
      .insert(mqttUnmatched)
      .values([unmatched('OLD', 41), unmatched('NEW', 39), unmatched('NOW', 0)]);
    // MQTT subscribers' status, by when they last reported.
    const subscriber = (clientId: string, reported: number) => ({
      clientId,
      url: 'mqtt://broker',
      topic: '#',
      connected: false,
      since: ago(400),
      reportedAt: ago(reported),
    });
    await database.db.insert(mqttFeed).values([subscriber('old-client', 41), subscriber('new-client', 39)]);
    await createJobRunner({
      db: database.db,
      logger: pino({ level: 'silent' }),
      clock: manualClock(at),
      jobRetentionDays: 40,
    }).tick();
    const left = await database.db.select({ idem: ingestBatches.idempotencyKey }).from(ingestBatches);
    expect(left.map((b) => b.idem).sort()).toEqual(['new-done', 'old-pending']);
    const days = await database.db.select({ day: apiKeyDays.day }).from(apiKeyDays);
    expect(days.map((d) => d.day).sort()).toEqual([ago(39), ago(0)].map((d) => d.toISOString().slice(0, 10)));
    const ids = await database.db.select({ id: mqttUnmatched.radioId }).from(mqttUnmatched);
    expect(ids.map((u) => u.id).sort()).toEqual(['NEW', 'NOW']);
    const clients = await database.db.select({ id: mqttFeed.clientId }).from(mqttFeed);
    expect(clients.map((c) => c.id)).toEqual(['new-client']);
  });

  it('analyzes only the tables never analyzed or grown by more than a tenth since', async () => {
    const fresh = await freshDatabase();
    try {
      // On PostgreSQL, autovacuum could analyze the table between the inserts and the check below.
      await fresh.db.execute(sql`ALTER TABLE rate_limits SET (autovacuum_enabled = false)`);
      const grown = () => fresh.db.transaction((tx) => refreshGrownStatistics(tx as never));
      const first = await grown();
      // Never analyzed: every table of the schema, the ones that matter here among them.
      expect(first).toEqual(
        expect.arrayContaining(['public.jobs', 'public.rate_limits', 'public.hourly_consumption']),
      );
      expect(await grown()).toEqual([]);
      const rows = (n: number, from: number) =>
        Array.from({ length: n }, (_, i) => ({
          key: `login:user${from + i}@example.test`,
          points: 1,
          expire: new Date(now.getTime() + DAY),
        }));
      // 20,000 rows: some hundred pages where there were none.
      for (let i = 0; i < 20; i++) await fresh.db.insert(rateLimits).values(rows(1_000, i * 1_000));
      expect(await grown()).toEqual(['public.rate_limits']);
      expect(await grown()).toEqual([]);
      // Less than a tenth more is left to a later sweep; past a tenth, it is analyzed again.
      await fresh.db.insert(rateLimits).values(rows(1_000, 20_000));
      expect(await grown()).toEqual([]);
      for (let i = 0; i < 2; i++) await fresh.db.insert(rateLimits).values(rows(1_000, 21_000 + i * 1_000));
      expect(await grown()).toEqual(['public.rate_limits']);
      // The first load's full refresh leaves nothing for the sweep.
      await fresh.db.transaction((tx) => refreshStatistics(tx as never));
      expect(await grown()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a retention below 35 days in the config', async () => {
    const { parseServerConfig } = await import('../../src/server/config.ts');
    expect(() => parseServerConfig({ JOB_RETENTION_DAYS: '7' })).toThrow();
    expect(parseServerConfig({}).JOB_RETENTION_DAYS).toBe(90);
  });
});

describe('throttle rows', () => {
  it('are left to the sweep: no throttle starts a cleanup timer of its own', async () => {
    const { RateLimiterDrizzle } = await import('rate-limiter-flexible');
    for (const name of ['loginAccount', 'loginIp', 'resetEmail', 'signupIp'] as const) {
      const options = limiterOptions(database.db, name);
      expect(options.clearExpiredByTimeout).toBe(false);
      const limiter = new RateLimiterDrizzle(options) as unknown as { _clearExpiredTimeoutId?: unknown };
      expect(limiter._clearExpiredTimeoutId).toBeUndefined();
    }
  });
});
