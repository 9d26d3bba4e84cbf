/**
 * The demo seed of one large property: 800 apartments (about 9,000 measurement points, past the 8,191 rows of 8
 * parameters that PostgreSQL's 65,534 parameters per statement allow), one day of history.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

it('seeds 800 apartments in one property, every point with its meters', { timeout: 300_000 }, async () => {
  await seedDemo(database.db, { now: new Date('2026-03-01T00:00:00Z'), days: 1, apartments: 800 });
  const [counts] = await queryRows<{ apartments: number; points: number; unmetered: number; hours: number }>(
    database.db,
    sql`SELECT (SELECT count(*)::int FROM apartments) AS apartments,
               (SELECT count(*)::int FROM measurement_points) AS points,
               (SELECT count(*)::int FROM measurement_points p
                 WHERE NOT EXISTS (SELECT 1 FROM meters m WHERE m.measurement_point_id = p.id)) AS unmetered,
               (SELECT count(DISTINCT hour_start)::int FROM hourly_consumption) AS hours`,
  );
  expect(counts?.apartments).toBe(800);
  expect(counts?.points).toBeGreaterThan(65_534 / 8);
  expect(counts?.unmetered).toBe(0);
  expect(counts?.hours).toBeGreaterThanOrEqual(24);
});
