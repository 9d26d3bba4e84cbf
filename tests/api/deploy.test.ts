/**
 * Safe deploy defaults (issue 20): readiness before and after migration, the shared-key check on PostgreSQL,
 * demo data refused in production, and the migration race: 4 processes (2 × db:migrate, 2 app servers) against
 * one empty PostgreSQL database at once apply each migration once, without an error; a worker refuses the
 * schema before that.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { exportPKCS8 } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSharedKeys, KeyMismatchError } from '../../src/server/auth/keyCheck.ts';
import { generateKeyRing, generateSigningKey, type KeyRing } from '../../src/server/auth/keys.ts';
import { type Database, migrateDatabase, migrationsFolder } from '../../src/server/db/client.ts';
import { DemoRefusedError, demoDataDecision } from '../../src/server/demo/policy.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createTestApi } from './helpers/api.ts';
import { emptyDatabase, testEngine } from './helpers/db.ts';

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function empty() {
  const made = await emptyDatabase();
  opened.push(made.database);
  return made;
}

describe('readiness', () => {
  it('is 503 before migration, 200 after; live is 200 throughout; missing keys are not ready', async () => {
    const { database } = await empty();
    const api = await createTestApi(database);
    const server: Server = createAppServer({ services: api.services });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      expect(await get('/api/health/live')).toEqual({ status: 200, body: { status: 'live' } });
      const before = await get('/api/health/ready');
      expect(before.status).toBe(503);
      expect(before.body).toMatchObject({ status: 'not ready', database: 'ok', migrations: 'pending' });
      expect(before.body.pendingMigrations).toBe(readMigrationFiles({ migrationsFolder }).length);

      await migrateDatabase(database);
      expect(await get('/api/health/ready')).toEqual({
        status: 200,
        body: { status: 'ready', database: 'ok', migrations: 'current', keys: 'loaded' },
      });
      expect((await get('/api/health/live')).status).toBe(200);

      // Keys not loaded: not ready, whatever the database says.
      (api.services as { keys: Partial<KeyRing> }).keys = {};
      expect(await get('/api/health/ready')).toMatchObject({ status: 503, body: { keys: 'missing' } });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 300_000);
});

describe('demo data policy', () => {
  it('loads by default only on the embedded database, and refuses in production unless forced', () => {
    expect(demoDataDecision({}, 'pglite').load).toBe(true);
    expect(demoDataDecision({}, 'postgres').load).toBe(false);
    expect(demoDataDecision({ DEMO_DATA: '1' }, 'postgres').load).toBe(true);
    expect(demoDataDecision({ DEMO_DATA: '0' }, 'pglite').load).toBe(false);
    // Production: off by default, an explicit request refused with a message, loaded only when forced.
    expect(demoDataDecision({ NODE_ENV: 'production' }, 'pglite')).toEqual({
      load: false,
      why: 'no demo data with NODE_ENV=production',
    });
    expect(() => demoDataDecision({ NODE_ENV: 'production', DEMO_DATA: '1' }, 'postgres')).toThrow(
      DemoRefusedError,
    );
    expect(() => demoDataDecision({ NODE_ENV: 'production', DEMO_DATA: '1' }, 'pglite')).toThrow(
      /DEMO_DATA_FORCE=1/,
    );
    expect(
      demoDataDecision({ NODE_ENV: 'production', DEMO_DATA: '1', DEMO_DATA_FORCE: '1' }, 'postgres').load,
    ).toBe(true);
    expect(() => demoDataDecision({ DEMO_DATA: 'yes' }, 'pglite')).toThrow(/must be 0 or 1/);
  });
});

describe('shared signing keys', () => {
  it('on PostgreSQL refuses a second process with different generated keys; configured keys are recorded', async () => {
    const { database } = await empty();
    await migrateDatabase(database);
    const generated = {};
    const first = await generateKeyRing();
    await checkSharedKeys(database, generated, first);
    // The same process again (a restart with the same DATA_DIR): accepted.
    await checkSharedKeys(database, generated, first);
    const second = await generateKeyRing();
    if (testEngine === 'pglite') {
      // One process per embedded folder (its lock): nothing to check.
      await expect(checkSharedKeys(database, generated, second)).resolves.toBeUndefined();
      return;
    }
    await expect(checkSharedKeys(database, generated, second)).rejects.toThrow(KeyMismatchError);
    await expect(checkSharedKeys(database, generated, second)).rejects.toThrow(/ACCOUNT_JWT_PRIVATE_KEY/);
    // Keys from the environment are the operator's choice: recorded, and then generated ones differ from them.
    const configured = {
      ACCOUNT_JWT_PRIVATE_KEY: 'set',
      TENANT_JWT_PRIVATE_KEY: 'set',
      ADMIN_JWT_PRIVATE_KEY: 'set',
    };
    await checkSharedKeys(database, configured, second);
    await expect(checkSharedKeys(database, generated, first)).rejects.toThrow(/from ACCOUNT_JWT_PRIVATE_KEY/);
    await checkSharedKeys(database, configured, second);
    const rows = (await database.db.execute(
      sql`SELECT backend, source FROM signing_keys ORDER BY backend`,
    )) as unknown as Array<{ backend: string; source: string }>;
    expect(rows).toEqual([
      { backend: 'account', source: 'env' },
      { backend: 'admin', source: 'env' },
      { backend: 'tenant', source: 'env' },
    ]);
  }, 300_000);
});

interface Exit {
  status: number | null;
  output: string;
}

describe.skipIf(testEngine !== 'postgres')('the migration race on PostgreSQL', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('4 processes against one empty database: each migration applied once, no error; a worker refuses before', async () => {
    const { database, url } = await empty();
    const env = {
      ...process.env,
      DATABASE_URL: url!,
      DATA_DIR: '/nonexistent-deploy-test',
      ACCOUNT_JWT_PRIVATE_KEY: await exportPKCS8((await generateSigningKey()).privateKey),
      TENANT_JWT_PRIVATE_KEY: await exportPKCS8((await generateSigningKey()).privateKey),
      ADMIN_JWT_PRIVATE_KEY: await exportPKCS8((await generateSigningKey()).privateKey),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
    };
    const start = (entry: string) => {
      const child = spawn(process.execPath, ['--import', 'tsx', `src/server/${entry}`], { env });
      children.push(child);
      let output = '';
      child.stdout.on('data', (d) => {
        output += d;
      });
      child.stderr.on('data', (d) => {
        output += d;
      });
      const listening = new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = /backends on (http:\/\/[^/\s]+)\//.exec(output);
          if (found) resolve(found[1]!);
        };
        child.stdout.on('data', check);
        child.once('exit', () => reject(new Error(`${entry} exited: ${output}`)));
      });
      listening.catch(() => {});
      const exited = new Promise<Exit>((resolve) =>
        child.once('close', (status) => resolve({ status, output })),
      );
      return { listening, exited };
    };

    const worker = await start('worker.ts').exited;
    expect(worker.status).toBe(1);
    expect(worker.output).toContain('The database schema is behind');

    const processes = [
      start('migrate.ts'),
      start('serve-api.ts'),
      start('migrate.ts'),
      start('serve-api.ts'),
    ];
    const [m1, s1, m2, s2] = processes;
    for (const migrated of await Promise.all([m1!.exited, m2!.exited])) {
      expect(migrated.output).not.toMatch(/error/i);
      expect(migrated.status).toBe(0);
      // "Applied N migration(s) … schema current." or, when the other process finished first, "Schema current on
      // PostgreSQL; nothing to apply.": either way the process ends with the schema current.
      expect(migrated.output).toMatch(/schema current/i);
    }
    for (const served of [s1!, s2!]) {
      const base = await served.listening;
      const ready = await fetch(`${base}/api/health/ready`);
      expect(ready.status).toBe(200);
    }
    const [row] = (await database.db.execute(
      sql`SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations`,
    )) as unknown as Array<{ n: number; distinct: number }>;
    const shipped = readMigrationFiles({ migrationsFolder }).length;
    expect(row).toEqual({ n: shipped, distinct: shipped });
  }, 600_000);
});
