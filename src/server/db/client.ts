/**
 * Opens the database: PGlite under DATA_DIR (or in memory) by default, PostgreSQL when a URL is given.
 * Both engines speak the same SQL and share one Drizzle schema, one set of migrations and one driver:
 * PGlite runs in a worker thread (pglite-worker.mjs) and is reached over a Unix socket with postgres.js,
 * exactly as PostgreSQL is, so no SQL runs on the thread that serves HTTP.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Options, PostgresType, Sql } from 'postgres';
import { getMetrics } from '../metrics.ts';
import { appRoot } from '../paths.ts';
import { DataDirBusyError, dataDirOwner, lockDataDir } from './dataDirLock.ts';
import { framedSocket } from './framing.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** A Drizzle database over either engine. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /**
   * PGlite only: true when this process reached another process's embedded database through that process's socket
   * (the CLI beside `npm start`); such a connection must not migrate, and closing it leaves the database open.
   */
  attached?: boolean;
  close(): Promise<void>;
  /**
   * PGlite only: how long each request's turn waited (ms) for the one session while a background connection
   * held it, since the last call. PostgreSQL serves background connections alongside, so it has none.
   */
  waitsBehindBackground?: () => Promise<number[]>;
  /**
   * PGlite only: moves the worker's recorded waits into the `pglite_session_wait_seconds` histogram (a metrics
   * scrape calls it); waitsBehindBackground still returns them once.
   */
  recordWaits?: () => Promise<void>;
  /**
   * PostgreSQL only: calls `onNotify` with the payload of every `NOTIFY` on `channel` (on a connection of its own,
   * which postgres.js reconnects); resolves once listening, with how to stop.
   */
  listen?: (channel: string, onNotify: (payload: string) => void) => Promise<() => Promise<void>>;
}

export interface OpenOptions {
  /** postgres://… URL; when set, PostgreSQL is used. */
  url?: string | undefined;
  /** Folder for PGlite's files; ignored with `url`. Omit both for an in-memory PGlite. */
  dataDir?: string | undefined;
  /**
   * In-memory PGlite only: a tar of a data dir (PGlite's `dumpDataDir`) to start from instead of an empty cluster
   * (the API tests copy one migrated template per file this way, tests/api/helpers/templateDatabase.ts).
   */
  loadDataDir?: string | undefined;
  /** Pool size. */
  max?: number;
  /**
   * statement_timeout in ms for every statement on this pool (0: none). Enforced by PostgreSQL; PGlite,
   * being single-threaded WebAssembly without timer signals, does not enforce it (docs/decisions.md).
   * The bulk loader lifts it for its own transactions with SET LOCAL.
   */
  statementTimeoutMs?: number;
  /**
   * With `dataDir`: when another process (a running server) holds the folder, work through its PGlite worker's
   * socket instead of refusing (see dataDirLock.ts). Without it, a held folder throws DataDirBusyError.
   */
  attach?: boolean;
  /** Called with every statement's SQL text (benches count the statements of an operation). */
  logQuery?: (query: string) => void;
}

export const migrationsFolder = join(appRoot, 'src/server/db/migrations');

type Client = Sql<Record<string, PostgresType>>;

/**
 * How to open one more connection to the same database (for migrations, without the timeout, and for
 * background work), by the Drizzle handle, which survives wrapping a Database in another object.
 */
const connectOptions = new WeakMap<Db, { options: Options<Record<string, PostgresType>>; url?: string }>();

/**
 * postgres.js through Drizzle sends every statement unnamed, so PostgreSQL parses and plans it again each
 * time. This makes every statement a named prepared statement, cached per connection by its text; the
 * query texts are fixed shapes with parameters, so the cache stays small.
 */
export function preparing(client: Client): Client {
  return new Proxy(client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'unsafe') {
        return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
          target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (key === 'begin' || key === 'savepoint') {
        return (...args: unknown[]) => {
          const callback = args.pop() as (c: Client) => unknown;
          return (value as (...a: unknown[]) => unknown).call(target, ...args, (c: Client) =>
            callback(preparing(c)),
          );
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

async function connect(options: Options<Record<string, PostgresType>>, url?: string): Promise<Client> {
  const { default: postgres } = await import('postgres');
  if (!url) return postgres(options);
  const socket = unixSocketOf(url);
  return socket ? postgres(socket.url, { ...options, path: socket.path }) : postgres(url, options);
}

/** A plain postgres.js client for a `postgres://` URL (TCP, or libpq's `?host=/socket/dir`), e.g. an admin connection. */
export function connectPostgres(
  url: string,
  options: Options<Record<string, PostgresType>> = {},
): Promise<Client> {
  return connect({ onnotice: () => {}, ...options }, url);
}

/**
 * libpq's way to name a Unix-domain socket in a URL, `postgres://user:pass@localhost/db?host=/var/run/postgresql`
 * (the `host` parameter is the socket's directory), which postgres.js does not read: it would send `host` to the
 * server as a setting. Returns the URL without it and the socket's path, or null for a TCP URL.
 */
export function unixSocketOf(url: string): { url: string; path: string } | null {
  const parsed = new URL(url);
  const dir = parsed.searchParams.get('host');
  if (!dir?.startsWith('/')) return null;
  parsed.searchParams.delete('host');
  return { url: parsed.toString(), path: `${dir.replace(/\/$/, '')}/.s.PGSQL.${parsed.port || 5432}` };
}

/** The worker's file, from the sources (this module may run bundled: Astro's server, the server build). */
function workerFile(): URL {
  return pathToFileURL(join(appRoot, 'src/server/db/pglite-worker.mjs'));
}

/** Starts PGlite in a worker thread serving a Unix socket; resolves once it accepts connections. */
export async function startPgliteWorker(
  dataDir: string | undefined,
  loadDataDir?: string,
): Promise<{ socketPath: string; stop(): Promise<void>; waits(): Promise<number[]> }> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const socketPath = join(tmpdir(), `pglite-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
  const worker = new Worker(workerFile(), {
    workerData: { dataDir, loadDataDir, socketPath },
  });
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the PGlite worker exited (${code}) before it was ready`)),
    );
  });
  /** The worker's next message of a type. */
  const message = <M extends { type?: string }>(type: string) =>
    new Promise<M>((resolve) => {
      const on = (m: M) => {
        if (m?.type !== type) return;
        worker.off('message', on);
        resolve(m);
      };
      worker.on('message', on);
    });
  await Promise.race([message('ready'), failed]);
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', (err) => console.error('PGlite worker failed:', err));
  // The worker must not keep a finished process alive; close() ends it properly.
  worker.unref();
  return {
    socketPath,
    async waits() {
      const reply = message<{ type?: string; waits?: number[] }>('waits');
      worker.postMessage({ type: 'waits' });
      return (await reply).waits ?? [];
    },
    async stop() {
      const closed = message('closed');
      worker.postMessage({ type: 'close' });
      await closed;
      await worker.terminate();
    },
  };
}

/**
 * PostgreSQL session settings of every connection the app opens (API pool, worker, background and migrations),
 * sent in the startup packet, so the app does not depend on the server's defaults for them:
 * - `max_parallel_workers_per_gather = 0`: the app's statements are small index lookups and rollup reads; with the
 *   default (2) the planner gave three of the dashboard's tiny KPI statements parallel plans, and starting their
 *   workers cost 15-60 ms each: the dashboard ran 2-4 times faster without (issue 20's measurements). Parallelism
 *   pays for scans of millions of rows, which the app never makes (it reads the coarsest rollup that answers).
 * - `jit = off`: JIT compilation cost about 1 s per incremental ingestion batch (1,590 readings: 1.4-1.9 s with it,
 *   0.3 s without), and the API's statements are far below the size where compiling pays back.
 * PGlite has neither (one single-threaded process without LLVM), so these go to PostgreSQL only.
 */
export const APP_SESSION_SETTINGS = { max_parallel_workers_per_gather: '0', jit: 'off' } as const;

/**
 * The postgres.js options of a connection to the PGlite worker's socket: never recycled, and guarded
 * (framing.ts), so a garbled stream replaces the connection instead of hanging it. Exported for the test that
 * garbles one.
 */
export function embeddedOptions(
  base: Options<Record<string, PostgresType>>,
  socketPath: string,
): Options<Record<string, PostgresType>> {
  // postgres.js's `socket` option (a function that returns a connected or connecting socket) is not in its types.
  const socket = () => framedSocket(socketPath);
  return { ...base, path: socketPath, socket, max_lifetime: 0, idle_timeout: 0 } as Options<
    Record<string, PostgresType>
  >;
}

/** Opens a database without migrating it. */
/** Drizzle's logger option for OpenOptions.logQuery. */
function queryLogger(options: OpenOptions) {
  const log = options.logQuery;
  return log ? { logger: { logQuery: (query: string) => log(query) } } : {};
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const base: Options<Record<string, PostgresType>> = { onnotice: () => {} };
  if (options.url) {
    const timeout = options.statementTimeoutMs ?? 0;
    const pool = {
      ...base,
      max: options.max ?? 10,
      connection: { ...APP_SESSION_SETTINGS, ...(timeout > 0 ? { statement_timeout: timeout } : {}) },
    };
    const client = await connect(pool, options.url);
    const db = drizzle(preparing(client), { schema, ...queryLogger(options) }) as unknown as Db;
    const database: Database = {
      db,
      engine: 'postgres',
      close: () => client.end({ timeout: 5 }),
      async listen(channel, onNotify) {
        const { unlisten } = await client.listen(channel, onNotify);
        return unlisten;
      },
    };
    connectOptions.set(db, {
      options: { ...base, max: 1, connection: { ...APP_SESSION_SETTINGS } },
      url: options.url,
    });
    return database;
  }
  if (options.dataDir) {
    let owner = await dataDirOwner(options.dataDir);
    // A server that is starting holds the lock before its PGlite worker serves: wait for it (up to a minute).
    for (let i = 0; options.attach && owner?.pid && !owner.socketPath && i < 120; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      owner = await dataDirOwner(options.dataDir);
    }
    if (owner) {
      if (!options.attach || !owner.socketPath) throw new DataDirBusyError(options.dataDir, owner);
      return attachTo(owner.socketPath, base);
    }
  }
  // The folder's lock is taken before PGlite opens it and released after PGlite has closed it.
  let socketPath = '';
  const lock = options.dataDir
    ? await lockDataDir(options.dataDir, () => ({ pid: process.pid, socketPath }))
    : null;
  const worker = await startPgliteWorker(options.dataDir, options.loadDataDir).catch(async (err: unknown) => {
    await lock?.release();
    throw err;
  });
  socketPath = worker.socketPath;
  // One backend session behind the socket: connections take turns, so more than one buys no parallelism.
  // One connection is the default: postgres.js then pipelines concurrent requests' statements on it, so they
  // reach the worker in one socket write per event-loop turn and run in one engine call (measured in
  // docs/notes/perf-api.md: fewer syscalls on both threads than with 4 connections taking turns). It is never
  // recycled (a recycled connection would leave its prepared statements behind in the shared session).
  const local = embeddedOptions(base, worker.socketPath);
  const client = await connect({ ...local, max: options.max ?? 1 });
  const db = drizzle(preparing(client), { schema, ...queryLogger(options) }) as unknown as Db;
  // Waits the worker reported, kept for waitsBehindBackground after the histogram has them (at most the newest 10,000).
  let unreported: number[] = [];
  const recordWaits = async () => {
    const waits = await worker.waits();
    if (waits.length === 0) return;
    const histogram = getMetrics().pgliteWait;
    for (const ms of waits) histogram.observe(ms / 1000);
    unreported = unreported.concat(waits).slice(-10_000);
  };
  const database: Database = {
    db,
    engine: 'pglite',
    recordWaits,
    async waitsBehindBackground() {
      await recordWaits();
      const waits = unreported;
      unreported = [];
      return waits;
    },
    async close() {
      await client.end({ timeout: 5 });
      await worker.stop();
      await lock?.release();
    },
  };
  connectOptions.set(db, { options: { ...local, max: 1 } });
  return database;
}

/**
 * One connection to another process's PGlite worker. Its statements are sent unnamed (not through `preparing`),
 * so nothing of this process stays behind in the shared session when it disconnects.
 */
async function attachTo(socketPath: string, base: Options<Record<string, PostgresType>>): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = await connect({ ...embeddedOptions(base, socketPath), max: 1 });
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, engine: 'pglite', attached: true, close: () => client.end({ timeout: 5 }) };
}

/**
 * The `application_name` of a background connection: the PGlite worker gives it the session only when no other
 * connection waits for it (BACKGROUND_APPLICATION in pglite-worker.mjs, kept in step).
 */
export const BACKGROUND_APPLICATION = 'tenant-app-background';

/**
 * One more connection to the same database, for background work (the demo's backfill). On PGlite requests go
 * first: they wait behind at most the background turn in flight. PostgreSQL runs it alongside them. Close it
 * when done.
 */
export async function openBackgroundConnection(
  database: Database,
): Promise<{ db: Db; close: () => Promise<void> }> {
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const stored = connectOptions.get(database.db);
  if (!stored) throw new Error('openBackgroundConnection: not a database opened by openDatabase');
  const client = await connect(
    {
      ...stored.options,
      connection: { ...stored.options.connection, application_name: BACKGROUND_APPLICATION },
    },
    stored.url,
  );
  return {
    db: drizzle(preparing(client), { schema }) as unknown as Db,
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * The advisory lock every migration run holds on PostgreSQL (`pg_advisory_lock(MIGRATION_LOCK, 0)`), so processes
 * that start at once against one database migrate one after the other: the first applies, the others find nothing
 * left to do. (Ingestion's lock is a one-argument key, a different key space.)
 */
const MIGRATION_LOCK = 0x7e4a_7d01;

/**
 * Applies pending migrations on a connection of its own without a statement timeout, under MIGRATION_LOCK on
 * PostgreSQL (PGlite's folder is one process's anyway, see dataDirLock.ts); safe on every start.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  if (database.attached)
    throw new Error('Migrations run in the process that owns the embedded database, not through its socket.');
  const stored = connectOptions.get(database.db);
  if (!stored) {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants its engine's concrete type
    await migrate(database.db as any, { migrationsFolder });
    return;
  }
  const client = await connect(stored.options, stored.url);
  try {
    if (database.engine === 'postgres') await client`SELECT pg_advisory_lock(${MIGRATION_LOCK}, 0)`;
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end({ timeout: 5 });
  }
}
