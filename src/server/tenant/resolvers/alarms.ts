/** `alarms(tenancyId)`: the caller's alarms on one of their tenancies, newest first. */
import { and, desc, eq } from 'drizzle-orm';
import { alarms as alarmTable } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { alarmObjects, requireTenancy } from './alarmShared.ts';

export const alarms: NonNullable<QueryResolvers['alarms']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const tenancy = await requireTenancy(ctx.db, userId, args.tenancyId);
  const rows = await ctx.db
    .select()
    .from(alarmTable)
    .where(and(eq(alarmTable.userId, userId), eq(alarmTable.tenancyId, tenancy.id)))
    .orderBy(desc(alarmTable.createdAt), desc(alarmTable.id));
  return alarmObjects(ctx.db, rows);
};
