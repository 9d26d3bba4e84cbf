/**
 * Property hourly rollups: per property, quantity and hour, the sum over the property's apartment points, the area
 * of the apartments with data that hour, and how many they were. The property comparison at HOUR reads them
 * (tenant/graph/series.ts) instead of summing hourly_consumption over every apartment of the property per request,
 * which was 6-9 times slower at 240 apartments than at 24 (issue 20). Same figures as that sum: per apartment first,
 * so an apartment with several points of the quantity counts its area once.
 */
import { type SQL, sql } from 'drizzle-orm';
import { TIME_ZONE } from '../../lib/periods.ts';
import type { Db } from '../db/client.ts';
import { rangesParams } from './rollups.ts';
import type { PointDays } from './types.ts';

/**
 * Recomputes the rollups of the (property, quantity, hour) rows that `scope` selects; `scope` yields `pq` rows.
 * `whole`: the rows are all or most of the table's (a first load), read in one pass instead of point by point.
 */
function upsert(scope: SQL, whole: boolean): SQL {
  const hours = whole
    ? // Every hour of every point (a first load, a backfill): one pass over the table. Looked up per point by the
      // key, as below, the hours were read in the table's order of arrival, at random.
      sql`JOIN hourly_consumption h ON h.measurement_point_id = pts.id
            AND h.hour_start >= pts.h_lo AND h.hour_start < pts.h_hi`
    : // A lookup per point by the key (point, hour): as a plain join the planner kept only the point in the
      // index condition and read every hour of every point of the quantity (30 ms of a 1,000-row batch).
      sql`CROSS JOIN LATERAL (
            SELECT h.hour_start, h.value FROM hourly_consumption h
            WHERE h.measurement_point_id = pts.id AND h.hour_start >= pts.h_lo AND h.hour_start < pts.h_hi
            OFFSET 0) h`;
  return sql`
    WITH pq AS (${scope}),
    pts AS (
      SELECT p.id, p.apartment_id, pq.property_id, pq.quantity, pq.h_lo, pq.h_hi, ap.area_m2,
             count(*) OVER (PARTITION BY p.apartment_id, p.quantity) AS n
      FROM pq
      JOIN measurement_points p ON p.property_id = pq.property_id AND p.quantity = pq.quantity
        AND p.apartment_id IS NOT NULL
      JOIN apartments ap ON ap.id = p.apartment_id
    ),
    -- Apartments with several points of the quantity (allocators, one per radiator), with their points.
    multi AS (
      SELECT property_id, quantity, min(h_lo) AS h_lo, min(h_hi) AS h_hi, min(area_m2) AS area_m2,
             array_agg(id) AS ids
      FROM pts WHERE n > 1 GROUP BY property_id, quantity, apartment_id
    ),
    per_apartment AS (
      -- An apartment with one point of the quantity: its hours are the apartment's, with no grouping (grouping
      -- every hour of a first load per apartment took most of the statement's time).
      SELECT pts.property_id, pts.quantity, h.hour_start, h.value AS s, 1 AS c, pts.area_m2
      FROM pts ${hours}
      WHERE pts.n = 1
      UNION ALL
      -- The others summed per hour one apartment at a time (its points by the key): a small grouping each,
      -- a third quicker on a first load than one over every apartment's hours.
      SELECT m.property_id, m.quantity, x.hour_start, x.s, x.c, m.area_m2
      FROM multi m CROSS JOIN LATERAL (
        SELECT h.hour_start, sum(h.value) AS s, count(*) AS c FROM hourly_consumption h
        WHERE h.measurement_point_id = ANY(m.ids) AND h.hour_start >= m.h_lo AND h.hour_start < m.h_hi
        GROUP BY h.hour_start) x
    )
    INSERT INTO property_hourly_rollups AS pr (property_id, quantity, hour_start, sum, area_m2, count, apartments)
    SELECT property_id, quantity, hour_start, sum(s), sum(area_m2), sum(c)::int, count(*)::int
    FROM per_apartment
    GROUP BY 1, 2, 3
    ON CONFLICT (property_id, quantity, hour_start) DO UPDATE
      SET sum = excluded.sum, area_m2 = excluded.area_m2, count = excluded.count, apartments = excluded.apartments`;
}

/**
 * The rollups of the hours of the points' local days (after their hourly values changed): rollUpFromDaily in
 * rollups.ts runs it in one statement with the other rollups.
 */
export function propertyHourlyRollupsSql(days: PointDays[], whole = false): SQL {
  return upsert(
    sql`
      SELECT p.property_id, p.quantity,
             (min(rg.d_lo)::timestamp AT TIME ZONE ${TIME_ZONE}) AS h_lo,
             ((max(rg.d_hi) + 1)::timestamp AT TIME ZONE ${TIME_ZONE}) AS h_hi
      FROM ${rangesParams(days)}
      JOIN measurement_points p ON p.id = rg.point_id
      WHERE p.apartment_id IS NOT NULL
      GROUP BY p.property_id, p.quantity`,
    whole,
  );
}

/** Every property's rollups from all hourly values (a migration's backfill, tests that write hourly values directly). */
export async function rebuildPropertyHourlyRollups(tx: Db): Promise<void> {
  await tx.execute(
    upsert(
      sql`
      SELECT DISTINCT p.property_id, p.quantity, '-infinity'::timestamptz AS h_lo, 'infinity'::timestamptz AS h_hi
      FROM measurement_points p WHERE p.apartment_id IS NOT NULL`,
      true,
    ),
  );
}
