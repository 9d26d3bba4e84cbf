/**
 * The database under the ingestion path: PGlite in its worker thread (or PostgreSQL), reached with postgres.js.
 * Connections take turns on PGlite's one session without seeing each other's transactions, a client that
 * dies mid-transaction is rolled back, heavy SQL does not block this thread, and API connections carry a
 * statement_timeout that ingestion lifts.
 */

import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKGROUND_APPLICATION,
  type Database,
  openBackgroundConnection,
  openDatabase,
  startPgliteWorker,
  unixSocketOf,
} from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

let database: Database;

beforeAll(async () => {
  database = await freshDatabase();
  await database.db.execute(sql`CREATE TABLE IF NOT EXISTS t_turns (v int)`);
});

afterAll(async () => {
  await database?.close();
});

describe('connections', () => {
  it("read libpq's Unix-socket form of a URL, and leave a TCP URL alone", () => {
    expect(unixSocketOf('postgres://u:p@localhost/app?host=/var/run/postgresql')).toEqual({
      url: 'postgres://u:p@localhost/app',
      path: '/var/run/postgresql/.s.PGSQL.5432',
    });
    expect(unixSocketOf('postgres://u:p@localhost:6543/app?host=/tmp/&sslmode=disable')).toEqual({
      url: 'postgres://u:p@localhost:6543/app?sslmode=disable',
      path: '/tmp/.s.PGSQL.6543',
    });
    expect(unixSocketOf('postgres://u:p@db.example:5432/app')).toBeNull();
    expect(unixSocketOf('postgres://u:p@db.example/app?host=db2.example')).toBeNull();
  });

  it('take their pool size from DATABASE_POOL_SIZE: 4 by default, 2 to 100, a bad value stops the start', async () => {
    const { parseServerConfig } = await import('../../src/server/config.ts');
    expect(parseServerConfig({}).DATABASE_POOL_SIZE).toBe(4);
    expect(parseServerConfig({ DATABASE_POOL_SIZE: '12' }).DATABASE_POOL_SIZE).toBe(12);
    for (const bad of ['1', '0', '101', 'ten', '2.5']) {
      expect(() => parseServerConfig({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  const socketDir = '/var/run/postgresql';
  const adminUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(testEngine !== 'postgres' || !existsSync(`${socketDir}/.s.PGSQL.5432`))(
    'reach PostgreSQL over its Unix socket when the URL names the socket directory',
    async () => {
      const url = new URL(adminUrl!);
      url.hostname = 'localhost';
      url.port = '5432';
      url.searchParams.set('host', socketDir);
      const local = await openDatabase({ url: url.toString(), max: 2 });
      try {
        const [row] = await queryRows<{ addr: string | null; one: number }>(
          local.db,
          sql`SELECT inet_server_addr()::text AS addr, 1 AS one`,
        );
        // A Unix-domain connection has no server address; a TCP one would show 127.0.0.1.
        expect(row).toEqual({ addr: null, one: 1 });
      } finally {
        await local.close();
      }
    },
  );

  it('run many concurrent parameterised statements, each getting its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const [row] = await queryRows<{ v: number; w: string }>(
          database.db,
          i % 2 === 0
            ? sql`SELECT ${i}::int AS v, ${`x${i}`}::text AS w`
            : sql`SELECT ${i}::int + 0 AS v, ${`x${i}`} AS w`,
        );
        return Number(row?.v) === i && row?.w === `x${i}`;
      }),
    );
    expect(answers.every(Boolean)).toBe(true);
  });

  it('do not see another connection’s uncommitted transaction, and an error rolls it back', async () => {
    let inside = 0;
    const tx = database.db
      .transaction(async (t) => {
        await t.execute(sql`INSERT INTO t_turns VALUES (1)`);
        const [row] = await queryRows<{ n: number }>(t as never, sql`SELECT count(*)::int AS n FROM t_turns`);
        inside = Number(row?.n);
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error('roll back');
      })
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [outside] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM t_turns`,
    );
    expect(await tx).toBeInstanceOf(Error);
    expect(inside).toBe(1);
    expect(Number(outside?.n)).toBe(0);
  });

  it('an error in one connection’s statement does not disturb the others', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        queryRows<{ v: number }>(
          database.db,
          i % 4 === 0 ? sql`SELECT 1/0 AS v` : sql`SELECT ${i}::int AS v`,
        ),
      ),
    );
    results.forEach((r, i) => {
      if (i % 4 === 0) expect(r.status).toBe('rejected');
      else expect(r.status === 'fulfilled' && Number(r.value[0]?.v)).toBe(i);
    });
  });
});

describe.skipIf(testEngine !== 'pglite')('PGlite in its worker thread', () => {
  it('keeps this thread free while a heavy statement runs', async () => {
    const lags: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      lags.push(now - last - 10);
      last = now;
    }, 10);
    const started = performance.now();
    await database.db.execute(sql`SELECT count(*) FROM generate_series(1, 1000000)`);
    const took = performance.now() - started;
    clearInterval(timer);
    // The statement took a while, but the timers on this thread kept firing: the worst delay is a small
    // fraction of the statement's time (in-process PGlite would have delayed them by all of it).
    expect(took).toBeGreaterThan(100);
    expect(Math.max(...lags)).toBeLessThan(took / 3);
  });

  it('rolls back the transaction of a client that disconnects in the middle of it', async () => {
    const { default: postgres } = await import('postgres');
    const worker = await startPgliteWorker(undefined);
    const a = postgres({ path: worker.socketPath, max: 1, onnotice: () => {} });
    const b = postgres({ path: worker.socketPath, max: 1, onnotice: () => {} });
    try {
      await a`CREATE TABLE t_gone (v int)`;
      const reserved = await a.reserve();
      await reserved`BEGIN`;
      await reserved`INSERT INTO t_gone VALUES (1)`;
      // b waits for a's turn to end; a's connection is then cut without COMMIT.
      const counting = b`SELECT count(*)::int AS n FROM t_gone`;
      await a.end({ timeout: 0 });
      const [row] = await counting;
      expect(row?.n).toBe(0);
    } finally {
      await b.end({ timeout: 1 });
      await worker.stop();
    }
  });
});

describe.skipIf(testEngine !== 'pglite')('PGlite worker: background connections go last', () => {
  it('gives the session to a waiting request before a background connection that waited longer', async () => {
    const { default: postgres } = await import('postgres');
    const worker = await startPgliteWorker(undefined);
    const open = (applicationName?: string) =>
      postgres({
        path: worker.socketPath,
        max: 1,
        onnotice: () => {},
        ...(applicationName ? { connection: { application_name: applicationName } } : {}),
      });
    const holder = open(BACKGROUND_APPLICATION);
    const background = open(BACKGROUND_APPLICATION);
    const request = open();
    try {
      await holder`CREATE SEQUENCE turns`;
      // Every connection has started up before the race below.
      await Promise.all([background`SELECT 1`, request`SELECT 1`]);
      const reserved = await holder.reserve();
      await reserved`BEGIN`;
      await reserved`SELECT 1`;
      // The background connection queues first, the request second.
      const late = background`SELECT nextval('turns')::int AS turn`.execute();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const early = request`SELECT nextval('turns')::int AS turn`.execute();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await reserved`COMMIT`;
      reserved.release();
      const [[first], [second]] = await Promise.all([early, late]);
      expect(first?.turn).toBe(1);
      expect(second?.turn).toBe(2);
      // The worker measured the request's wait behind the background transaction (about 50 ms), and only that.
      const waits = await worker.waits();
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(40);
      expect(await worker.waits()).toEqual([]);
    } finally {
      await Promise.all([holder, background, request].map((c) => c.end({ timeout: 1 })));
      await worker.stop();
    }
  });
});

describe('openBackgroundConnection', () => {
  it('opens another connection to the same database, named for the worker', async () => {
    const background = await openBackgroundConnection(database);
    try {
      await background.db.execute(sql`INSERT INTO t_turns VALUES (42)`);
      const [seen] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM t_turns WHERE v = 42`,
      );
      expect(seen?.n).toBe(1);
      // PostgreSQL shows the name; PGlite's one session keeps its own (the worker reads it from the startup).
      if (testEngine === 'postgres') {
        const [row] = await queryRows<{ name: string }>(
          background.db,
          sql`SELECT current_setting('application_name') AS name`,
        );
        expect(row?.name).toBe(BACKGROUND_APPLICATION);
      }
    } finally {
      await background.close();
    }
  });
});

describe.skipIf(testEngine !== 'postgres')('statement_timeout on PostgreSQL', () => {
  it('cancels a long API statement with SQLSTATE 57014, and SET LOCAL 0 lifts it for a bulk transaction', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const timed = await openDatabase({ url: adminUrl, max: 1, statementTimeoutMs: 200 });
    try {
      const error = await timed.db.execute(sql`SELECT pg_sleep(2)`).then(
        () => null,
        (e: unknown) => e as { code?: string; cause?: { code?: string } },
      );
      expect(error?.code ?? error?.cause?.code).toBe('57014');
      await timed.db.transaction(async (t) => {
        await t.execute(sql`SET LOCAL statement_timeout = 0`);
        await t.execute(sql`SELECT pg_sleep(0.4)`);
      });
    } finally {
      await timed.close();
    }
  });
});
