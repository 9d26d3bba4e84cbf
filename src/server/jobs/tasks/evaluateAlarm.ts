/** Evaluates one alarm for one complete period; writes its evaluation and, when it fires, a notification. */
import { and, eq, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { alarmEvaluations, alarms, notifications, tenancyMembers } from '../../db/schema.ts';
import { isPeriodStart, periodContaining, previousPeriod, startInstant } from '../alarmPeriods.ts';
import { type AlarmRule, evaluateAlarm, isWaterQuantity, notificationKindOf } from '../evaluator.ts';
import { defineTask, type TaskContext, type TaskOutcome } from '../task.ts';
import { alarmSource, dailyTotals, leakHours, withinTenancy } from '../values.ts';
import { queueNotificationMail } from './notificationMail.ts';

/** How long after a period's end missing data is waited for before the period is recorded as unknown. */
const DATA_GRACE_MS = 3 * 86_400_000;
/** How often a period with missing data is looked at again within the grace time. */
const RECHECK_MS = 6 * 3_600_000;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** An alarm row as the evaluator's rule. */
function ruleOf(a: typeof alarms.$inferSelect): AlarmRule {
  const num = (x: string | null) => (x === null ? null : Number(x));
  return {
    type: a.type,
    quantity: a.quantity,
    frequency: a.frequency,
    threshold: num(a.threshold),
    minimum: num(a.minimum),
    maximum: num(a.maximum),
    leakRule: a.leakRule,
  };
}

export const evaluateAlarmTask = defineTask({
  name: 'evaluate-alarm',
  payload: z.object({ alarmId: z.number().int().positive(), periodStart: isoDate }),
  key: (p) => ({ subject: `alarm:${p.alarmId}`, period: p.periodStart }),
  async run(ctx, { alarmId, periodStart }) {
    return evaluateAlarmPeriod(ctx, alarmId, periodStart, false);
  },
});

/**
 * Evaluates one alarm for one complete period and writes the evaluation; when it fires, a notification (unique
 * per alarm and period, so it never fires twice) and its mail. `again`: the period was evaluated before and
 * late data has changed its days (ingest/lateData.ts): the evaluation is replaced when its outcome differs,
 * and a period that fires now and had not fired before gets its notification.
 */
export async function evaluateAlarmPeriod(
  { tx, now, logger }: Pick<TaskContext, 'tx' | 'now' | 'logger'>,
  alarmId: number,
  periodStart: string,
  again: boolean,
): Promise<TaskOutcome> {
  const [row] = await tx
    .select({ alarm: alarms })
    .from(alarms)
    .innerJoin(
      tenancyMembers,
      and(eq(tenancyMembers.tenancyId, alarms.tenancyId), eq(tenancyMembers.userId, alarms.userId)),
    )
    .where(eq(alarms.id, alarmId));
  // Deleted, switched off, its owner left the tenancy, or its frequency changed since it was queued.
  if (!row?.alarm.enabled || !isPeriodStart(periodStart, row.alarm.frequency)) return;
  const alarm = row.alarm;
  const rule = ruleOf(alarm);
  const period = periodContaining(Temporal.PlainDate.from(periodStart), rule.frequency);
  const source = await alarmSource(tx, alarm.tenancyId, alarm.quantity);
  // A period wholly before move-in or after move-out is someone else's: nothing is evaluated or sent. One
  // that is partly the tenancy's reads only its days, so it stays unknown rather than judge a neighbour's use.
  if (!withinTenancy(source, period)) return;
  const days = await dailyTotals(tx, source, period);
  const before = previousPeriod(period, rule.frequency);
  const previous =
    rule.type === 'comparison' ? { period: before, days: await dailyTotals(tx, source, before) } : undefined;
  const hours =
    rule.type === 'zero_consumption' && rule.leakRule && isWaterQuantity(rule.quantity)
      ? await leakHours(tx, source, period)
      : undefined;
  const result = evaluateAlarm(rule, { period, days, previous, hours }, now);
  const endMs = startInstant(period.end).getTime();
  if (result.state === 'pending') return again ? undefined : { retryAt: new Date(endMs) };
  if (!again && result.state === 'unknown' && now.getTime() < endMs + DATA_GRACE_MS)
    return { retryAt: new Date(Math.min(now.getTime() + RECHECK_MS, endMs + DATA_GRACE_MS)) };

  const str = (x: number | null) => (x === null ? null : String(x));
  const outcome = {
    state: result.state,
    value: str(result.value),
    reference: str(result.reference),
    reason: result.reason,
    evaluatedAt: now,
  };
  const insert = tx
    .insert(alarmEvaluations)
    .values({ alarmId, periodStart: period.start, periodEnd: period.end, ...outcome });
  const written = await (again
    ? insert.onConflictDoUpdate({
        target: [alarmEvaluations.alarmId, alarmEvaluations.periodStart],
        set: outcome,
        setWhere: sql`(${alarmEvaluations.state}, ${alarmEvaluations.value}, ${alarmEvaluations.reference},
            ${alarmEvaluations.reason}) IS DISTINCT FROM (excluded.state, excluded.value, excluded.reference,
            excluded.reason)`,
      })
    : insert.onConflictDoNothing()
  ).returning({ alarmId: alarmEvaluations.alarmId });
  if (written.length === 0) return;
  logger.info(
    { state: result.state, value: result.value, reason: result.reason, again },
    again ? 'alarm evaluated again after late data' : 'alarm evaluated',
  );
  if (result.state !== 'fired') return;
  const notified = await tx
    .insert(notifications)
    .values({
      userId: alarm.userId,
      tenancyId: alarm.tenancyId,
      kind: notificationKindOf(rule.type, result.reason),
      alarmId,
      quantity: alarm.quantity,
      periodStart: period.start,
      periodEnd: period.end,
      frequency: alarm.frequency,
      value: str(result.value),
      reference: str(result.reference),
      reason: result.reason,
      details: rule.type === 'comparison' ? { percent: rule.threshold } : null,
      key: `alarm:${alarmId}:${period.start}`,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (notified.length > 0) await queueNotificationMail(tx, alarm.userId, now);
}
