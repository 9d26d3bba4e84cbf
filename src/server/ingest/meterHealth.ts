/**
 * The worker's meter check (issue 19 §3 "other findings"): a silent meter (no reading for METER_SILENT_HOURS)
 * and a stuck register (no change for METER_STUCK_DAYS where the quantity normally moves) are filed in the
 * data-issue queue, one open finding per meter and kind. A finding whose meter has recovered (it reads again,
 * its register moves again) is closed by the check itself: accepted as `noted` by `worker`, with a note. One an
 * operator has accepted or rejected is not filed again until the meter recovers and fails anew.
 *
 * Only meters in service (not removed) are checked. The check reads each meter's newest reading and the one
 * from before the stuck window through the readings' primary key: two index lookups per meter, whatever the
 * history's length.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { defineTask } from '../jobs/task.ts';

/** Quantities whose register moves every few days in a lived-in home (heat and allocators rest in summer). */
const STUCK_QUANTITIES = ['electricity-energy', 'cold-water-volume', 'hot-water-volume'] as const;

export const DEFAULT_SILENT_HOURS = 48;
export const DEFAULT_STUCK_DAYS = 7;

export interface MeterHealthOptions {
  silentHours: number;
  stuckDays: number;
}

export interface MeterHealthResult {
  /** New open findings. */
  silent: number;
  stuck: number;
  /** Open findings closed because the meter recovered. */
  closed: number;
}

/** A timestamptz column as ISO 8601 text in UTC (as the other evidence's times). */
const isoText = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Files new silent and stuck findings and closes recovered ones, at `now`; in the caller's transaction. */
export async function checkMeterHealth(
  db: Db,
  now: Date,
  opts: MeterHealthOptions,
): Promise<MeterHealthResult> {
  const iso = now.toISOString();
  const silentBefore = new Date(now.getTime() - opts.silentHours * 3_600_000).toISOString();
  const stuckSince = new Date(now.getTime() - opts.stuckDays * 86_400_000).toISOString();
  const [row] = await queryRows<MeterHealthResult & Record<string, unknown>>(
    db,
    sql`WITH cur AS (
          SELECT m.id AS meter_id, p.property_id, p.quantity, p.reading_kind, m.installed_at,
                 last.ts AS last_ts, last.value AS last_value
          FROM meters m
          JOIN measurement_points p ON p.id = m.measurement_point_id
          LEFT JOIN LATERAL (
            SELECT r.ts, r.value FROM register_readings r WHERE r.meter_id = m.id ORDER BY r.ts DESC LIMIT 1
          ) last ON true
          WHERE m.removed_at IS NULL AND m.installed_at <= ${silentBefore}::timestamptz
        ),
        silent AS (
          SELECT meter_id, property_id, quantity, last_ts, last_value FROM cur
          WHERE coalesce(last_ts, installed_at) < ${silentBefore}::timestamptz
        ),
        stuck AS (
          SELECT cur.meter_id, cur.property_id, cur.quantity, cur.last_ts, cur.last_value, b.ts AS since_ts
          FROM cur
          CROSS JOIN LATERAL (
            SELECT r.ts, r.value FROM register_readings r
            WHERE r.meter_id = cur.meter_id AND r.ts <= ${stuckSince}::timestamptz ORDER BY r.ts DESC LIMIT 1
          ) b
          WHERE cur.reading_kind = 'register'
            AND cur.quantity IN (${sql.join(
              STUCK_QUANTITIES.map((q) => sql`${q}`),
              sql`, `,
            )})
            AND cur.last_ts >= ${silentBefore}::timestamptz
            AND cur.last_value = b.value
        ),
        found AS (
          SELECT 'silent' AS kind, meter_id, property_id, jsonb_build_object(
                   'reason', 'no reading for ' || ${opts.silentHours}::int || ' hours or more',
                   'quantity', quantity,
                   'silentHours', ${opts.silentHours}::int,
                   'last', CASE WHEN last_ts IS NULL THEN NULL
                             ELSE jsonb_build_object('ts', ${isoText('last_ts')}, 'value', last_value::text) END) AS evidence
          FROM silent
          UNION ALL
          SELECT 'stuck', meter_id, property_id, jsonb_build_object(
                   'reason', 'the register has not changed for ' || ${opts.stuckDays}::int || ' days or more',
                   'quantity', quantity,
                   'stuckDays', ${opts.stuckDays}::int,
                   'since', jsonb_build_object('ts', ${isoText('since_ts')}, 'value', last_value::text),
                   'last', jsonb_build_object('ts', ${isoText('last_ts')}, 'value', last_value::text))
          FROM stuck
        ),
        filed AS (
          INSERT INTO data_issues (kind, meter_id, property_id, reading_ts, evidence, source)
          SELECT kind, meter_id, property_id, ${iso}::timestamptz, evidence, 'worker' FROM found f
          -- An episode an operator has decided on is not filed again: a silent meter with no reading since
          -- (the same last reading), a register stuck at the same value.
          WHERE NOT EXISTS (
            SELECT 1 FROM data_issues d
            WHERE d.meter_id = f.meter_id AND d.kind = f.kind AND d.status <> 'open' AND d.resolved_by <> 'worker'
              AND CASE f.kind WHEN 'silent' THEN d.evidence -> 'last' IS NOT DISTINCT FROM f.evidence -> 'last'
                  ELSE d.evidence #>> '{last,value}' = f.evidence #>> '{last,value}' END)
          ON CONFLICT (meter_id, kind) WHERE status = 'open' AND kind IN ('stuck', 'silent') DO NOTHING
          RETURNING kind
        ),
        closed AS (
          UPDATE data_issues q
          SET status = 'accepted', resolution = 'noted', resolved_by = 'worker', resolved_at = ${iso}::timestamptz,
              note = CASE q.kind WHEN 'silent' THEN 'readings resumed' ELSE 'the register moves again' END
          WHERE q.status = 'open' AND q.kind IN ('stuck', 'silent')
            AND NOT EXISTS (SELECT 1 FROM found f WHERE f.meter_id = q.meter_id AND f.kind = q.kind)
            -- A removed meter's finding is left to the operator.
            AND EXISTS (SELECT 1 FROM cur WHERE cur.meter_id = q.meter_id)
          RETURNING q.id
        )
        SELECT (SELECT count(*)::int FROM filed WHERE kind = 'silent') AS silent,
               (SELECT count(*)::int FROM filed WHERE kind = 'stuck') AS stuck,
               (SELECT count(*)::int FROM closed) AS closed`,
  );
  return { silent: Number(row!.silent), stuck: Number(row!.stuck), closed: Number(row!.closed) };
}

/** The hourly job of the check (queued by the schedule, jobs/schedule.ts). */
export const meterHealthTask = defineTask({
  name: 'meter-health',
  payload: z.object({
    /** The UTC hour the check is for (one check an hour), ISO 8601. */
    hour: z.string(),
    silentHours: z.number().int().min(1).default(DEFAULT_SILENT_HOURS),
    stuckDays: z.number().int().min(1).default(DEFAULT_STUCK_DAYS),
  }),
  key: (p) => ({ subject: 'meters', period: p.hour }),
  async run({ tx, now, logger }, { silentHours, stuckDays }) {
    const result = await checkMeterHealth(tx, now, { silentHours, stuckDays });
    if (result.silent + result.stuck + result.closed > 0)
      logger.info({ ...result, silentHours, stuckDays }, 'meter check: findings filed in data_issues');
  },
});
