/**
 * Which migrations a database lacks, compared with the ones this build ships. Only `npm run db:migrate` and an
 * app start migrate (under MIGRATION_LOCK, client.ts); workers and the CLI check with `assertSchemaCurrent` and
 * refuse to run against an older schema, and `/api/health/ready` reports it.
 */
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type Database, migrationsFolder } from './client.ts';

/** The schema is older than this build. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: number) {
    super(
      `The database schema is behind this version of the app (${pending} migration(s) not applied). ` +
        'Run `npm run db:migrate` (or start the app, which migrates) first; workers and the CLI never migrate.',
    );
  }
}

let shipped: number[] | null = null;
/** The creation times (ms) of the migrations this build ships, which Drizzle records when it applies them. */
function shippedMigrations(): number[] {
  shipped ??= readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis);
  return shipped;
}

/** How many of this build's migrations the database has not applied (all of them on an empty database). */
export async function pendingMigrations(database: Database): Promise<number> {
  // Drizzle applies every migration newer than the newest it recorded, so that one decides.
  const [exists] = (await database.db.execute(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS "exists"`,
  )) as unknown as Array<{ exists: boolean }>;
  let newest = 0;
  if (exists?.exists) {
    const [row] = (await database.db.execute(
      sql`SELECT max(created_at)::text AS "newest" FROM drizzle.__drizzle_migrations`,
    )) as unknown as Array<{ newest: string | null }>;
    newest = Number(row?.newest ?? 0);
  }
  return shippedMigrations().filter((millis) => millis > newest).length;
}

/** Throws SchemaBehindError when the database lacks any of this build's migrations. */
export async function assertSchemaCurrent(database: Database): Promise<void> {
  const pending = await pendingMigrations(database);
  if (pending > 0) throw new SchemaBehindError(pending);
}
