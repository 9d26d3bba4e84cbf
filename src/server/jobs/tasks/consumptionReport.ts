/**
 * The monthly "consumption report" notification (EU Energy Efficiency Directive): when a month's data is
 * complete, the month's report is generated, and every member of the tenancy gets a notification with the
 * month's totals, the report's link and its comparison (reports/notice.ts), and a mail if they want mail.
 */
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { notifications } from '../../db/schema.ts';
import { queryRows } from '../../db/sql.ts';
import { reportNotice } from '../../reports/notice.ts';
import { startInstant } from '../alarmPeriods.ts';
import { defineTask } from '../task.ts';
import { queueNotificationMail } from './notificationMail.ts';

/** How long after a month's end late data is waited for; after that the month gets no report. */
const REPORT_GRACE_MS = 7 * 86_400_000;

export const consumptionReportTask = defineTask({
  name: 'consumption-report',
  payload: z.object({ tenancyId: z.number().int().positive(), month: z.string().regex(/^\d{4}-\d{2}$/) }),
  key: (p) => ({ subject: `tenancy:${p.tenancyId}`, period: p.month }),
  async run({ tx, now, logger }, { tenancyId, month }) {
    const start = Temporal.PlainYearMonth.from(month).toPlainDate({ day: 1 });
    const end = start.add({ months: 1 });
    // The register (consumption) points of the tenancy's apartment, with how many of the month's days (within
    // the tenancy's dates) have data and how many should.
    const points = await queryRows<{ id: number; days: number; expected: number }>(
      tx,
      sql`SELECT mp.id,
            (SELECT count(*) FROM daily_rollups d WHERE d.measurement_point_id = mp.id
               AND d.day >= greatest(${start.toString()}::date, t.start)
               AND d.day < least(${end.toString()}::date, coalesce(t.end + 1, ${end.toString()}::date)))::int AS days,
            (least(${end.toString()}::date, coalesce(t.end + 1, ${end.toString()}::date))
               - greatest(${start.toString()}::date, t.start))::int AS expected
          FROM measurement_points mp JOIN tenancies t ON t.apartment_id = mp.apartment_id
          WHERE t.id = ${tenancyId} AND mp.reading_kind = 'register'`,
    );
    if (points.length === 0) return;
    if (!points.every((p) => Number(p.days) >= Number(p.expected))) {
      const deadline = startInstant(end.toString()).getTime() + REPORT_GRACE_MS;
      if (now.getTime() < deadline)
        return { retryAt: new Date(Math.min(now.getTime() + 6 * 3_600_000, deadline)) };
      logger.warn('month still incomplete after the grace time: no consumption report');
      return;
    }
    const totals = await queryRows<{ quantity: string; value: string }>(
      tx,
      // Only the month's days inside the tenancy's dates: a tenant who moved in or out mid-month gets their
      // own part, never the neighbour's before or after them.
      sql`SELECT mp.quantity, sum(d.sum)::text AS value
          FROM daily_rollups d JOIN measurement_points mp ON mp.id = d.measurement_point_id
          JOIN tenancies t ON t.id = ${tenancyId}
          WHERE mp.id = ANY(${`{${points.map((p) => p.id).join(',')}}`}::int[])
            AND d.day >= greatest(${start.toString()}::date, t.start)
            AND d.day < least(${end.toString()}::date, coalesce(t.end + 1, ${end.toString()}::date))
          GROUP BY mp.quantity ORDER BY mp.quantity`,
    );
    // The month's report, generated now, so the notice links to it and carries its comparison.
    const report = await reportNotice(tx, tenancyId, start.toString(), now);
    const members = await queryRows<{ user_id: number }>(
      tx,
      sql`SELECT user_id FROM tenancy_members WHERE tenancy_id = ${tenancyId} ORDER BY user_id`,
    );
    for (const { user_id } of members) {
      const userId = Number(user_id);
      const written = await tx
        .insert(notifications)
        .values({
          userId,
          tenancyId,
          kind: 'consumption_report',
          periodStart: start.toString(),
          periodEnd: end.toString(),
          frequency: 'month',
          details: { totals, ...(report ? { report } : {}) },
          key: `report:${tenancyId}:${month}:${userId}`,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: notifications.id });
      if (written.length > 0) await queueNotificationMail(tx, userId, now);
    }
  },
});
