/**
 * Demo additions for alarms: a water leak in the demo tenant's flat (a steady night flow, so water runs in
 * every hour) and a few alarms for the demo tenant, so a newcomer sees a triggered alarm and notifications
 * right after `npm start`. Runs after the demo seed and catch-up; safe to run on every start.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { alarms, appMeta } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';

const HOUR_MS = 3_600_000;
/** A running toilet: about 6 litres an hour, day and night. */
const DEMO_LEAK_M3_PER_HOUR = '0.006';
/** The leak runs over the last three days before each start (so yesterday always has it). */
const LEAK_HOURS = 72;
const META_LEAK_UNTIL = 'demo.leakUntil';
const META_ALARMS = 'demo.alarms';
const DEMO_TENANT_EMAIL = 'tenant@demo.test';

interface DemoTenancy extends Record<string, unknown> {
  user_id: number;
  tenancy_id: number;
  apartment_id: number;
}

async function demoTenancy(db: Db): Promise<DemoTenancy | undefined> {
  const [row] = await queryRows<DemoTenancy>(
    db,
    sql`SELECT u.id AS user_id, t.id AS tenancy_id, t.apartment_id
        FROM users u JOIN tenancy_members m ON m.user_id = u.id JOIN tenancies t ON t.id = m.tenancy_id
        WHERE u.email = ${DEMO_TENANT_EMAIL} ORDER BY t.id LIMIT 1`,
  );
  return row;
}

/**
 * Adds the leak's flow to the demo tenant's cold water for the hours since it was last added (at most the last
 * 72 complete hours), then rebuilds that point's daily and monthly rollups and the property's daily rollup.
 */
async function addLeak(db: Db, tenancy: DemoTenancy, now: Date): Promise<number> {
  const [point] = await queryRows<{ id: number; property_id: number }>(
    db,
    sql`SELECT id, property_id FROM measurement_points
        WHERE apartment_id = ${tenancy.apartment_id} AND quantity = 'cold-water-volume' ORDER BY id LIMIT 1`,
  );
  if (!point) return 0;
  const [meta] = await queryRows<{ value: string }>(
    db,
    sql`SELECT value FROM app_meta WHERE key = ${META_LEAK_UNTIL}`,
  );
  const end = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const start = Math.max(end - LEAK_HOURS * HOUR_MS, meta ? Number(meta.value) : 0);
  if (start >= end) return 0;
  const from = new Date(start).toISOString();
  const to = new Date(end).toISOString();
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const changed = await queryRows<{ day: string }>(
      tx,
      sql`UPDATE hourly_consumption SET value = value + ${DEMO_LEAK_M3_PER_HOUR}::numeric
          WHERE measurement_point_id = ${point.id} AND hour_start >= ${from}::timestamptz AND hour_start < ${to}::timestamptz
          RETURNING (hour_start AT TIME ZONE 'Europe/Copenhagen')::date::text AS day`,
    );
    // The same hours of the property's hourly sums (the leaking point is an apartment's).
    await tx.execute(
      sql`UPDATE property_hourly_rollups SET sum = sum + ${DEMO_LEAK_M3_PER_HOUR}::numeric
          WHERE property_id = ${point.property_id} AND quantity = 'cold-water-volume'
            AND hour_start >= ${from}::timestamptz AND hour_start < ${to}::timestamptz
            AND hour_start IN (SELECT hour_start FROM hourly_consumption
                               WHERE measurement_point_id = ${point.id}
                                 AND hour_start >= ${from}::timestamptz AND hour_start < ${to}::timestamptz)`,
    );
    const perDay = new Map<string, number>();
    for (const { day } of changed) perDay.set(day, (perDay.get(day) ?? 0) + 1);
    for (const [day, hours] of perDay) {
      const added = (hours * Number(DEMO_LEAK_M3_PER_HOUR)).toFixed(6);
      await tx.execute(sql`
        INSERT INTO daily_rollups (measurement_point_id, day, sum, min, max, count)
        SELECT measurement_point_id, ${day}::date, sum(value), min(value), max(value), count(*)::int
        FROM hourly_consumption
        WHERE measurement_point_id = ${point.id}
          AND hour_start >= (${day}::date::timestamp AT TIME ZONE 'Europe/Copenhagen')
          AND hour_start < ((${day}::date + 1)::timestamp AT TIME ZONE 'Europe/Copenhagen')
        GROUP BY measurement_point_id
        ON CONFLICT (measurement_point_id, day) DO UPDATE
          SET sum = excluded.sum, min = excluded.min, max = excluded.max, count = excluded.count`);
      await tx.execute(sql`
        UPDATE property_daily_rollups SET sum = sum + ${added}::numeric, per_m2 = (sum + ${added}::numeric) / area_m2
        WHERE property_id = ${point.property_id} AND quantity = 'cold-water-volume' AND day = ${day}::date`);
    }
    for (const month of new Set([...perDay.keys()].map((d) => `${d.slice(0, 7)}-01`))) {
      await tx.execute(sql`
        INSERT INTO monthly_rollups (measurement_point_id, month, sum, min, max, count)
        SELECT measurement_point_id, ${month}::date, sum(sum), min(min), max(max), sum(count)::int
        FROM daily_rollups
        WHERE measurement_point_id = ${point.id} AND day >= ${month}::date AND day < (${month}::date + interval '1 month')
        GROUP BY measurement_point_id
        ON CONFLICT (measurement_point_id, month) DO UPDATE
          SET sum = excluded.sum, min = excluded.min, max = excluded.max, count = excluded.count`);
    }
    await tx
      .insert(appMeta)
      .values({ key: META_LEAK_UNTIL, value: String(end) })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: String(end), updatedAt: now } });
    return changed.length;
  });
}

/** The demo tenant's alarms: a leak watch on cold water that fires, and a few that stay quiet or are off. */
async function addAlarms(db: Db, tenancy: DemoTenancy): Promise<number> {
  const [done] = await queryRows(db, sql`SELECT 1 FROM app_meta WHERE key = ${META_ALARMS}`);
  if (done) return 0;
  const base = { userId: Number(tenancy.user_id), tenancyId: Number(tenancy.tenancy_id) };
  const rows: (typeof alarms.$inferInsert)[] = [
    {
      ...base,
      type: 'zero_consumption',
      quantity: 'cold-water-volume',
      frequency: 'day',
      threshold: '0',
      leakRule: true,
    },
    { ...base, type: 'threshold', quantity: 'heat-energy', frequency: 'month', threshold: '2000' },
    {
      ...base,
      type: 'indoor_climate',
      quantity: 'indoor-temperature',
      frequency: 'day',
      minimum: '18',
      maximum: '25',
    },
    { ...base, type: 'comparison', quantity: 'electricity-energy', frequency: 'week', threshold: '50' },
    {
      ...base,
      type: 'threshold',
      quantity: 'hot-water-volume',
      frequency: 'week',
      threshold: '1.5',
      enabled: false,
    },
  ];
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await tx.insert(alarms).values(rows);
    await tx.insert(appMeta).values({ key: META_ALARMS, value: '1' }).onConflictDoNothing();
  });
  return rows.length;
}

/** Adds the demo leak and alarms; call once after the demo data is seeded and caught up. */
export async function addDemoAlarms(db: Db, now: Date): Promise<{ leakHours: number; alarms: number }> {
  const tenancy = await demoTenancy(db);
  if (!tenancy) return { leakHours: 0, alarms: 0 };
  return { leakHours: await addLeak(db, tenancy, now), alarms: await addAlarms(db, tenancy) };
}
