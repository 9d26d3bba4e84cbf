/**
 * Daily, monthly and property rollups of the points' days, from the hourly values.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { updateDegreeDays } from '../tenant/degreeDays.ts';
import { propertyHourlyRollupsSql } from './propertyHourly.ts';
import { propertiesOfPoints, spansCte } from './sqlParts.ts';
import { type MeterSpan, type PhaseTimings, type PointDays, timed } from './types.ts';

/**
 * The advisory lock key (with the property's id) of a property's rollups. Batches of different points of one
 * property run in parallel (beginBatch in derive.ts) up to here; the property's rollups sum every point of it, so
 * each batch takes this before its first statement that reads other points' hours or days, and holds it to its
 * commit. That statement then starts after the previous holder's commit, and its snapshot sees that holder's
 * hours and days as well as its own: the last batch to write a property's hour or day counts every point's.
 */
const ROLLUP_LOCK = 7_410_004;

/** Takes the rollup locks of the properties of the points' days, in id order (after beginBatch's locks). */
async function lockPropertyRollups(tx: Db, days: PointDays[]): Promise<void> {
  await tx.execute(sql`SELECT count(pg_advisory_xact_lock(${ROLLUP_LOCK}, s.property_id))
      FROM (${propertiesOfPoints(days.map((d) => d.pointId))}) s`);
}

export function rangesParams(days: PointDays[]) {
  return sql`unnest(${pgNumberArray(days.map((d) => d.pointId))}::int[], ${pgNumberArray(days.map((d) => d.dayLo))}::date[],
                    ${pgNumberArray(days.map((d) => d.dayHi))}::date[]) AS rg(point_id, d_lo, d_hi)`;
}

/**
 * Daily rollups per point over Europe/Copenhagen days (23 or 25 hours on DST days). Returns how many rollups
 * changed, and how many hourly values those count.
 */
export async function updateDailyRollups(
  tx: Db,
  days: PointDays[],
  fresh: boolean,
): Promise<{ days: number; hours: number }> {
  const rollups = sql`INSERT INTO daily_rollups AS d (measurement_point_id, day, sum, min, max, count, estimated)
          SELECT h.measurement_point_id, (h.hour_start AT TIME ZONE 'Europe/Copenhagen')::date,
                 sum(h.value), min(h.value), max(h.value), count(*)::int, count(*) FILTER (WHERE h.estimated)::int
          FROM (
            -- The days' bounds as instants, converted once per point: in a join condition they would be
            -- converted again for every hour joined (two time-zone conversions per row of a large load).
            SELECT rg.point_id, (rg.d_lo::timestamp AT TIME ZONE 'Europe/Copenhagen') AS t_lo,
                   ((rg.d_hi + 1)::timestamp AT TIME ZONE 'Europe/Copenhagen') AS t_hi
            FROM ${rangesParams(days)}
            OFFSET 0
          ) rt
          JOIN hourly_consumption h ON h.measurement_point_id = rt.point_id
            AND h.hour_start >= rt.t_lo AND h.hour_start < rt.t_hi
          GROUP BY 1, 2`;
  if (fresh) {
    // Into the empty table: every rollup is new.
    await tx.execute(rollups);
    const [row] = await queryRows<{ n: number; hours: number }>(
      tx,
      sql`SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS hours FROM daily_rollups`,
    );
    return { days: Number(row?.n ?? 0), hours: Number(row?.hours ?? 0) };
  }
  const [row] = await queryRows<{ n: number; hours: number }>(
    tx,
    sql`WITH up AS (
          ${rollups}
          ON CONFLICT (measurement_point_id, day) DO UPDATE
            SET sum = excluded.sum, min = excluded.min, max = excluded.max, count = excluded.count,
                estimated = excluded.estimated
            WHERE (d.sum, d.min, d.max, d.count, d.estimated)
              IS DISTINCT FROM (excluded.sum, excluded.min, excluded.max, excluded.count, excluded.estimated)
          RETURNING d.count
        )
        SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS hours FROM up`,
  );
  return { days: Number(row?.n ?? 0), hours: Number(row?.hours ?? 0) };
}

/** Per register or sample point of a fresh load, the Europe/Copenhagen days its readings span. */
export async function freshDays(tx: Db, spans: MeterSpan[]): Promise<PointDays[]> {
  const rows = await queryRows<{ point_id: number; day_lo: string; day_hi: string }>(
    tx,
    sql`WITH ${spansCte(spans)}
        SELECT m.measurement_point_id AS point_id,
               to_char((min(a.lo) AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_lo,
               to_char((max(a.hi) AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD') AS day_hi
        FROM a JOIN meters m ON m.id = a.meter_id
        GROUP BY m.measurement_point_id`,
  );
  return rows.map((r) => ({ pointId: r.point_id, dayLo: r.day_lo, dayHi: r.day_hi }));
}

/** Monthly rollups per point, from the daily ones of the affected months. */
function monthlyRollupsSql(days: PointDays[]): SQL {
  return sql`
    INSERT INTO monthly_rollups AS mr (measurement_point_id, month, sum, min, max, count, estimated)
    SELECT d.measurement_point_id, date_trunc('month', d.day::timestamp)::date,
           sum(d.sum), min(d.min), max(d.max), sum(d.count)::int, sum(d.estimated)::int
    FROM ${rangesParams(days)}
    JOIN daily_rollups d ON d.measurement_point_id = rg.point_id
      AND d.day >= date_trunc('month', rg.d_lo::timestamp)::date
      AND d.day < (date_trunc('month', rg.d_hi::timestamp) + interval '1 month')::date
    GROUP BY 1, 2
    ON CONFLICT (measurement_point_id, month) DO UPDATE
      SET sum = excluded.sum, min = excluded.min, max = excluded.max, count = excluded.count,
          estimated = excluded.estimated
    RETURNING measurement_point_id, month`;
}

/**
 * Marks the property allocator months (migration 0019) of the monthly rollups a statement wrote or deleted (`rows`,
 * a CTE of point and month) stale, as the triggers on monthly_rollups do: a batch runs with its triggers off where
 * it may (skipRowChecks), so without this a late reading would leave a stored month's figures in the reports. With
 * the triggers on the month is bumped twice, which is harmless.
 */
function allocatorMonthsStaleSql(rows: string): SQL {
  return sql`INSERT INTO property_allocator_months AS c (property_id, month, version)
    SELECT DISTINCT mp.property_id, r.month, 1 FROM ${sql.raw(rows)} r
      JOIN measurement_points mp ON mp.id = r.measurement_point_id
     WHERE mp.reading_kind = 'register' AND mp.quantity IN ('heat-energy', 'hca')
     ORDER BY 1, 2
    ON CONFLICT (property_id, month) DO UPDATE SET version = c.version + 1`;
}

/**
 * Property rollups per quantity and day: the sum over the property's apartment points, the area of the
 * apartments that had data that day, and the sum per m² of that area.
 */
export async function updatePropertyRollups(tx: Db, days: PointDays[]): Promise<void> {
  await tx.execute(propertyRollupsSql(days));
}

function propertyRollupsSql(days: PointDays[]): SQL {
  return sql`
    WITH pq AS (
      SELECT p.property_id, p.quantity, min(rg.d_lo) AS d_lo, max(rg.d_hi) AS d_hi
      FROM ${rangesParams(days)}
      JOIN measurement_points p ON p.id = rg.point_id
      WHERE p.apartment_id IS NOT NULL
      GROUP BY p.property_id, p.quantity
    ),
    per_apartment AS (
      SELECT pq.property_id, pq.quantity, d.day, p.apartment_id, sum(d.sum) AS s, sum(d.count) AS c
      FROM pq
      JOIN measurement_points p ON p.property_id = pq.property_id AND p.quantity = pq.quantity
        AND p.apartment_id IS NOT NULL
      JOIN daily_rollups d ON d.measurement_point_id = p.id AND d.day BETWEEN pq.d_lo AND pq.d_hi
      GROUP BY 1, 2, 3, 4
    )
    INSERT INTO property_daily_rollups AS pr (property_id, quantity, day, sum, area_m2, per_m2, count, apartments)
    SELECT pa.property_id, pa.quantity, pa.day, sum(pa.s), sum(ap.area_m2),
           coalesce(trim_scale(round(sum(pa.s) / nullif(sum(ap.area_m2), 0), 9)), 0),
           sum(pa.c)::int, count(*)::int
    FROM per_apartment pa JOIN apartments ap ON ap.id = pa.apartment_id
    GROUP BY 1, 2, 3
    ON CONFLICT (property_id, quantity, day) DO UPDATE
      SET sum = excluded.sum, area_m2 = excluded.area_m2, per_m2 = excluded.per_m2,
          count = excluded.count, apartments = excluded.apartments`;
}

/**
 * Monthly and property rollups, and degree days, of the points' days (after their daily rollups). `part` runs
 * only the property's hourly rollups (`property-hourly`) or everything else (`rest`), for a caller that splits
 * them into two transactions (the demo's backfill); by default both.
 */
export async function rollUpFromDaily(
  tx: Db,
  days: PointDays[],
  timings?: PhaseTimings,
  /** false: no point of `days` is an outdoor temperature, so degree days would write nothing. */
  outdoor = true,
  /** A first load: the property's hourly rollups read every hour in one pass (propertyHourlyRollupsSql). */
  fresh = false,
  part: 'all' | 'rest' | 'property-hourly' = 'all',
): Promise<void> {
  // One statement for the three: each reads only what earlier statements wrote (daily rollups, hours) and
  // writes a table of its own, so they need no order among them; a batch pays one round trip and plan.
  await timed(timings, 'monthly and property rollups', async () => {
    await lockPropertyRollups(tx, days);
    if (part === 'property-hourly') {
      await tx.execute(propertyHourlyRollupsSql(days, fresh));
      return;
    }
    await tx.execute(sql`WITH mo AS (${monthlyRollupsSql(days)}),
      am AS (${allocatorMonthsStaleSql('mo')}),
      pr AS (${propertyRollupsSql(days)})
      ${part === 'all' ? sql`, ph AS (${propertyHourlyRollupsSql(days, fresh)})` : sql``}
      SELECT 1`);
  });
  // Heating degree days from the property's outdoor temperature (writes nothing for other points).
  if (outdoor && part !== 'property-hourly') {
    await timed(timings, 'degree days', () => updateDegreeDays(tx, days));
  }
}

/**
 * Deletes the rollups of the points' days that no hour counts any more (hours cleared around a quarantined
 * reading): the upserts that follow only write days that have hours.
 */
export async function dropEmptyRollups(tx: Db, days: PointDays[]): Promise<void> {
  if (days.length === 0) return;
  // The property's rows below are judged from every point's days.
  await lockPropertyRollups(tx, days);
  await tx.execute(sql`DELETE FROM daily_rollups d USING ${rangesParams(days)}
    WHERE d.measurement_point_id = rg.point_id AND d.day BETWEEN rg.d_lo AND rg.d_hi
      AND NOT EXISTS (SELECT 1 FROM hourly_consumption h WHERE h.measurement_point_id = d.measurement_point_id
        AND h.hour_start >= (d.day::timestamp AT TIME ZONE 'Europe/Copenhagen')
        AND h.hour_start < ((d.day + 1)::timestamp AT TIME ZONE 'Europe/Copenhagen'))`);
  await tx.execute(sql`WITH gone AS (DELETE FROM monthly_rollups mr USING ${rangesParams(days)}
    WHERE mr.measurement_point_id = rg.point_id
      AND mr.month BETWEEN date_trunc('month', rg.d_lo::timestamp)::date AND rg.d_hi
      AND NOT EXISTS (SELECT 1 FROM daily_rollups d WHERE d.measurement_point_id = mr.measurement_point_id
        AND d.day >= mr.month AND d.day < (mr.month + interval '1 month')::date)
    RETURNING mr.measurement_point_id, mr.month)
    ${allocatorMonthsStaleSql('gone')}`);
  await tx.execute(sql`DELETE FROM property_daily_rollups pr USING ${rangesParams(days)}
    JOIN measurement_points p ON p.id = rg.point_id
    WHERE pr.property_id = p.property_id AND pr.quantity = p.quantity AND pr.day BETWEEN rg.d_lo AND rg.d_hi
      AND NOT EXISTS (SELECT 1 FROM daily_rollups d JOIN measurement_points q ON q.id = d.measurement_point_id
        WHERE q.property_id = pr.property_id AND q.quantity = pr.quantity AND q.apartment_id IS NOT NULL
          AND d.day = pr.day)`);
}
