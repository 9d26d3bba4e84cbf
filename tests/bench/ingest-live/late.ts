/** Part "late" of the live-ingestion bench (tests/bench/ingest-live.ts). */
import { sql } from 'drizzle-orm';
import { connectPostgres, migrateDatabase, openDatabase } from '../../../src/server/db/client.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { seedDemo } from '../../../src/server/demo/seed.ts';
import { ingestBatch } from '../../../src/server/ingest/ingest.ts';
import { APARTMENTS, HOUR, machine, median } from './common.ts';

/** A fresh database (in-memory PGlite, or a new PostgreSQL database) whose statements are counted. */
async function countedDatabase(engine: 'pglite' | 'postgres', adminUrl?: string) {
  const counter = { statements: 0 };
  const logQuery = () => {
    counter.statements++;
  };
  if (engine === 'pglite') {
    const database = await openDatabase({ logQuery });
    await migrateDatabase(database);
    return { database, counter, cleanup: async () => {} };
  }
  const admin = await connectPostgres(adminUrl!, { max: 1 });
  const name = `bench_late_${Math.random().toString(36).slice(2, 10)}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 4, logQuery });
  await migrateDatabase(database);
  return {
    database,
    counter,
    cleanup: async () => {
      await database.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Part "late": the cost of one late reading a month back, for a short and a long history. */
export async function benchLate(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== Late data (${engine}): one reading a month back that fills a gap of five hours ==`);
  console.log(`machine: ${machine()}`);
  for (const days of [60, 365]) {
    const { database, counter, cleanup } = await countedDatabase(engine, adminUrl);
    try {
      const now = new Date();
      await seedDemo(database.db, { now, days, apartments: APARTMENTS });
      const [meter] = await queryRows<{ number: string }>(
        database.db,
        sql`SELECT number FROM meters WHERE number LIKE 'EN-%' ORDER BY number LIMIT 1`,
      );
      const base = Math.floor(now.getTime() / HOUR) * HOUR - 30 * 24 * HOUR;
      const costs: { ms: number; statements: number; phases: Record<string, number> }[] = [];
      for (let k = 0; k < 7; k++) {
        const t0 = base + k * 12 * HOUR;
        // The gap: five hourly readings that never came; the hours keep their old values until the late one.
        const [kept] = await queryRows<{ value: string }>(
          database.db,
          sql`WITH gone AS (
                DELETE FROM register_readings r USING meters m
                WHERE m.id = r.meter_id AND m.number = ${meter!.number}
                  AND r.ts > ${new Date(t0).toISOString()}::timestamptz
                  AND r.ts < ${new Date(t0 + 6 * HOUR).toISOString()}::timestamptz
                RETURNING r.ts, r.value)
              SELECT value::text AS value FROM gone ORDER BY ts OFFSET 2 LIMIT 1`,
        );
        counter.statements = 0;
        const timings = { wall: {} as Record<string, number> };
        const started = performance.now();
        await ingestBatch(
          database.db,
          [
            {
              line: 1,
              meterNumber: meter!.number,
              ts: new Date(t0 + 3 * HOUR).toISOString(),
              value: kept!.value,
            },
          ],
          { now: new Date(), timings },
        );
        costs.push({ ms: performance.now() - started, statements: counter.statements, phases: timings.wall });
      }
      const [readings] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM register_readings`,
      );
      console.log(
        `${String(days).padStart(3)} days of history (${Number(readings!.n).toLocaleString('en')} readings): ` +
          `${median(costs.map((c) => c.statements))} statements, median ${median(costs.map((c) => c.ms)).toFixed(0)} ms ` +
          `(min ${Math.min(...costs.map((c) => c.ms)).toFixed(0)}, max ${Math.max(...costs.map((c) => c.ms)).toFixed(0)}) per late reading`,
      );
      // Per phase, the median over the runs (ms): where the time goes, and whether a phase grows with history.
      const phases = Object.keys(costs[0]!.phases);
      console.log(
        `  phases (median ms): ${phases.map((p) => `${p} ${(median(costs.map((c) => c.phases[p] ?? 0)) * 1000).toFixed(0)}`).join(', ')}`,
      );
    } finally {
      await cleanup();
      await database.close().catch(() => {});
    }
  }
}
