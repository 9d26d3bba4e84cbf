/**
 * Ingest rate: loads the demo history (all apartments, DAYS days) into a fresh database through the one
 * ingestion path and prints hourly readings per second, on PGlite (in its worker) and, with
 * TEST_DATABASE_URL, on PostgreSQL. Run alone: `node --import tsx tests/bench/ingest.ts [days]`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { connectPostgres, type Database, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import type { PhaseTimings } from '../../src/server/ingest/ingest.ts';

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 where that is not readable. */
export function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds so far of the PostgreSQL backends serving `database`'s database (0 on PGlite: in this process). */
export async function backendCpuSeconds(database: Database): Promise<number> {
  if (database.engine !== 'postgres') return 0;
  const rows = await queryRows<{ pid: number }>(
    database.db,
    sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  );
  return rows.reduce((sum, r) => sum + processCpuSeconds(r.pid), 0);
}

type Fresh = Database & { drop(): Promise<void>; cpuSeconds: () => number | Promise<number> };

async function fresh(engine: 'pglite' | 'postgres'): Promise<Fresh> {
  if (engine === 'pglite') {
    const database = await openDatabase({});
    await migrateDatabase(database);
    // PGlite runs in a worker thread of this process; this thread only waits during the SQL phases.
    const cpuSeconds = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    return { ...database, drop: async () => {}, cpuSeconds };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = await connectPostgres(adminUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 4 });
  await migrateDatabase(database);
  // The PostgreSQL backends serving this database (the loader's pool), summed.
  const cpuSeconds = async () => {
    const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = ${name}`;
    return rows.reduce((sum, r) => sum + processCpuSeconds(r.pid), 0);
  };
  return {
    ...database,
    cpuSeconds,
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** Loads `days` of demo history; returns readings stored and readings per second. */
export async function benchIngest(engine: 'pglite' | 'postgres', days: number) {
  const database = await fresh(engine);
  try {
    const timings: PhaseTimings = { wall: {}, cpuSeconds: database.cpuSeconds };
    const started = performance.now();
    await seedDemo(database.db, { now: new Date('2026-03-01T00:00:00Z'), days, apartments: 24, timings });
    const seconds = (performance.now() - started) / 1000;
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM register_readings`,
    );
    const readings = Number(row?.n ?? 0);
    return { readings, seconds, perSecond: readings / seconds, timings };
  } finally {
    await database.close();
    await database.drop();
  }
}

/** Prints the ingest rate of a `days`-day demo load on PGlite and, with a URL, on PostgreSQL. */
export async function benchIngestAll(days: number, pgUrl?: string): Promise<void> {
  const engines: ('pglite' | 'postgres')[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];
  if (pgUrl) process.env.TEST_DATABASE_URL ??= pgUrl;
  console.log(`\nIngest (demo first load, ${days} days × 24 apartments, bulk path):`);
  for (const engine of engines) {
    const r = await benchIngest(engine, days);
    console.log(
      `  ${engine.padEnd(8)} ${r.readings.toLocaleString('en')} readings in ${r.seconds.toFixed(1)} s = ` +
        `${Math.round(r.perSecond).toLocaleString('en')} readings/s   (target ≥ ${engine === 'pglite' ? '100,000' : '200,000'}; ` +
        `load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    console.log(
      `           phases, wall s (database CPU s): ${Object.entries(r.timings.wall)
        .map(
          ([k, v]) =>
            `${k} ${v.toFixed(1)}${r.timings.cpu?.[k] === undefined ? '' : ` (${r.timings.cpu[k]!.toFixed(1)})`}`,
        )
        .join(', ')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchIngestAll(Number(process.argv[2] ?? 60), process.env.TEST_DATABASE_URL);
}
