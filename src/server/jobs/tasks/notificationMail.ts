/** Mails a user's new notifications as one mail: the notification itself, or a summary when there are several. */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';
import { notificationMail } from '../messages.ts';
import { enqueue } from '../queue.ts';
import { defineTask } from '../task.ts';
import { appUrl, queueMail } from './sendMail.ts';

export const notificationMailTask = defineTask({
  name: 'notification-mail',
  payload: z.object({ userId: z.number().int().positive(), bucket: z.string().min(1) }),
  key: (p) => ({ subject: `user:${p.userId}`, period: p.bucket }),
  async run({ tx, now, logger }, { userId }) {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) return;
    const pending = await tx
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.mailedAt)))
      .orderBy(asc(notifications.createdAt), asc(notifications.id))
      .for('update');
    if (pending.length === 0) return;
    await tx
      .update(notifications)
      .set({ mailedAt: now })
      .where(
        inArray(
          notifications.id,
          pending.map((n) => n.id),
        ),
      );
    if (!user.emailNotifications || !user.isActive) {
      logger.info({ count: pending.length }, 'no mail: the user has email notifications off');
      return;
    }
    const tenancyIds = [...new Set(pending.map((n) => n.tenancyId))];
    const base = appUrl();
    const url = base && (tenancyIds.length === 1 ? `${base}/t/${tenancyIds[0]}/notifications` : base);
    await queueMail(tx, user.email, notificationMail(user, pending, url, base), now);
  },
});

/** Queues the mail step for a user's new notifications; notifications made within the same hour share one mail. */
export async function queueNotificationMail(tx: Db, userId: number, now: Date): Promise<void> {
  const bucket = now.toISOString().slice(0, 13);
  await enqueue(tx, notificationMailTask, { userId, bucket }, new Date(now.getTime() + 60_000));
}
