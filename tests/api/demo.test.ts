import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/auth/password.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { backfillDemo } from '../../src/server/demo/backfill.ts';
import { catchUpDemo } from '../../src/server/demo/catchUp.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/demo/logins.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { isDatabaseEmpty, isDemoSeeded } from '../../src/server/demo/stored.ts';
import { freshDatabase } from './helpers/db.ts';

const now = new Date('2026-03-28T10:20:00Z');
const small = { now, days: 3, apartments: 3 };
const databases: Database[] = [];
let first: Db;

async function open(): Promise<Db> {
  const database = await freshDatabase();
  databases.push(database);
  return database.db;
}

/** Totals that change if any hourly value, rollup or reading changes. */
async function fingerprint(db: Db) {
  const [row] = await queryRows<Record<string, string | number>>(
    db,
    sql`SELECT (SELECT count(*)::int FROM register_readings) AS readings,
               (SELECT sum(value)::text FROM register_readings) AS reading_sum,
               (SELECT count(*)::int FROM hourly_consumption) AS hours,
               (SELECT count(*)::int FROM hourly_consumption WHERE estimated) AS estimated_hours,
               (SELECT sum(estimated)::int FROM monthly_rollups) AS estimated_in_months,
               (SELECT sum(value)::text FROM hourly_consumption) AS hourly_sum,
               (SELECT sum(sum)::text FROM daily_rollups) AS daily_sum,
               (SELECT sum(sum)::text FROM monthly_rollups) AS monthly_sum,
               (SELECT sum(per_m2)::text FROM property_daily_rollups) AS property_per_m2`,
  );
  return row!;
}

/** How often a register reading is lower than the one before it on the same meter (a reset). */
async function registerDrops(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (
          SELECT value < lag(value) OVER (PARTITION BY meter_id ORDER BY ts) AS dropped
          FROM register_readings r JOIN meters m ON m.id = r.meter_id
          JOIN measurement_points p ON p.id = m.measurement_point_id WHERE p.reading_kind = 'register') x
        WHERE dropped`,
  );
  return row!.n;
}

beforeAll(async () => {
  first = await open();
  expect(await isDatabaseEmpty(first)).toBe(true);
  await seedDemo(first, small);
});

afterAll(async () => {
  for (const d of databases) await d.close();
});

describe('demo seed', () => {
  it('is deterministic: the same options give the same data', async () => {
    const second = await open();
    await seedDemo(second, small);
    expect(await fingerprint(second)).toEqual(await fingerprint(first));
    expect(Number((await fingerprint(first)).readings)).toBeGreaterThan(3 * 24 * 30);
    // The radio outage the day before the history ends: the six hours between the readings around it.
    expect(await fingerprint(first)).toMatchObject({ estimated_hours: 6, estimated_in_months: 6 });
  });

  it("sets every meter's newest reading, which the console's freshness reads (the bulk load skips triggers)", async () => {
    const rows = await queryRows<{ stale: number; read: number }>(
      first,
      sql`SELECT count(*) FILTER (WHERE m.last_reading_at IS DISTINCT FROM r.newest)::int AS stale,
                 count(*)::int AS read
          FROM meters m JOIN (SELECT meter_id, max(ts) AS newest FROM register_readings GROUP BY meter_id) r
            ON r.meter_id = m.id`,
    );
    expect(rows[0]!.read).toBeGreaterThan(0);
    expect(rows[0]!.stale).toBe(0);
  });

  it('marks the database as seeded', async () => {
    expect(await isDatabaseEmpty(first)).toBe(false);
    expect(await isDemoSeeded(first)).toBe(true);
  });

  it('creates the three demo users with their tenancies', async () => {
    const members = await queryRows<{ email: string; tenancy: number; apartment: number; is_admin: boolean }>(
      first,
      sql`SELECT u.email, m.tenancy_id AS tenancy, t.apartment_id AS apartment, m.is_admin
          FROM users u JOIN tenancy_members m ON m.user_id = u.id JOIN tenancies t ON t.id = m.tenancy_id
          ORDER BY u.email, t.apartment_id`,
    );
    const of = (email: string) => members.filter((m) => m.email === email);
    expect(of('tenant@demo.test')).toHaveLength(1);
    expect(of('admin@demo.test')).toEqual([
      { ...of('tenant@demo.test')[0]!, email: 'admin@demo.test', is_admin: true },
    ]);
    expect(of('tenant@demo.test')[0]!.is_admin).toBe(false);
    const multi = of('multi@demo.test');
    expect(multi).toHaveLength(2);
    expect(new Set(multi.map((m) => m.apartment)).size).toBe(2);
    expect(multi.map((m) => m.tenancy)).not.toContain(of('tenant@demo.test')[0]!.tenancy);

    const users = await queryRows<{
      email: string;
      password_hash: string;
      name: string;
      accounts: number;
      permissions: number;
    }>(
      first,
      sql`SELECT u.email, u.password_hash, u.name,
                 (SELECT count(*)::int FROM user_accounts a WHERE a.user_id = u.id) AS accounts,
                 (SELECT count(*)::int FROM user_permissions p WHERE p.user_id = u.id) AS permissions
          FROM users u ORDER BY u.email`,
    );
    expect(users.map((u) => u.email).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
    for (const u of users) {
      expect(u.name).not.toBe('');
      expect(u.accounts).toBe(1);
      expect(u.permissions).toBeGreaterThan(0);
      expect(await verifyPassword(u.password_hash, DEMO_PASSWORD)).toBe(true);
    }
  });

  it('leaves DEMOACTIVATE unused, for a tenancy without members; other codes are used', async () => {
    const codes = await queryRows<{ code: string; used: boolean; members: number }>(
      first,
      sql`SELECT c.code, c.used_at IS NOT NULL AS used,
                 (SELECT count(*)::int FROM tenancy_members m WHERE m.tenancy_id = c.tenancy_id) AS members
          FROM activation_codes c`,
    );
    expect(codes.find((c) => c.code === 'DEMOACTIVATE')).toEqual({
      code: 'DEMOACTIVATE',
      used: false,
      members: 0,
    });
    const others = codes.filter((c) => c.code !== 'DEMOACTIVATE');
    expect(others.length).toBeGreaterThanOrEqual(3);
    for (const c of others) {
      expect(c.used).toBe(true);
      expect(c.code).toMatch(/^[A-Z]{12}$/);
    }
  });

  it('includes a meter swap and a register reset, and no negative consumption', async () => {
    const [swap] = await queryRows<{ removed: number; replacement_readings: number }>(
      first,
      sql`SELECT count(*) FILTER (WHERE removed_at IS NOT NULL)::int AS removed,
                 (SELECT count(*)::int FROM register_readings r JOIN meters n ON n.id = r.meter_id
                  WHERE n.number LIKE '%-B') AS replacement_readings
          FROM meters`,
    );
    expect(swap!.removed).toBe(1);
    expect(swap!.replacement_readings).toBeGreaterThan(0);
    expect(await registerDrops(first)).toBe(1);
    const [min] = await queryRows<{ v: string }>(
      first,
      sql`SELECT min(h.value)::text AS v FROM hourly_consumption h
          JOIN measurement_points p ON p.id = h.measurement_point_id WHERE p.reading_kind = 'register'`,
    );
    expect(Number(min!.v)).toBeGreaterThanOrEqual(0);
  });

  it('loads the same data when the older history is backfilled later', async () => {
    const third = await open();
    await seedDemo(third, { ...small, recentDays: 1 });
    expect(Number((await fingerprint(third)).readings)).toBeLessThan(
      Number((await fingerprint(first)).readings),
    );
    const result = await backfillDemo(third);
    expect(result.hours).toBe(48);
    expect(await fingerprint(third)).toEqual(await fingerprint(first));
    expect(await backfillDemo(third)).toEqual({ hours: 0, readings: 0 });
  });

  it('rolls each day up once it is whole, and a run stopped after a midnight rolls that day up on resuming', async () => {
    const fourth = await open();
    await seedDemo(fourth, { ...small, recentDays: 1 });
    // The load ends with planner statistics (PGlite has no autovacuum; the backfill's lookups need them).
    const [stats] = await queryRows<{ n: number }>(
      fourth,
      sql`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 'public' AND tablename = 'register_readings'`,
    );
    expect(stats!.n).toBeGreaterThan(0);
    const [meta] = await queryRows<{ value: string }>(
      fourth,
      sql`SELECT value FROM app_meta WHERE key = 'demo.firstHour'`,
    );
    // Steps go back an hour each from the first loaded hour; stop right after the step at a Copenhagen midnight.
    const [mid] = await queryRows<{ hours: number }>(
      fourth,
      sql`SELECT extract(epoch FROM ${meta!.value}::timestamptz
            - (date_trunc('day', (${meta!.value}::timestamptz - interval '1 hour') AT TIME ZONE 'Europe/Copenhagen')
               AT TIME ZONE 'Europe/Copenhagen'))::int / 3600 AS hours`,
    );
    let steps = 0;
    const partial = await backfillDemo(fourth, { shouldStop: () => steps++ >= mid!.hours });
    expect(partial.hours).toBe(mid!.hours);
    // Every day with hourly values has a daily rollup that sums them, per point.
    const mismatches = sql`SELECT count(*)::int AS n FROM (
          SELECT measurement_point_id, (hour_start AT TIME ZONE 'Europe/Copenhagen')::date AS day, sum(value) AS s
          FROM hourly_consumption GROUP BY 1, 2) h
        FULL JOIN daily_rollups d ON d.measurement_point_id = h.measurement_point_id AND d.day = h.day
        WHERE h.s IS DISTINCT FROM d.sum`;
    expect((await queryRows<{ n: number }>(fourth, mismatches))[0]!.n).toBe(0);
    // As if the process had died after the midnight step's hours, before their roll-up.
    await fourth.execute(sql`DELETE FROM daily_rollups WHERE day = (SELECT min(day) FROM daily_rollups)`);
    expect((await queryRows<{ n: number }>(fourth, mismatches))[0]!.n).toBeGreaterThan(0);
    const rest = await backfillDemo(fourth);
    expect(partial.hours + rest.hours).toBe(48);
    expect((await queryRows<{ n: number }>(fourth, mismatches))[0]!.n).toBe(0);
    expect(await fingerprint(fourth)).toEqual(await fingerprint(first));
  });
});

describe('demo catch-up', () => {
  it('fills the gap up to the current hour, continuing the registers, and is idempotent', async () => {
    const later = new Date(now.getTime() + 2 * 86_400_000 + 50 * 60_000);
    const lastHour = new Date(Math.floor(later.getTime() / 3_600_000) * 3_600_000);
    const result = await catchUpDemo(first, { now: later });
    // 10:00 was the last seeded hour; two days later it is 11:10, so 11:00 is the last hour.
    expect(result.hours).toBe(49);
    const [span] = await queryRows<{ last: string; gaps: number }>(
      first,
      sql`SELECT to_char(max(ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS last,
                 (SELECT count(*)::int FROM (
                    SELECT ts - lag(ts) OVER (PARTITION BY meter_id ORDER BY ts) AS step FROM register_readings) s
                  WHERE step <> interval '1 hour') AS gaps
          FROM register_readings`,
    );
    expect(span!.last).toBe(lastHour.toISOString().slice(0, 16));
    // The one gap is the demo's radio outage (apartment 1's electricity, five readings missing).
    expect(span!.gaps).toBe(1);
    expect(await registerDrops(first)).toBe(1);

    const before = await fingerprint(first);
    expect(await catchUpDemo(first, { now: later })).toEqual({ hours: 0, readings: 0 });
    expect(await fingerprint(first)).toEqual(before);
  });
});
