/** `updateAlarm`: changes one of the caller's alarms; the change applies from the next period evaluated. */
import { eq } from 'drizzle-orm';
import { alarms } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { ownAlarm } from './alarm.ts';
import { alarmObjects, parseAlarmInput, requireQuantity } from './alarmShared.ts';

export const updateAlarm: NonNullable<MutationResolvers['updateAlarm']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const { row, tenancy } = await ownAlarm(ctx.db, userId, args.tenancyId, args.id);
  const values = parseAlarmInput(args.alarm);
  await requireQuantity(ctx.db, tenancy.apartmentId, values.quantity);
  const [updated] = await ctx.db
    .update(alarms)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(alarms.id, row.id))
    .returning();
  const [object] = await alarmObjects(ctx.db, [updated!]);
  return object!;
};
