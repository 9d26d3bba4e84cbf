/**
 * `createAlarm`: a new alarm on one of the caller's tenancies, for a quantity that tenancy measures. An enabled
 * alarm's latest complete period is queued for evaluation at once, under the schedule's own key (so the
 * minute's schedule finds it queued and adds nothing): the tenant learns within one poll of the worker whether
 * it would have fired, instead of waiting for the next schedule run.
 */
import { alarms } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { latestCompletePeriod } from '../../jobs/alarmPeriods.ts';
import { systemClock } from '../../jobs/clock.ts';
import { enqueue } from '../../jobs/queue.ts';
import { evaluateAlarmTask } from '../../jobs/tasks/evaluateAlarm.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { alarmObjects, parseAlarmInput, requireQuantity, requireTenancy } from './alarmShared.ts';

export const createAlarm: NonNullable<MutationResolvers['createAlarm']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const tenancy = await requireTenancy(ctx.db, userId, args.tenancyId);
  const values = parseAlarmInput(args.alarm);
  await requireQuantity(ctx.db, tenancy.apartmentId, values.quantity);
  const now = (ctx.services.clock ?? systemClock).now();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(alarms)
      .values({ ...values, userId, tenancyId: tenancy.id })
      .returning();
    if (created!.enabled) {
      const { start } = latestCompletePeriod(now, created!.frequency);
      await enqueue(tx, evaluateAlarmTask, { alarmId: created!.id, periodStart: start }, now);
    }
    return created!;
  });
  ctx.logger.info({ alarmId: row.id }, 'alarm created');
  const [object] = await alarmObjects(ctx.db, [row]);
  return object!;
};
