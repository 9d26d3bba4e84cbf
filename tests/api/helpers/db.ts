/**
 * A fresh, migrated database per test file: in-memory PGlite, or a throwaway PostgreSQL database
 * (created and dropped here) when TEST_DATABASE_URL is set.
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

/**
 * Opens a fresh database without its schema; on PostgreSQL also its URL (for other processes). Call the
 * returned `close` in afterAll: it drops the PostgreSQL database.
 */
export async function emptyDatabase(): Promise<{ database: Database; url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { database: await openDatabase({}) };
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = await connectPostgres(adminUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
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

/** Opens a fresh migrated database; call the returned `close` in afterAll. */
export async function freshDatabase(): Promise<Database> {
  const { database } = await emptyDatabase();
  await migrateDatabase(database);
  return database;
}
