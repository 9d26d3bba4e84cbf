/**
 * Ingest rate: loads the demo history (all apartments, DAYS days) into a fresh database through the one
 * ingestion path and prints hourly readings per second, on PGlite (in its worker) and, with
 * TEST_DATABASE_URL, on PostgreSQL. Run alone: `node --import tsx tests/bench/ingest.ts [days]`.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { type Database, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';

async function fresh(engine: 'pglite' | 'postgres'): Promise<Database & { drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const database = await openDatabase({});
    await migrateDatabase(database);
    return { ...database, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const { default: postgres } = await import('postgres');
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 4 });
  await migrateDatabase(database);
  return {
    ...database,
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
    const started = performance.now();
    await seedDemo(database.db, { now: new Date('2026-03-01T00:00:00Z'), days, apartments: 24 });
    const seconds = (performance.now() - started) / 1000;
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM register_readings`,
    );
    const readings = Number(row?.n ?? 0);
    return { readings, seconds, perSecond: readings / seconds };
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
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchIngestAll(Number(process.argv[2] ?? 60), process.env.TEST_DATABASE_URL);
}
