/**
 * A property's allocator figures per month, stored once per property and month (`property_allocator_months`,
 * migration 0019) and reused by every tenancy's monthly report, so the worker's month-end pass reads each
 * property's heat and allocator points once per month, not once per tenancy: linear in the flats, not their square
 * (docs/scale.md). A month is fresh while its row's `computed_version` equals its `version`; the database's triggers
 * bump the version whenever a heat or allocator point's monthly rollup changes (ingestion, late data, whatever path)
 * or the property's points change, and stale or missing months are recomputed here from monthly_rollups and written
 * only if no change came in between (the version they were computed at is still current). Writes: primary only.
 */
import { sql } from 'drizzle-orm';
import type { AllocatorMonth } from '../../lib/allocators.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';

/** The advisory lock (with the property id) that point changes take and a recompute takes shared (migration 0019). */
const ALLOCATOR_MONTHS_LOCK = 7_410_019;

export type FigureRow = {
  month: string;
  supply: string | null;
  heat_only: string | null;
  metered_heat: string | null;
  metered_units: string | null;
  units: string | null;
};

/**
 * The property's figures of these months (first days, ISO), one statement from its points' monthly rollups; with
 * `apartmentId`, that apartment's own allocator units too (`own_units`, the direct read's: months.ts).
 */
export function propertyFiguresSql(propertyId: number, months: string[], apartmentId: number | null = null) {
  return sql`WITH pts AS (
          SELECT id, apartment_id, quantity FROM measurement_points
           WHERE property_id = ${propertyId} AND reading_kind = 'register'
             AND quantity IN ('heat-energy', 'hca')),
        flats AS (
          SELECT apartment_id, bool_or(quantity = 'hca') AS has_hca, bool_or(quantity = 'heat-energy') AS has_heat
            FROM pts WHERE apartment_id IS NOT NULL GROUP BY 1)
        SELECT to_char(d.month, 'YYYY-MM-DD') AS month,
          sum(d.sum) FILTER (WHERE p.apartment_id IS NULL AND p.quantity = 'heat-energy')::text AS supply,
          sum(d.sum) FILTER (WHERE p.quantity = 'heat-energy' AND NOT f.has_hca)::text AS heat_only,
          sum(d.sum) FILTER (WHERE p.quantity = 'heat-energy' AND f.has_hca)::text AS metered_heat,
          sum(d.sum) FILTER (WHERE p.quantity = 'hca' AND f.has_heat)::text AS metered_units,
          sum(d.sum) FILTER (WHERE p.quantity = 'hca' AND p.apartment_id IS NOT NULL)::text AS units,
          sum(d.sum) FILTER (WHERE p.quantity = 'hca' AND p.apartment_id = ${apartmentId})::text AS own_units
        FROM monthly_rollups d
        JOIN pts p ON p.id = d.measurement_point_id
        LEFT JOIN flats f ON f.apartment_id = p.apartment_id
        WHERE d.month = ANY(${`{${months.join(',')}}`}::date[])
        GROUP BY 1`;
}

const num = (v: string | null) => (v === null ? null : Number(v));

export function toMonth(r: Omit<FigureRow, 'month'>): AllocatorMonth {
  return {
    supplyKwh: num(r.supply),
    heatOnlyFlatsKwh: num(r.heat_only),
    meteredFlatsKwh: num(r.metered_heat),
    meteredFlatsUnits: num(r.metered_units),
    units: num(r.units),
  };
}

const hasFigures = (m: AllocatorMonth) => Object.values(m).some((v) => v !== null);

/**
 * The property's figures for each of `months` (first days, ISO): fresh stored rows as they are; the others computed
 * in one statement and stored. Months without any figure are left out of the map (as the direct read does).
 */
export async function storedPropertyMonths(
  db: Db,
  propertyId: number,
  months: string[],
): Promise<Map<string, AllocatorMonth>> {
  const result = new Map<string, AllocatorMonth>();
  const monthsParam = `{${months.join(',')}}`;
  const fresh = await queryRows<FigureRow>(
    db,
    sql`SELECT to_char(month, 'YYYY-MM-DD') AS month, supply::text, heat_only::text, metered_heat::text,
               metered_units::text, units::text
          FROM property_allocator_months
         WHERE property_id = ${propertyId} AND month = ANY(${monthsParam}::date[])
           AND computed_version = version`,
  );
  for (const r of fresh) {
    const m = toMonth(r);
    if (hasFigures(m)) result.set(r.month, m);
  }
  const stale = months.filter((m) => !fresh.some((r) => r.month === m));
  if (stale.length === 0) return result;
  await db.transaction(async (tx) => {
    // Shared: reports of one property may compute side by side; a point change (its trigger) waits for them, and
    // they for it, so no figure computed before a change is written after it.
    await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${ALLOCATOR_MONTHS_LOCK}, ${propertyId})`);
    const staleParam = `{${stale.join(',')}}`;
    // The figures and the versions they are computed at, in one statement (one snapshot).
    const rows = await queryRows<FigureRow & { version: string }>(
      tx,
      sql`WITH f AS (${propertyFiguresSql(propertyId, stale)})
          SELECT to_char(w.month, 'YYYY-MM-DD') AS month, f.supply, f.heat_only, f.metered_heat, f.metered_units,
                 f.units, coalesce(c.version, 0)::text AS version
            FROM unnest(${staleParam}::date[]) AS w(month)
            LEFT JOIN f ON f.month = to_char(w.month, 'YYYY-MM-DD')
            LEFT JOIN property_allocator_months c ON c.property_id = ${propertyId} AND c.month = w.month
           ORDER BY w.month`,
    );
    const column = (pick: (r: (typeof rows)[number]) => string | null) =>
      `{${rows.map((r) => pick(r) ?? 'NULL').join(',')}}`;
    // Written only where the version is still the one computed at; a change since leaves the month stale.
    await tx.execute(
      sql`INSERT INTO property_allocator_months AS c (property_id, month, version, computed_version, supply,
            heat_only, metered_heat, metered_units, units)
          SELECT ${propertyId}, w.month, w.version, w.version, w.supply, w.heat_only, w.metered_heat,
                 w.metered_units, w.units
            FROM unnest(${column((r) => r.month)}::date[], ${column((r) => r.version)}::bigint[],
                        ${column((r) => r.supply)}::numeric[], ${column((r) => r.heat_only)}::numeric[],
                        ${column((r) => r.metered_heat)}::numeric[], ${column((r) => r.metered_units)}::numeric[],
                        ${column((r) => r.units)}::numeric[])
                 AS w(month, version, supply, heat_only, metered_heat, metered_units, units)
           ORDER BY w.month
          ON CONFLICT (property_id, month) DO UPDATE SET computed_version = excluded.computed_version,
            supply = excluded.supply, heat_only = excluded.heat_only, metered_heat = excluded.metered_heat,
            metered_units = excluded.metered_units, units = excluded.units
          WHERE c.version = excluded.computed_version`,
    );
    for (const r of rows) {
      const m = toMonth(r);
      if (hasFigures(m)) result.set(r.month, m);
    }
  });
  return result;
}
