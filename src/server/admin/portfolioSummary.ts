/**
 * The portfolio's per-property figures (table property_summaries, migration 0017): recomputed here, before the
 * overview reads them, for the rows of the caller's scope that are dirty (a trigger marked a write to a meter,
 * point, flat, tenancy, invitation, member or data issue), or whose time-dependent figures have changed since
 * (`valid_until`: the first reporting meter leaving the 24-hour window, a meter's removal, a tenancy starting or
 * ending). Otherwise the overview reads 1,000 stored rows instead of aggregating 72,000 meters per request.
 *
 * A row is written only if its `generation` is the one read: a write that commits meanwhile bumps it, and the
 * row stays dirty for the next read.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';

/** The figures as of `now` for the stale summaries of the properties `inScope` (conditions on `p`). */
function refreshStatement(inScope: SQL[], now: Date): SQL {
  const at = now.toISOString();
  const since = new Date(now.getTime() - 24 * 3_600_000).toISOString();
  const today = at.slice(0, 10);
  const utc = (day: SQL) => sql`((${day})::timestamp AT TIME ZONE 'UTC')`;
  return sql`WITH stale AS MATERIALIZED (
      SELECT p.id, s.generation FROM properties p JOIN property_summaries s ON s.property_id = p.id
      WHERE ${staleCondition(inScope, now)}
    ),
    f AS (
      SELECT mp.property_id, count(*)::int AS meters,
             (count(*) FILTER (WHERE m.last_reading_at >= ${since}::timestamptz))::int AS reporting,
             max(m.last_reading_at) AS last_reading_at,
             least(min(m.last_reading_at) FILTER (WHERE m.last_reading_at >= ${since}::timestamptz) + interval '24 hours',
                   min(m.removed_at)) AS until
      FROM stale s
      JOIN measurement_points mp ON mp.property_id = s.id
      JOIN meters m ON m.measurement_point_id = mp.id
      WHERE m.removed_at IS NULL OR m.removed_at > ${at}::timestamptz
      GROUP BY mp.property_id
    ),
    a AS (SELECT ap.property_id, count(*)::int AS apartments FROM stale s JOIN apartments ap ON ap.property_id = s.id
          GROUP BY ap.property_id),
    i AS (SELECT di.property_id, count(*)::int AS open FROM stale s
          JOIN data_issues di ON di.property_id = s.id AND di.status = 'open' GROUP BY di.property_id),
    tn AS MATERIALIZED (
      SELECT tn.id, ap.property_id, tn.start, tn."end",
             tn.start <= ${today}::date AND (tn."end" IS NULL OR tn."end" >= ${today}::date) AS current
      FROM stale s JOIN apartments ap ON ap.property_id = s.id JOIN tenancies tn ON tn.apartment_id = ap.id
    ),
    t AS (
      SELECT property_id, (count(*) FILTER (WHERE current))::int AS tenancies,
             least(min(start) FILTER (WHERE start > ${today}::date),
                   min("end" + 1) FILTER (WHERE "end" >= ${today}::date)) AS until
      FROM tn GROUP BY property_id
    ),
    inv AS (
      SELECT tn.property_id, count(DISTINCT (inv.tenancy_id, lower(inv.email)))::int AS invited
      FROM tn JOIN invitations inv ON inv.tenancy_id = tn.id WHERE tn.current GROUP BY tn.property_id
    ),
    mem AS (
      SELECT tn.property_id, count(*)::int AS activated
      FROM tn JOIN tenancy_members mem ON mem.tenancy_id = tn.id WHERE tn.current GROUP BY tn.property_id
    )
    UPDATE property_summaries ps SET
      dirty = false, computed_at = ${at}::timestamptz,
      valid_until = least(f.until, ${utc(sql`t.until`)}),
      apartments = coalesce(a.apartments, 0), meters = coalesce(f.meters, 0),
      reporting = coalesce(f.reporting, 0), last_reading_at = f.last_reading_at,
      open_issues = coalesce(i.open, 0), tenancies = coalesce(t.tenancies, 0),
      invited = coalesce(inv.invited, 0), activated = coalesce(mem.activated, 0)
    FROM stale s
      LEFT JOIN f ON f.property_id = s.id
      LEFT JOIN a ON a.property_id = s.id LEFT JOIN i ON i.property_id = s.id
      LEFT JOIN t ON t.property_id = s.id LEFT JOIN inv ON inv.property_id = s.id
      LEFT JOIN mem ON mem.property_id = s.id
    WHERE ps.property_id = s.id AND ps.generation = s.generation`;
}

/** Which of the scope's summaries are stale at `now`: a scan of one narrow row per property. */
export function staleCondition(inScope: SQL[], now: Date): SQL {
  const at = now.toISOString();
  return sql`${sql.join(inScope, sql` AND `)}
        AND (s.dirty OR s.computed_at > ${at}::timestamptz OR s.valid_until <= ${at}::timestamptz)`;
}

/** Brings the scope's stale summaries up to `now`; usually there are none, and only the check runs. */
export async function refreshSummaries(db: Db, inScope: SQL[], now: Date): Promise<void> {
  const [stale] = await queryRows<{ id: number }>(
    db,
    sql`SELECT p.id FROM properties p JOIN property_summaries s ON s.property_id = p.id
        WHERE ${staleCondition(inScope, now)} LIMIT 1`,
  );
  if (stale) await db.execute(refreshStatement(inScope, now));
}
