/** `markAllNotificationsRead`: marks every unread notification of the caller on a tenancy read. */

import { and, eq, isNull } from 'drizzle-orm';
import { notifications } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { systemClock } from '../../jobs/clock.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { requireTenancy } from './alarmShared.ts';

export const markAllNotificationsRead: NonNullable<MutationResolvers['markAllNotificationsRead']> = async (
  _parent,
  args,
  ctx,
) => {
  const userId = requireUserId(ctx);
  const tenancy = await requireTenancy(ctx.db, userId, args.tenancyId);
  const updated = await ctx.db
    .update(notifications)
    .set({ readAt: (ctx.services.clock ?? systemClock).now() })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.tenancyId, tenancy.id),
        isNull(notifications.readAt),
      ),
    )
    .returning({ id: notifications.id });
  return { ok: true, count: updated.length };
};
