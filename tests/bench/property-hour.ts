/**
 * The property comparison at HOUR, before and after property_hourly_rollups, on PostgreSQL: loads the demo property
 * with 24 and with 240 apartments (DAYS days, default 30) into a throwaway database each, then times, for 24 hours
 * at HOUR per m², the old statement (summing hourly_consumption over the property's apartments per request) and
 * the new one (reading property_hourly_rollups), 30 times each, one client. Run:
 *   BENCH_DATABASE_URL=postgres://root:root@127.0.0.1:5432/postgres node --import tsx tests/bench/property-hour.ts
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { connectPostgres, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root:root@127.0.0.1:5432/postgres';
const days = Number(process.env.DAYS ?? 30);
const runs = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

for (const apartments of [24, 240]) {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = await connectPostgres(adminUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 2 });
  try {
    await migrateDatabase(database);
    const now = new Date('2026-03-01T00:00:00Z');
    const t0 = performance.now();
    await seedDemo(database.db, { now, days, apartments });
    const loadS = (performance.now() - t0) / 1000;
    await database.db.execute(sql`ANALYZE`);
    const [p] = await queryRows<{ id: number }>(database.db, sql`SELECT id FROM properties LIMIT 1`);
    const from = '2026-02-27T23:00:00Z';
    const to = '2026-02-28T23:00:00Z';
    const old = sql`SELECT ha.hour_start, sum(ha.s) / nullif(sum(a.area_m2), 0) AS x, sum(ha.c) AS c
      FROM (SELECT h.hour_start, pt.apartment_id, sum(h.value) AS s, count(*) AS c
            FROM hourly_consumption h JOIN measurement_points pt ON pt.id = h.measurement_point_id
            WHERE pt.property_id = ${p!.id} AND pt.quantity = 'heat-energy' AND pt.apartment_id IS NOT NULL
              AND h.hour_start >= ${from}::timestamptz AND h.hour_start < ${to}::timestamptz
            GROUP BY 1, 2) ha
      JOIN apartments a ON a.id = ha.apartment_id GROUP BY ha.hour_start HAVING count(*) >= 3`;
    const rollup = sql`SELECT g.hour_start, g.sum / nullif(g.area_m2, 0) AS x, g.count AS c
      FROM property_hourly_rollups g
      WHERE g.property_id = ${p!.id} AND g.quantity = 'heat-energy' AND g.apartments >= 3
        AND g.hour_start >= ${from}::timestamptz AND g.hour_start < ${to}::timestamptz`;
    const results: string[] = [];
    for (const [label, query] of [
      ['sum over hourly_consumption', old],
      ['property_hourly_rollups', rollup],
    ] as const) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < runs + 3; i++) {
        const started = performance.now();
        rows = (await queryRows(database.db, query)).length;
        if (i >= 3) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      results.push(
        `  ${label.padEnd(28)} p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms (${rows} hours)`,
      );
    }
    console.log(
      `${apartments} apartments × ${days} days (loaded in ${loadS.toFixed(1)} s), 24 h at HOUR per m²:`,
    );
    for (const line of results) console.log(line);
  } finally {
    await database.close();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end({ timeout: 5 });
  }
}
