/** `markNotificationRead`: marks one of the caller's notifications read, or unread again. */

import { eq } from 'drizzle-orm';
import { notifications } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { systemClock } from '../../jobs/clock.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { notificationObject, ownNotification } from './notificationShared.ts';

export const markNotificationRead: NonNullable<MutationResolvers['markNotificationRead']> = async (
  _parent,
  args,
  ctx,
) => {
  const userId = requireUserId(ctx);
  const row = await ownNotification(ctx.db, userId, args.tenancyId, args.id);
  const read = args.read ?? true;
  // Keep the first read time when it is marked read again.
  const readAt = read ? (row.readAt ?? (ctx.services.clock ?? systemClock).now()) : null;
  const [updated] = await ctx.db
    .update(notifications)
    .set({ readAt })
    .where(eq(notifications.id, row.id))
    .returning();
  return notificationObject(updated!);
};
