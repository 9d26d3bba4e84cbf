/** `notifications(tenancyId)`: the caller's notifications on a tenancy, newest first, with the unread count. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { notifications as notificationTable } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { parseInput } from '../../graphql/errors.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { requireTenancy } from './alarmShared.ts';
import { notificationObject } from './notificationShared.ts';

export const notifications: NonNullable<QueryResolvers['notifications']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const tenancy = await requireTenancy(ctx.db, userId, args.tenancyId);
  const { limit, offset } = parseInput(
    z.object({
      limit: z.number().int().min(1).max(200).nullish(),
      offset: z.number().int().min(0).nullish(),
    }),
    { limit: args.limit, offset: args.offset },
  );
  const mine = and(eq(notificationTable.userId, userId), eq(notificationTable.tenancyId, tenancy.id));
  const [rows, [counts]] = await Promise.all([
    ctx.db
      .select()
      .from(notificationTable)
      .where(mine)
      .orderBy(desc(notificationTable.createdAt), desc(notificationTable.id))
      .limit(limit ?? 50)
      .offset(offset ?? 0),
    ctx.db
      .select({
        total: sql<number>`count(*)::int`,
        unread: sql<number>`count(*) FILTER (WHERE ${notificationTable.readAt} IS NULL)::int`,
      })
      .from(notificationTable)
      .where(mine),
  ]);
  return {
    items: rows.map(notificationObject),
    totalCount: Number(counts?.total ?? 0),
    unreadCount: Number(counts?.unread ?? 0),
  };
};
