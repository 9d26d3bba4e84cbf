/**
 * `npm run db:migrate`: the deploy step that brings the database's schema up to this version, then exits.
 * On PostgreSQL it holds the migration advisory lock (client.ts), so it is safe beside app processes that start
 * at the same time: whoever comes first applies, the rest find nothing to do. On the embedded database it refuses
 * while a server has the folder open (that server migrated when it started).
 */
import { join } from 'node:path';
import { migrateDatabase, openDatabase } from './db/client.ts';
import { DataDirBusyError } from './db/dataDirLock.ts';
import { pendingMigrations } from './db/schemaVersion.ts';
import { checkNodeVersion } from './nodeVersion.ts';
import { getConfig } from './runtime.ts';

async function main(): Promise<void> {
  checkNodeVersion();
  const config = getConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    max: 1,
    dataDir: join(config.dataDir, 'pglite'),
  });
  try {
    const before = await pendingMigrations(database);
    await migrateDatabase(database);
    const after = await pendingMigrations(database);
    const where = database.engine === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
    console.log(
      before === 0
        ? `Schema current on ${where}; nothing to apply.`
        : `Applied ${before - after} migration(s) on ${where} (or another process did meanwhile); schema current.`,
    );
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof DataDirBusyError ? err.message : err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
