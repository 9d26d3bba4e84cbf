/**
 * Heating degree days per property and day (table property_degree_days), derived in one SQL statement from the
 * daily rollups of the property's outdoor-temperature points (points with no apartment).
 *
 * Hook: ingestion must call `updateDegreeDays(tx, days)` once per batch, inside the batch's transaction, right
 * after the daily rollups are written (today: src/server/ingest/ingest.ts, `ingestReadings`, after
 * `updatePropertyRollups(tx, days)`, with the same `days` list of { pointId, dayLo, dayHi }). Batches without an
 * outdoor-temperature point cost one statement that writes nothing. `refreshAllDegreeDays(db)` recomputes every
 * day from the rollups (after a bulk load, or to backfill a database loaded before the hook existed).
 * Reading is part of the series query (SeriesQuery.degreeDays in graph/series.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import { DEGREE_DAY_BASE } from '../../lib/degreeDays.ts';
import type { Db } from '../db/client.ts';
import { pgNumberArray } from '../db/sql.ts';

/** Point-days a batch touched, as ingestion reports them (dates YYYY-MM-DD, both ends inclusive). */
export interface TouchedDays {
  pointId: number;
  dayLo: string;
  dayHi: string;
}

/** Fewest hourly values a day's mean may be made of (a complete day has 23, 24 or 25). */
export const MIN_HOURS_PER_DAY = 20;

/** The upsert, for the properties and day ranges in `affected` (a query yielding property_id, lo, hi). */
function upsertSql(affected: SQL): SQL {
  return sql`WITH aff AS (${affected}),
    days AS (
      SELECT p.property_id, d.day, sum(d.sum) / nullif(sum(d.count), 0) AS mean, sum(d.count)::int AS hours
      FROM aff
      JOIN measurement_points p ON p.property_id = aff.property_id
        AND p.quantity = 'outdoor-temperature' AND p.apartment_id IS NULL
      JOIN daily_rollups d ON d.measurement_point_id = p.id AND d.day BETWEEN aff.lo AND aff.hi
      GROUP BY 1, 2
    )
    INSERT INTO property_degree_days AS dd (property_id, day, mean_temperature, degree_days, hours)
    SELECT property_id, day, round(mean, 6), greatest(0, ${DEGREE_DAY_BASE} - round(mean, 6)), hours
    FROM days WHERE mean IS NOT NULL
    ON CONFLICT (property_id, day) DO UPDATE
      SET mean_temperature = excluded.mean_temperature, degree_days = excluded.degree_days, hours = excluded.hours
      WHERE (dd.mean_temperature, dd.hours) IS DISTINCT FROM (excluded.mean_temperature, excluded.hours)`;
}

/** One statement: degree days of the days a batch touched, for properties whose outdoor points it touched. */
function degreeDaysSql(days: TouchedDays[]): SQL {
  return upsertSql(sql`
    SELECT p.property_id, min(rg.d_lo) AS lo, max(rg.d_hi) AS hi
    FROM unnest(${pgNumberArray(days.map((d) => d.pointId))}::int[], ${pgNumberArray(days.map((d) => d.dayLo))}::date[],
                ${pgNumberArray(days.map((d) => d.dayHi))}::date[]) AS rg(point_id, d_lo, d_hi)
    JOIN measurement_points p ON p.id = rg.point_id
    WHERE p.quantity = 'outdoor-temperature' AND p.apartment_id IS NULL
    GROUP BY p.property_id`);
}

/** Call after a batch's daily rollups are written, in the same transaction (see the hook note above). */
export async function updateDegreeDays(tx: Db, days: TouchedDays[]): Promise<void> {
  if (days.length === 0) return;
  await tx.execute(degreeDaysSql(days));
}

/** Recomputes the degree days of every property and day from the rollups. */
export async function refreshAllDegreeDays(db: Db): Promise<void> {
  await db.execute(
    upsertSql(sql`SELECT DISTINCT p.property_id, '0001-01-01'::date AS lo, '9999-12-31'::date AS hi
      FROM measurement_points p WHERE p.quantity = 'outdoor-temperature' AND p.apartment_id IS NULL`),
  );
}
