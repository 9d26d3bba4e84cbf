/**
 * Where a queue bench run connects (tests/bench/queue.ts): a fresh PostgreSQL database, or a fresh in-memory PGlite
 * behind our PG-wire socket, and a pg pool that survives the cleanup's forced DROP DATABASE.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPgliteWorker } from '../../../src/server/db/client.ts';

/** Where a run connects: a pg-style connection config and a URL for postgres.js (or the PGlite socket). */
export interface Target {
  engine: 'postgres' | 'pglite';
  pgConfig: pg.ClientConfig;
  url?: string;
  socketPath?: string;
  cleanup(): Promise<void>;
}

/** A fresh PostgreSQL database. */
export async function postgresTarget(adminUrl: string): Promise<Target> {
  const name = `queue_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    engine: 'postgres',
    pgConfig: { connectionString: url.toString() },
    url: url.toString(),
    async cleanup() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * A fresh in-memory PGlite in its worker thread, reachable by node-postgres: pg finds a Unix socket as
 * `<dir>/.s.PGSQL.<port>`, so a directory with that link to our socket serves.
 */
export async function pgliteTarget(): Promise<Target> {
  const worker = await startPgliteWorker(undefined);
  const dir = mkdtempSync(join(tmpdir(), 'pglite-pg-'));
  symlinkSync(worker.socketPath, join(dir, '.s.PGSQL.5432'));
  return {
    engine: 'pglite',
    pgConfig: { host: dir, port: 5432, user: 'postgres', database: 'postgres' },
    socketPath: worker.socketPath,
    async cleanup() {
      await worker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A pool whose connections may be cut by the DROP DATABASE … WITH (FORCE) of the cleanup without crashing us. */
export function quietPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
