/**
 * Late data (issue 19 §2): readings that change days an alarm has already judged, or a month whose report is
 * already out. The batch that changed those days queues one `late-data` job in its own transaction (so it
 * exists exactly when the data does); the worker then evaluates each such alarm period again and regenerates
 * each such monthly report.
 *
 * - An alarm period is evaluated again and its evaluation replaced when the outcome changed. It fires at most
 *   once: the notification is unique per alarm and period, so a period that fired before is not notified again,
 *   and one that fires only now gets its first notification (and mail).
 * - A monthly report keeps its code and expiry and takes the new figures (reports/generate.ts).
 *
 * Comparison alarms also look at the period before, so late days in that one count for them too.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { enqueue } from '../jobs/queue.ts';
import { defineTask } from '../jobs/task.ts';
import { evaluateAlarmPeriod } from '../jobs/tasks/evaluateAlarm.ts';
import { reportSettings } from '../reports/deployment.ts';
import { generateMonthlyReports } from '../reports/generate.ts';
import { rangesParams } from './rollups.ts';
import type { PointDays } from './types.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const lateDataTask = defineTask({
  name: 'late-data',
  payload: z.object({
    /** One job per batch that changed judged days: a batch's own token. */
    batch: z.string().min(1),
    alarms: z.array(z.object({ alarmId: z.number().int().positive(), periodStart: isoDate })),
    reports: z.array(z.object({ tenancyId: z.number().int().positive(), month: isoDate })),
  }),
  key: (p) => ({ subject: 'batch', period: p.batch }),
  async run(ctx, { alarms, reports }) {
    for (const a of alarms) await evaluateAlarmPeriod(ctx, a.alarmId, a.periodStart, true);
    const settings = reportSettings();
    let regenerated = 0;
    for (const r of reports) {
      const result = await generateMonthlyReports(ctx.tx, {
        month: r.month,
        now: ctx.now,
        settings,
        tenancyId: r.tenancyId,
      });
      regenerated += result.updated;
    }
    ctx.logger.info({ alarms: alarms.length, reports: reports.length, regenerated }, 'late data rechecked');
  },
});

/**
 * In a batch's transaction, after its days were rolled up: queues a late-data job when the days touch an alarm
 * period already evaluated or a month already reported. Returns what it queued.
 */
export async function queueLateDataRecheck(
  tx: Db,
  days: PointDays[],
): Promise<{ alarms: number; reports: number }> {
  if (days.length === 0) return { alarms: 0, reports: 0 };
  const [row] = await queryRows<{
    alarms: { alarmId: number; periodStart: string }[] | null;
    reports: { tenancyId: number; month: string }[] | null;
  }>(
    tx,
    sql`WITH ap AS (
          SELECT p.apartment_id, p.quantity, min(rg.d_lo) AS d_lo, max(rg.d_hi) AS d_hi
          FROM ${rangesParams(days)} JOIN measurement_points p ON p.id = rg.point_id
          WHERE p.apartment_id IS NOT NULL
          GROUP BY 1, 2
        ),
        tn AS (
          SELECT t.id AS tenancy_id, ap.quantity, ap.d_lo, ap.d_hi
          FROM ap JOIN tenancies t ON t.apartment_id = ap.apartment_id
        ),
        ev AS (
          SELECT DISTINCT e.alarm_id, e.period_start
          FROM tn JOIN alarms a ON a.tenancy_id = tn.tenancy_id AND a.quantity = tn.quantity
          JOIN alarm_evaluations e ON e.alarm_id = a.id AND e.period_end > tn.d_lo
            AND (CASE WHEN a.type = 'comparison' THEN (e.period_start - CASE a.frequency
                   WHEN 'day' THEN interval '1 day' WHEN 'week' THEN interval '7 days'
                   WHEN 'month' THEN interval '1 month' ELSE interval '1 year' END)::date
                 ELSE e.period_start END) <= tn.d_hi
        ),
        rp AS (
          SELECT DISTINCT r.tenancy_id, r.month
          FROM (SELECT DISTINCT tenancy_id, d_lo, d_hi FROM tn) tn
          JOIN monthly_reports r ON r.tenancy_id = tn.tenancy_id
            AND r.month <= tn.d_hi AND (r.month + interval '1 month')::date > tn.d_lo
        )
        SELECT (SELECT jsonb_agg(jsonb_build_object('alarmId', alarm_id, 'periodStart', period_start::text)
                                 ORDER BY alarm_id, period_start) FROM ev) AS alarms,
               (SELECT jsonb_agg(jsonb_build_object('tenancyId', tenancy_id, 'month', month::text)
                                 ORDER BY tenancy_id, month) FROM rp) AS reports`,
  );
  const alarms = row?.alarms ?? [];
  const reports = row?.reports ?? [];
  if (alarms.length + reports.length === 0) return { alarms: 0, reports: 0 };
  // Due at once, whatever the worker's clock says (tests run it on an injected one).
  await enqueue(tx, lateDataTask, { batch: randomUUID(), alarms, reports }, new Date(0));
  return { alarms: alarms.length, reports: reports.length };
}
