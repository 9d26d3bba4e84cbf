/** `createAlarm`: a new alarm on one of the caller's tenancies, for a quantity that tenancy measures. */
import { alarms } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { alarmObjects, parseAlarmInput, requireQuantity, requireTenancy } from './alarmShared.ts';

export const createAlarm: NonNullable<MutationResolvers['createAlarm']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const tenancy = await requireTenancy(ctx.db, userId, args.tenancyId);
  const values = parseAlarmInput(args.alarm);
  await requireQuantity(ctx.db, tenancy.apartmentId, values.quantity);
  const [row] = await ctx.db
    .insert(alarms)
    .values({ ...values, userId, tenancyId: tenancy.id })
    .returning();
  ctx.logger.info({ alarmId: row!.id }, 'alarm created');
  const [object] = await alarmObjects(ctx.db, [row!]);
  return object!;
};
