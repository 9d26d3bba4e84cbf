/**
 * The process-wide services: configuration, database, logger.
 * Kept on globalThis so that the Astro server bundle and start.ts share one PGlite instance
 * (PGlite's files may be opened by one process, one instance at a time).
 */
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { parseServerConfig, type ServerConfig } from './config.ts';
import { type Database, migrateDatabase, openDatabase } from './db/client.ts';

export interface Services {
  config: ServerConfig;
  database: Database;
  logger: Logger;
}

const KEY = Symbol.for('tenant-app.services');
type Holder = { [KEY]?: Promise<Services> };

/** Opens and migrates the database once per process and returns the shared services. */
export function getServices(): Promise<Services> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const config = parseServerConfig();
    const logger = pino({ level: config.LOG_LEVEL });
    const database = await openDatabase({
      url: config.DATABASE_URL,
      dataDir: join(config.dataDir, 'pglite'),
    });
    await migrateDatabase(database);
    return { config, database, logger };
  })();
  return holder[KEY];
}
