/**
 * Opens the database: PGlite under DATA_DIR (or in memory) by default, PostgreSQL when a URL is given.
 * Both engines speak the same SQL and share one Drizzle schema and one set of migrations.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** A Drizzle database over either engine. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… URL; when set, PostgreSQL is used. */
  url?: string | undefined;
  /** Folder for PGlite's files; ignored with `url`. Omit both for an in-memory PGlite. */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  max?: number;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Opens a database without migrating it. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const client = postgres(options.url, { max: options.max ?? 10, onnotice: () => {} });
    const db = drizzle(client, { schema }) as unknown as Db;
    return { db, engine: 'postgres', close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = options.dataDir ? new PGlite(options.dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, engine: 'pglite', close: () => client.close() };
}

/** Applies pending migrations; safe to call on every start. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.engine === 'postgres') {
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants its engine's concrete type
    await migrate(database.db as any, { migrationsFolder });
  } else {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants its engine's concrete type
    await migrate(database.db as any, { migrationsFolder });
  }
}
