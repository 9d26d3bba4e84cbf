/**
 * The per-meter readings of a statement (EU Energy Efficiency Directive Annex VIIa; HeizkostenV §6a): each
 * register meter of the tenancy's flat with its reading at the period's start and end, read from the meters'
 * own register readings, its scale factor from the statement (allocators' rating factors; 1 when the statement
 * gives none) and the consumption the two readings and the factor give.
 */
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { TIME_ZONE } from '../../lib/periods.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';

/** One meter's readings over a statement's period. */
export interface StatementMeterReading {
  meterNumber: string;
  /** Quantity id of SPEC §3 (hca, heat-energy, hot-water-volume, …). */
  quantity: string;
  room: string | null;
  /** The reading at the period's first midnight (or the first one after it, for a meter fitted later). */
  start: { at: string; value: number } | null;
  /** The last reading up to the midnight after the period's last day. */
  end: { at: string; value: number } | null;
  scaleFactor: number;
  /** (end − start) × scaleFactor; null without both readings, or when the register fell (a reset) in between. */
  consumption: number | null;
}

/** A statement's scale factors by meter number. */
export const scaleFactors = (details: { meters?: { number: string; scaleFactor: number }[] }) =>
  new Map((details.meters ?? []).map((m) => [m.number, m.scaleFactor]));

/** An instant as ISO 8601 with the Copenhagen offset, to the second. */
function localTimestamp(epochMs: string): string {
  return Temporal.Instant.fromEpochMilliseconds(Number(epochMs))
    .toZonedDateTimeISO(TIME_ZONE)
    .toString({ timeZoneName: 'never', smallestUnit: 'second' });
}

/** The first instant of a local date. */
const midnight = (date: Temporal.PlainDate) => date.toZonedDateTime(TIME_ZONE).toInstant().toString();

/**
 * Readings of every register meter of `apartmentId` in use during [periodStart, periodEnd] (local dates, both
 * inclusive), in one statement. `factors` maps meter numbers to scale factors.
 */
export async function statementMeterReadings(
  db: Db,
  apartmentId: number,
  period: { periodStart: string; periodEnd: string },
  factors: ReadonlyMap<string, number> = new Map(),
): Promise<StatementMeterReading[]> {
  const lo = midnight(Temporal.PlainDate.from(period.periodStart));
  const hi = midnight(Temporal.PlainDate.from(period.periodEnd).add({ days: 1 }));
  const rows = await queryRows<{
    number: string;
    quantity: string;
    room: string | null;
    sts: string | null;
    sv: string | null;
    ets: string | null;
    ev: string | null;
  }>(
    db,
    sql`SELECT m.number, p.quantity, p.room,
               COALESCE(b.ts, f.ts) AS sts, COALESCE(b.v, f.v) AS sv, e.ts AS ets, e.v AS ev
          FROM meters m
          JOIN measurement_points p ON p.id = m.measurement_point_id
          LEFT JOIN LATERAL (
            SELECT (extract(epoch FROM r.ts) * 1000)::bigint::text AS ts, r.value::text AS v
              FROM register_readings r WHERE r.meter_id = m.id AND r.ts <= ${lo}::timestamptz
             ORDER BY r.ts DESC LIMIT 1) b ON true
          LEFT JOIN LATERAL (
            SELECT (extract(epoch FROM r.ts) * 1000)::bigint::text AS ts, r.value::text AS v
              FROM register_readings r
             WHERE r.meter_id = m.id AND r.ts > ${lo}::timestamptz AND r.ts <= ${hi}::timestamptz
             ORDER BY r.ts LIMIT 1) f ON true
          LEFT JOIN LATERAL (
            SELECT (extract(epoch FROM r.ts) * 1000)::bigint::text AS ts, r.value::text AS v
              FROM register_readings r
             WHERE r.meter_id = m.id AND r.ts > ${lo}::timestamptz AND r.ts <= ${hi}::timestamptz
             ORDER BY r.ts DESC LIMIT 1) e ON true
         WHERE p.apartment_id = ${apartmentId} AND p.reading_kind = 'register'
           AND m.installed_at < ${hi}::timestamptz
           AND (m.removed_at IS NULL OR m.removed_at > ${lo}::timestamptz)
         ORDER BY p.quantity, p.room NULLS LAST, m.number`,
  );
  return rows.map((r) => {
    const scaleFactor = factors.get(r.number) ?? 1;
    const start = r.sts !== null ? { at: localTimestamp(r.sts), value: Number(r.sv) } : null;
    const end = r.ets !== null ? { at: localTimestamp(r.ets), value: Number(r.ev) } : null;
    const rise = start && end ? end.value - start.value : null;
    return {
      meterNumber: r.number,
      quantity: r.quantity,
      room: r.room,
      start,
      end,
      scaleFactor,
      consumption: rise !== null && rise >= 0 ? rise * scaleFactor : null,
    };
  });
}
