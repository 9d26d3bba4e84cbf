/**
 * Whether people are using the app: a GraphQL request (a tenant's page, the console, an account page) arrived
 * within PEOPLE_WINDOW_MS, at this process or, on PostgreSQL, at another app process of the same database. While
 * they are, ingestion's lanes give way (INGEST_YIELD in groupCommit.ts): a person waits for each answer, and a
 * gateway's batch does not mind a few milliseconds more.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

export const PEOPLE_WINDOW_MS = 2_000;

/**
 * INGEST_YIELD's default on each engine (httpDoor.ts, ingestYield): how many times a transaction's length an
 * ingestion lane pauses after it while people use the app. PostgreSQL runs people's statements beside ingestion's,
 * so ingestion there only has to leave the cores free most of the time (5: at most a sixth). PGlite has one
 * session: a request that arrives during an ingestion transaction waits for all of it, so ingestion may hold it
 * only a small share of the time (30: at most 1/31). Measured in docs/ingest-bench.md, sessions 15 and 16.
 */
export const POSTGRES_INGEST_YIELD = 5;
export const PGLITE_INGEST_YIELD = 30;

/** The PostgreSQL channel on which app processes tell each other that people use the app (sharePeopleSignal). */
export const PEOPLE_CHANNEL = 'tenant_app_people';
/** At most one notification per process this often while people use it: well inside PEOPLE_WINDOW_MS. */
export const PEOPLE_SHARE_EVERY_MS = 500;

let lastAt = Number.NEGATIVE_INFINITY;
let sharedAt = Number.NEGATIVE_INFINITY;
/** Tells the other processes (set by sharePeopleSignal while this process shares). */
let share: (() => void) | null = null;

/** A person's request arrived at this process (http.ts, for the three GraphQL endpoints). */
export function notePersonRequest(now = performance.now()): void {
  lastAt = now;
  if (share && now - sharedAt >= PEOPLE_SHARE_EVERY_MS) {
    sharedAt = now;
    share();
  }
}

/** As if nobody had used the app for longer than the window, without telling other processes (tests). */
export function forgetPeople(): void {
  lastAt = Number.NEGATIVE_INFINITY;
  sharedAt = Number.NEGATIVE_INFINITY;
}

/** Whether a person's request arrived within PEOPLE_WINDOW_MS of `now`, here or at another app process. */
export function peopleActive(now = performance.now()): boolean {
  return now - lastAt < PEOPLE_WINDOW_MS;
}

/**
 * On PostgreSQL, shares the signal between the app processes of one database (two behind a load balancer, the
 * deploy kit's app1 and app2): a person's request here sends `NOTIFY tenant_app_people` (at most every
 * PEOPLE_SHARE_EVERY_MS), and a notification from another process counts as a person's request here. So a tenant
 * served by app1 slows the lanes of app2 too, which load the same database. PGlite is one process's: nothing to
 * share. Returns how to stop (on shutdown). A failed notification is logged and changes nothing else.
 */
export async function sharePeopleSignal(
  database: Database,
  logger: { warn: (obj: object, msg: string) => void },
): Promise<() => Promise<void>> {
  if (database.engine !== 'postgres' || !database.listen) return async () => {};
  const me = randomUUID();
  let stopListening: () => Promise<void>;
  try {
    stopListening = await database.listen(PEOPLE_CHANNEL, (from) => {
      if (from !== me) lastAt = performance.now();
    });
  } catch (err) {
    // A pooler in transaction mode cannot LISTEN: this process then sees only its own people.
    logger.warn({ err }, 'not listening for people using other app processes');
    return async () => {};
  }
  const mine = () => {
    database.db.execute(sql`SELECT pg_notify(${PEOPLE_CHANNEL}, ${me})`).catch((err: unknown) => {
      logger.warn({ err }, 'telling the other app processes that people use the app failed');
    });
  };
  share = mine;
  return async () => {
    if (share === mine) share = null;
    await stopListening();
  };
}
