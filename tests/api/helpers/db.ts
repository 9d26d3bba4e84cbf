/**
 * A fresh, migrated database per test file: in-memory PGlite, or a throwaway PostgreSQL database
 * (created and dropped here) when TEST_DATABASE_URL is set. Both are copies of the run's one migrated template
 * (templateDatabase.ts, the API project's globalSetup) when it exists, else migrated here.
 */
import { randomBytes } from 'node:crypto';
import {
  connectPostgres,
  type Database,
  migrateDatabase,
  openDatabase,
} from '../../../src/server/db/client.ts';

/** Which engine the API suite runs on. */
export const testEngine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/** A new PostgreSQL database (a copy of `template` when given) and its URL; `close` drops it. */
async function throwawayPostgres(
  adminUrl: string,
  template?: string,
): Promise<{ database: Database; url: string }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = await connectPostgres(adminUrl, { max: 1 });
  await admin.unsafe(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 4 });
  return {
    url: url.toString(),
    database: {
      ...database,
      async close() {
        await database.close();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end({ timeout: 5 });
      },
    },
  };
}

/**
 * Opens a fresh database without its schema; on PostgreSQL also its URL (for other processes). Call the
 * returned `close` in afterAll: it drops the PostgreSQL database.
 */
export async function emptyDatabase(): Promise<{ database: Database; url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { database: await openDatabase({}) };
  return throwawayPostgres(adminUrl);
}

/**
 * Opens a fresh migrated database; call the returned `close` in afterAll. A copy of the run's template when the
 * globalSetup made one (a file-level copy: no migration runs), else an empty database migrated here.
 */
export async function freshDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = adminUrl ? process.env.TEST_TEMPLATE_DATABASE : process.env.TEST_PGLITE_TEMPLATE;
  if (!template) {
    const { database } = await emptyDatabase();
    await migrateDatabase(database);
    return database;
  }
  if (adminUrl) return (await throwawayPostgres(adminUrl, template)).database;
  return openDatabase({ loadDataDir: template });
}
