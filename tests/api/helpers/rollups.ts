import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/server/db/client.ts';
import { rebuildPropertyHourlyRollups } from '../../../src/server/ingest/propertyHourly.ts';

/**
 * Daily, monthly and property rollups of points whose hourly_consumption rows a test inserted, as the ingestion
 * path (src/server/ingest/rollups.ts) defines them.
 */
export async function rollUpHours(db: Db, pointIds: readonly number[]): Promise<void> {
  const list = `{${pointIds.join(',')}}`;
  await db.execute(sql`INSERT INTO daily_rollups (measurement_point_id, day, sum, min, max, count)
    SELECT measurement_point_id, (hour_start AT TIME ZONE 'Europe/Copenhagen')::date, sum(value), min(value), max(value), count(*)
    FROM hourly_consumption WHERE measurement_point_id = ANY(${list}::int[]) GROUP BY 1, 2`);
  await db.execute(sql`INSERT INTO monthly_rollups (measurement_point_id, month, sum, min, max, count)
    SELECT measurement_point_id, date_trunc('month', day::timestamp)::date, sum(sum), min(min), max(max), sum(count)
    FROM daily_rollups WHERE measurement_point_id = ANY(${list}::int[]) GROUP BY 1, 2`);
  // Every property's rollups, recomputed exactly as src/server/ingest/rollups.ts (updatePropertyRollups) does.
  await db.execute(sql`DELETE FROM property_daily_rollups`);
  await db.execute(sql`
    WITH per_apartment AS (
      SELECT p.property_id, p.quantity, d.day, p.apartment_id, sum(d.sum) AS s, sum(d.count) AS c
      FROM measurement_points p JOIN daily_rollups d ON d.measurement_point_id = p.id
      WHERE p.apartment_id IS NOT NULL GROUP BY 1, 2, 3, 4)
    INSERT INTO property_daily_rollups (property_id, quantity, day, sum, area_m2, per_m2, count, apartments)
    SELECT pa.property_id, pa.quantity, pa.day, sum(pa.s), sum(ap.area_m2),
           coalesce(trim_scale(round(sum(pa.s) / nullif(sum(ap.area_m2), 0), 9)), 0), sum(pa.c)::int, count(*)::int
    FROM per_apartment pa JOIN apartments ap ON ap.id = pa.apartment_id GROUP BY 1, 2, 3`);
  await rebuildPropertyHourlyRollups(db);
}
