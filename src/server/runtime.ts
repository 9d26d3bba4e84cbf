/**
 * The process-wide services: configuration, database, logger.
 * Kept on globalThis so that the Astro server bundle and start.ts share one PGlite instance
 * (PGlite's files may be opened by one process, one instance at a time).
 */
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { z } from 'zod';
import { parseServerConfig, type ServerConfig } from './config.ts';
import { type Database, migrateDatabase, openDatabase } from './db/client.ts';
import { openReplicaRouter, type ReplicaRouter } from './db/replica.ts';
import { assertSchemaCurrent } from './db/schemaVersion.ts';

export interface Services {
  config: ServerConfig;
  database: Database;
  logger: Logger;
  /** DATABASE_REPLICA_URL's router for the tenant backend's data reads (app processes only). */
  replica?: ReplicaRouter;
}

/**
 * statement_timeout (ms) of the app's database connections, which serve API requests; 0 turns it off.
 * Ingestion batches lift it for their own transactions.
 */
const DB_STATEMENT_TIMEOUT_MS = z.coerce
  .number()
  .int()
  .min(0)
  .max(3_600_000)
  .default(5000)
  .parse(process.env.DB_STATEMENT_TIMEOUT_MS || undefined);

const KEY = Symbol.for('tenant-app.services');
const CONFIG_KEY = Symbol.for('tenant-app.config');
const ROLE_KEY = Symbol.for('tenant-app.role');

/**
 * How a process treats the database. `app` (the default: `npm start`, `serve:api`) migrates under the migration
 * lock. `worker` and `cli` never migrate: they refuse a schema that is behind. The CLI also works through a
 * running server's embedded database instead of opening its files (dataDirLock.ts).
 */
export type ProcessRole = 'app' | 'worker' | 'cli';
type Holder = { [KEY]?: Promise<Services>; [CONFIG_KEY]?: ServerConfig; [ROLE_KEY]?: ProcessRole };

/** Sets this process's role; call before the first getServices. */
export function setProcessRole(role: ProcessRole): void {
  (globalThis as Holder)[ROLE_KEY] = role;
}

/** The server configuration, parsed once per process; pages that only need settings use this, not the database. */
export function getConfig(): ServerConfig {
  const holder = globalThis as Holder;
  holder[CONFIG_KEY] ??= parseServerConfig();
  return holder[CONFIG_KEY];
}

/** Opens the database once per process (migrating or checking it, by the process's role); the shared services. */
export function getServices(): Promise<Services> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const role = holder[ROLE_KEY] ?? 'app';
    const config = getConfig();
    const logger = pino({ level: config.LOG_LEVEL });
    const database = await openDatabase({
      url: config.DATABASE_URL,
      ...(config.DATABASE_URL ? { max: config.DATABASE_POOL_SIZE } : {}),
      dataDir: join(config.dataDir, 'pglite'),
      statementTimeoutMs: DB_STATEMENT_TIMEOUT_MS,
      attach: role === 'cli',
    });
    try {
      if (role === 'app') await migrateDatabase(database);
      else await assertSchemaCurrent(database);
    } catch (err) {
      await database.close();
      throw err;
    }
    if (role !== 'app' || !config.DATABASE_REPLICA_URL) return { config, database, logger };
    const replica = await openReplicaRouter({
      url: config.DATABASE_REPLICA_URL,
      primary: database.db,
      maxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS,
      checkIntervalMs: config.DATABASE_REPLICA_CHECK_MS,
      max: config.DATABASE_POOL_SIZE,
      statementTimeoutMs: DB_STATEMENT_TIMEOUT_MS,
      logger,
    });
    return { config, database, logger, replica };
  })();
  return holder[KEY];
}
