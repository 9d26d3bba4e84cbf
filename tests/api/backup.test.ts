/**
 * Backups that restore (issue 20): back up the fixture, wipe (a new, migrated database), restore, and compare every
 * table's row count and a tenant's yearly graph. A restore into a database with data is refused and changes
 * nothing; `--replace` replaces it; a backup never overwrites a file; serial ids carry on after a restore.
 * On both engines (the same code reads and writes through postgres.js; restore uses batched INSERTs, not COPY FROM
 * STDIN, which PGlite cannot take over its socket). The audit log's append-only trigger does not stop --replace.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import {
  BackupError,
  backupDatabase,
  copyField,
  parseCopyLine,
  restoreDatabase,
} from '../../src/server/backup/backup.ts';
import { connectPostgres, type Database, openDatabase } from '../../src/server/db/client.ts';
import { accounts, auditLog } from '../../src/server/db/schema.ts';
import { createTestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'backup-test-'));
const opened: Database[] = [];
let source: Database;
let fx: Fixture;

beforeAll(async () => {
  source = await freshDatabase();
  opened.push(source);
  fx = await seedFixture(source.db);
  // Values COPY's text format escapes (tab, newline, backslash, a carriage return), non-ASCII text and JSON.
  await source.db.insert(auditLog).values({
    actor: 'cli:root',
    action: 'backup.test',
    subjectType: 'note',
    subjectId: 'tab\there\nnew line \\N back\\slash\r æøå 🙂',
    before: { text: 'quote " and \\ and \n', list: [1, null, 'x'] },
  });
}, 300_000);
afterAll(async () => {
  for (const database of opened) await database.close();
});

/** Rows per app table. */
async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = (await database.db.execute(sql`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`)) as unknown as Array<{
    name: string;
  }>;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = (await database.db.execute(
      sql.raw(`SELECT count(*)::int AS n FROM "${name}"`),
    )) as unknown as Array<{ n: number }>;
    counts[name] = row!.n;
  }
  return counts;
}

/** Alice's apartment's heat and hot water for 2025 by month, as the tenant API answers. */
async function yearlyGraph(database: Database): Promise<unknown> {
  const api = await createTestApi(database);
  const { token } = await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300);
  const res = await api.tenant.fetch(`http://yoga${api.tenant.graphqlEndpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query:
        'query ($g: TenantGraphInput!) { tenantGraph(graph: $g) { timestamps graphs { consumption { values } } } }',
      variables: {
        g: {
          graphType: 'HOURLY_VALUES',
          resolution: 'MONTH',
          periodBegin: '2025-01-01T00:00',
          periodEnd: '2026-01-01T00:00',
          objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
          quantities: ['heat-energy'],
        },
      },
    }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe('backup and restore', () => {
  it('backs up, wipes, restores: same row counts and the same yearly graph', async () => {
    const counts = await rowCounts(source);
    const graph = await yearlyGraph(source);
    expect(JSON.stringify(graph)).toMatch(/[1-9]/);
    expect(counts.hourly_consumption).toBeGreaterThan(1000);

    const file = join(dir, 'first.gz');
    const made = await backupDatabase(source.db, file);
    expect(made.tables).toEqual(Object.fromEntries(Object.entries(counts)));
    expect(made.bytes).toBeGreaterThan(0);
    // Never overwrites.
    await expect(backupDatabase(source.db, file)).rejects.toThrow(/exists/);

    // "Wiped": a new database at the same schema version.
    const target = await freshDatabase();
    opened.push(target);
    const restored = await restoreDatabase(target.db, file);
    expect(restored.rows).toBe(made.rows);
    expect(await rowCounts(target)).toEqual(counts);
    expect(await yearlyGraph(target)).toEqual(graph);
    const auditRows = async (database: Database) =>
      JSON.stringify(await database.db.select().from(auditLog).orderBy(auditLog.id));
    expect(await auditRows(target)).toEqual(await auditRows(source));
    expect(await auditRows(target)).toContain('æøå 🙂');

    // Serial ids carry on after the restored ones.
    const [added] = await target.db.insert(accounts).values({ name: 'After restore' }).returning();
    expect(added!.id).toBeGreaterThan(fx.accountId);

    // A database with data: refused, and nothing changed; --replace replaces it.
    await expect(restoreDatabase(target.db, file)).rejects.toThrow(BackupError);
    await expect(restoreDatabase(target.db, file)).rejects.toThrow(/--replace/);
    expect((await rowCounts(target)).accounts).toBe(counts.accounts! + 1);
    // The audit log is append-only (its trigger refuses UPDATE, DELETE and TRUNCATE): --replace still replaces it.
    await restoreDatabase(target.db, file, { replace: true });
    expect(await rowCounts(target)).toEqual(counts);
    expect(await auditRows(target)).toEqual(await auditRows(source));
    // ... and the trigger is back on afterwards.
    const refused = await target.db.execute(sql`DELETE FROM audit_log`).then(
      () => null,
      (err: unknown) => err as { cause?: { message?: string } },
    );
    expect(refused?.cause?.message).toMatch(/append-only/);
  }, 600_000);

  it('refuses a file that is not a backup, or cut short, and writes nothing', async () => {
    const target = await freshDatabase();
    opened.push(target);
    const junk = join(dir, 'junk.gz');
    writeFileSync(junk, 'not a backup');
    await expect(restoreDatabase(target.db, junk)).rejects.toThrow(BackupError);
    await expect(restoreDatabase(target.db, join(dir, 'missing.gz'))).rejects.toThrow(/No such file/);

    // A backup cut off in the middle: the restore fails and leaves the database empty (one transaction).
    const whole = join(dir, 'whole.gz');
    await backupDatabase(source.db, whole);
    const { gunzipSync, gzipSync } = await import('node:zlib');
    const { readFileSync } = await import('node:fs');
    const text = gunzipSync(readFileSync(whole)).toString('utf8');
    const cut = join(dir, 'cut.gz');
    writeFileSync(cut, gzipSync(text.slice(0, Math.floor(text.length / 2))));
    await expect(restoreDatabase(target.db, cut)).rejects.toThrow();
    const counts = await rowCounts(target);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    expect(existsSync(`${whole}.partial-${process.pid}`)).toBe(false);
  }, 600_000);
  // PostgreSQL's documented path (docs/deploy.md): pg_dump's custom format, pg_restore into a new, empty database.
  it.runIf(testEngine === 'postgres')(
    'PostgreSQL: pg_dump and pg_restore as documented give the same row counts and yearly graph',
    async () => {
      const adminUrl = process.env.TEST_DATABASE_URL!;
      const urlOf = (name: string) => {
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        return url.toString();
      };
      const [{ name }] = (await source.db.execute(sql`SELECT current_database() AS name`)) as unknown as [
        { name: string },
      ];
      const dump = join(dir, 'tenant-app.dump');
      execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, urlOf(name)]);
      const restoredName = `${name}_restored`;
      const admin = await connectPostgres(adminUrl, { max: 1 });
      try {
        await admin.unsafe(`CREATE DATABASE ${restoredName}`);
        execFileSync('pg_restore', [
          '--no-owner',
          '--exit-on-error',
          `--dbname=${urlOf(restoredName)}`,
          dump,
        ]);
        const restored = await openDatabase({ url: urlOf(restoredName), max: 2 });
        try {
          expect(await rowCounts(restored)).toEqual(await rowCounts(source));
          expect(await yearlyGraph(restored)).toEqual(await yearlyGraph(source));
        } finally {
          await restored.close();
        }
      } finally {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`);
        await admin.end({ timeout: 5 });
      }
    },
    600_000,
  );
  it("writes and reads COPY's text format: NULL, escapes, octal and hex bytes", () => {
    const values = ['a\tb', 'line\nbreak\r', 'back\\slash \\N', '', null, 'æøå 🙂'];
    expect(parseCopyLine(values.map(copyField).join('\t'))).toEqual(values);
    expect(parseCopyLine('\\101\\x42\\303\\246\t\\N\t\\\\N')).toEqual(['ABæ', null, '\\N']);
  });
});
