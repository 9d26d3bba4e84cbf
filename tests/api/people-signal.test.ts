/**
 * Ingestion gives way while people use the app, in any app process of one database (ingest/people.ts): on
 * PostgreSQL a person's request here notifies the other processes, and their notifications count here. Another
 * process is played by a second connection of its own, on a real PostgreSQL; PGlite is one process's.
 */
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Database } from '../../src/server/db/client.ts';
import {
  forgetPeople,
  notePersonRequest,
  PEOPLE_CHANNEL,
  PEOPLE_SHARE_EVERY_MS,
  peopleActive,
  sharePeopleSignal,
} from '../../src/server/ingest/people.ts';
import { emptyDatabase, testEngine } from './helpers/db.ts';

const logger = { warn: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Nobody has asked anything for longer than the window (and nothing is sent for it). */
const forget = forgetPeople;

async function until(check: () => boolean, ms = 3_000): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (check()) return true;
    await sleep(10);
  }
  return check();
}

describe.runIf(testEngine === 'postgres')('people using another app process (PostgreSQL)', () => {
  let database: Database;
  let url: string;
  let other: Sql;
  const heard: string[] = [];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await emptyDatabase();
    database = fresh.database;
    url = fresh.url!;
    other = await connectPostgres(url, { max: 1 });
    // What this process sends (the test's own 'another-process' notifications reach this listener too).
    await other.listen(PEOPLE_CHANNEL, (payload) => {
      if (payload !== 'another-process') heard.push(payload);
    });
    stop = await sharePeopleSignal(database, logger);
  });
  afterAll(async () => {
    await stop?.();
    await other?.end({ timeout: 5 });
    await database?.close();
  });

  it("counts another process's notification as people using the app here", async () => {
    forget();
    expect(peopleActive()).toBe(false);
    await other`SELECT pg_notify(${PEOPLE_CHANNEL}, 'another-process')`;
    expect(await until(() => peopleActive())).toBe(true);
  });

  it('tells the other processes when a person asks here, at most once per PEOPLE_SHARE_EVERY_MS', async () => {
    forget();
    await sleep(50);
    heard.length = 0;
    notePersonRequest();
    notePersonRequest();
    notePersonRequest();
    expect(await until(() => heard.length > 0)).toBe(true);
    await sleep(100);
    expect(heard).toHaveLength(1);
    await sleep(PEOPLE_SHARE_EVERY_MS);
    notePersonRequest();
    expect(await until(() => heard.length > 1)).toBe(true);
    expect(heard).toHaveLength(2);
  });

  it('does not take its own notification for another process', async () => {
    await sleep(PEOPLE_SHARE_EVERY_MS);
    heard.length = 0;
    notePersonRequest();
    forget();
    // The notification it sent reaches its own listener too, and is let go.
    expect(await until(() => heard.length > 0)).toBe(true);
    await sleep(200);
    expect(peopleActive()).toBe(false);
  });

  it('after stopping, neither tells nor listens', async () => {
    await stop();
    forget();
    await sleep(PEOPLE_SHARE_EVERY_MS);
    heard.length = 0;
    notePersonRequest();
    await sleep(300);
    expect(heard).toEqual([]);
    forget();
    await other`SELECT pg_notify(${PEOPLE_CHANNEL}, 'another-process')`;
    await sleep(300);
    expect(peopleActive()).toBe(false);
  });
});

describe.runIf(testEngine === 'pglite')('people on PGlite', () => {
  it('shares nothing: the embedded database is one process', async () => {
    const { database } = await emptyDatabase();
    try {
      expect(database.listen).toBeUndefined();
      const stop = await sharePeopleSignal(database, logger);
      forget();
      notePersonRequest();
      expect(peopleActive()).toBe(true);
      await stop();
    } finally {
      await database.close();
    }
  });
});
