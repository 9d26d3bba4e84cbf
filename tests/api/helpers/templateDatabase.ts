/**
 * Vitest globalSetup of the API project: migrates ONE database per run, which every test file's `freshDatabase`
 * then copies instead of migrating its own (tests/api/helpers/db.ts).
 * - PostgreSQL (TEST_DATABASE_URL): a database `test_template_…`, copied per file with `CREATE DATABASE … TEMPLATE`.
 * - PGlite: a migrated in-memory cluster dumped to a tar file (PGlite's dumpDataDir), which each file's PGlite
 *   worker starts from (`loadDataDir`), so it runs neither initdb nor the migrations.
 * The names reach the test processes through the environment (TEST_TEMPLATE_DATABASE, TEST_PGLITE_TEMPLATE).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres, migrateDatabase, openDatabase } from '../../../src/server/db/client.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `test_template_${randomBytes(6).toString('hex')}`;
    const admin = await connectPostgres(adminUrl, { max: 1 });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), max: 1 });
    try {
      await migrateDatabase(database);
    } finally {
      // A template must have no open connections while it is copied.
      await database.close();
    }
    process.env.TEST_TEMPLATE_DATABASE = name;
    return async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const file = join(dir, 'migrated.tar');
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { migrationsFolder } = await import('../../../src/server/db/client.ts');
  const pglite = new PGlite();
  await migrate(drizzle(pglite), { migrationsFolder });
  const dump = await pglite.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  process.env.TEST_PGLITE_TEMPLATE = file;
  return async () => rmSync(dir, { recursive: true, force: true });
}
