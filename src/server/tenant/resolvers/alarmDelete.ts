/** `deleteAlarm`: removes one of the caller's alarms with its history; its notifications stay. */
import { eq } from 'drizzle-orm';
import { alarms } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { ownAlarm } from './alarm.ts';

export const deleteAlarm: NonNullable<MutationResolvers['deleteAlarm']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const { row } = await ownAlarm(ctx.db, userId, args.tenancyId, args.id);
  await ctx.db.delete(alarms).where(eq(alarms.id, row.id));
  ctx.logger.info({ alarmId: row.id }, 'alarm deleted');
  return { ok: true };
};
