/**
 * Monthly partitions of register_readings and hourly_consumption (migration 0013, tasks/partitions.ts): readings
 * of a month without a partition land in the default partition (never refused); the worker's run across a month
 * boundary creates both months and moves those rows into them; a query spanning the two partitions reads both;
 * meters.last_reading_at's triggers still fire on the partitioned table; a second run changes nothing. On both
 * engines (PGlite is PostgreSQL 17 and partitions the same way).
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import type { MailTransport } from '../../src/server/jobs/mail.ts';
import { partitionsTask } from '../../src/server/jobs/tasks/partitions.ts';
import { freshDatabase } from './helpers/db.ts';
import { seedFixture } from './helpers/fixtures.ts';

let database: Database;
let meterId: number;
let pointId: number;

beforeAll(async () => {
  database = await freshDatabase();
  await seedFixture(database.db);
  const [row] = await queryRows<{ meter: number; point: number }>(
    database.db,
    sql`SELECT id AS meter, measurement_point_id AS point FROM meters ORDER BY id LIMIT 1`,
  );
  meterId = row!.meter;
  pointId = row!.point;
}, 300_000);
afterAll(async () => {
  await database?.close();
});

const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  queryRows<T>(database.db, query);

async function runPartitions(day: string, monthsAhead: number) {
  await database.db.transaction(async (tx) => {
    await partitionsTask.run(
      {
        tx: tx as never,
        now: new Date(`${day}T12:00:00Z`),
        logger: pino({ level: 'silent' }),
        mail: undefined as unknown as MailTransport,
      },
      partitionsTask.payload.parse({ day, monthsAhead }),
    );
  });
}

const partitionsOf = async (table: string) =>
  (
    await rows<{ name: string }>(
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = ${table}::regclass ORDER BY 1`,
    )
  ).map((r) => r.name);

describe('monthly partitions', () => {
  it('partitions both tables by month, with a default partition, from five years back to three months ahead', async () => {
    const parents = await rows<{ name: string; strategy: string }>(
      sql`SELECT c.relname AS name, p.partstrat AS strategy FROM pg_partitioned_table p
          JOIN pg_class c ON c.oid = p.partrelid ORDER BY 1`,
    );
    expect(parents).toEqual([
      { name: 'hourly_consumption', strategy: 'r' },
      { name: 'register_readings', strategy: 'r' },
    ]);
    for (const table of ['register_readings', 'hourly_consumption']) {
      const names = await partitionsOf(table);
      expect(names).toContain(`${table}_default`);
      // The migration ran at the real "now" (the test template): the current month and 3 ahead exist.
      const now = new Date();
      const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1));
      for (const d of [now, ahead]) {
        const month = `${table}_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
        expect(names).toContain(month);
      }
      expect(names.length).toBeGreaterThanOrEqual(5 * 12 + 4);
    }
    // The fixture's 2025 hours are spread over the monthly partitions, none in the default one.
    const [spread] = await rows<{ partitions: number; in_default: number }>(
      sql`SELECT count(DISTINCT tableoid)::int AS partitions,
                 count(*) FILTER (WHERE tableoid = 'hourly_consumption_default'::regclass)::int AS in_default
          FROM hourly_consumption WHERE hour_start >= '2025-01-01T00:00Z' AND hour_start < '2026-01-01T00:00Z'`,
    );
    expect(spread!.partitions).toBeGreaterThan(1);
    expect(spread!.in_default).toBe(0);
  });

  it('keeps rows of a month without a partition in the default one, and moves them when the worker creates it', async () => {
    // Far ahead: no partition yet. Either side of the January/February boundary.
    await database.db.execute(
      sql`INSERT INTO register_readings (meter_id, ts, value) VALUES
            (${meterId}, '2031-01-31T23:30:00Z', 100), (${meterId}, '2031-02-01T00:30:00Z', 101)`,
    );
    await database.db.execute(
      sql`INSERT INTO hourly_consumption (measurement_point_id, hour_start, value) VALUES
            (${pointId}, '2031-01-31T23:00:00Z', 1), (${pointId}, '2031-02-01T00:00:00Z', 1)`,
    );
    const where = async () =>
      (
        await rows<{ part: string }>(
          sql`SELECT tableoid::regclass::text AS part FROM register_readings
              WHERE meter_id = ${meterId} AND ts >= '2031-01-01T00:00Z' ORDER BY ts`,
        )
      ).map((r) => r.part);
    expect(await where()).toEqual(['register_readings_default', 'register_readings_default']);
    // The statement trigger on the partitioned table still keeps meters.last_reading_at.
    const lastReading = async () =>
      (
        await rows<{ at: string }>(
          sql`SELECT to_char(last_reading_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS at FROM meters
              WHERE id = ${meterId}`,
        )
      )[0]!.at;
    expect(await lastReading()).toBe('2031-02-01T00:30');

    await runPartitions('2031-01-31', 1);
    expect(await where()).toEqual(['register_readings_y2031m01', 'register_readings_y2031m02']);
    const hours = await rows<{ part: string }>(
      sql`SELECT tableoid::regclass::text AS part FROM hourly_consumption
          WHERE measurement_point_id = ${pointId} AND hour_start >= '2031-01-01T00:00Z' ORDER BY hour_start`,
    );
    expect(hours.map((r) => r.part)).toEqual(['hourly_consumption_y2031m01', 'hourly_consumption_y2031m02']);
    const [defaults] = await rows<{ n: number }>(
      sql`SELECT ((SELECT count(*) FROM register_readings_default) + (SELECT count(*) FROM hourly_consumption_default))::int AS n`,
    );
    expect(defaults!.n).toBe(0);

    // A query spanning the two partitions reads both; an upsert finds its row in its partition.
    const [span] = await rows<{ n: number; total: string }>(
      sql`SELECT count(*)::int AS n, sum(value)::text AS total FROM register_readings
          WHERE meter_id = ${meterId} AND ts >= '2031-01-31T00:00Z' AND ts < '2031-02-02T00:00Z'`,
    );
    expect(span).toEqual({ n: 2, total: '201' });
    await database.db.execute(
      sql`INSERT INTO register_readings (meter_id, ts, value) VALUES (${meterId}, '2031-02-01T00:30:00Z', 102)
          ON CONFLICT (meter_id, ts) DO UPDATE SET value = excluded.value`,
    );
    const [after] = await rows<{ total: string }>(
      sql`SELECT sum(value)::text AS total FROM register_readings WHERE meter_id = ${meterId} AND ts >= '2031-01-31T00:00Z'`,
    );
    expect(after!.total).toBe('202');

    // The delete trigger too: removing the newest reading moves last_reading_at back.
    await database.db.execute(
      sql`DELETE FROM register_readings WHERE meter_id = ${meterId} AND ts = '2031-02-01T00:30:00Z'`,
    );
    expect(await lastReading()).toBe('2031-01-31T23:30');

    // The next run creates nothing new; one a month later creates the month after.
    const before = await partitionsOf('register_readings');
    await runPartitions('2031-01-31', 1);
    expect(await partitionsOf('register_readings')).toEqual(before);
    await runPartitions('2031-02-28', 1);
    expect(await partitionsOf('register_readings')).toEqual([...before, 'register_readings_y2031m03'].sort());
  });

  it('refuses a table that is not one of the partitioned ones', async () => {
    const refused = await database.db
      .execute(sql`SELECT ensure_monthly_partitions('meters', '2031-01-01', '2031-01-01')`)
      .then(
        () => null,
        (err: unknown) => err as { cause?: { message?: string } },
      );
    expect(refused?.cause?.message).toMatch(/not a partitioned table/);
  });
});
