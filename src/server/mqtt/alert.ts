/**
 * The feed check: every 5 minutes (while any MQTT subscriber has reported), the worker looks at the feed's state
 * (`mqtt_feed`, status.ts). A subscriber not connected, or not reporting, for FEED_DOWN_MINUTES gets one mail to
 * each admin of the organisation that runs the feed (owner.ts) in their language, and `alerted_at` is set; once it
 * is connected and reporting again, one more mail says so and `alerted_at` is cleared. So an outage is told once,
 * however long it lasts, and a blip shorter than the limit is not told at all.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { mqttFeed, operatorRoles, users } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { type FeedAlert, feedAlertMail } from '../jobs/messages.ts';
import { defineTask } from '../jobs/task.ts';
import { appUrl, queueMail } from '../jobs/tasks/sendMail.ts';
import { mqttFeedOrganisation } from './owner.ts';
import { REPORT_STALE_MS } from './status.ts';

/** How long a subscriber is down (not connected, or not reporting) before its organisation's admins are told. */
const FEED_DOWN_MINUTES = 15;

/** Mails each active admin of the organisation; returns how many. */
async function mailAdmins(tx: Db, organisation: number, feed: FeedAlert, up: boolean, now: Date) {
  const admins = await tx
    .select({ email: users.email, name: users.name, language: users.language })
    .from(operatorRoles)
    .innerJoin(users, eq(users.id, operatorRoles.userId))
    .where(
      and(
        eq(operatorRoles.accountId, organisation),
        eq(operatorRoles.role, 'org_admin'),
        eq(users.isActive, true),
      ),
    );
  const base = appUrl();
  const url = base && `${base}/admin/data-quality`;
  for (const admin of admins) {
    await queueMail(tx, admin.email, feedAlertMail(admin, feed, up, url), now);
  }
  return admins.length;
}

/** Checks every subscriber's state; mails the feed organisation's admins when one went down or came back. */
async function checkFeed(
  tx: Db,
  now: Date,
  setting: string | undefined,
): Promise<{ down: number; up: number; mailed: number }> {
  const rows = await queryRows<{
    client_id: string;
    url: string;
    connected: boolean;
    since: string | Date;
    last_error: string | null;
    reported_at: string | Date;
    alerted_at: string | Date | null;
  }>(
    tx,
    sql`SELECT client_id, url, connected, since, last_error, reported_at, alerted_at FROM mqtt_feed
        ORDER BY client_id FOR UPDATE`,
  );
  const result = { down: 0, up: 0, mailed: 0 };
  if (rows.length === 0) return result;
  const organisation = await mqttFeedOrganisation(tx, setting);
  for (const r of rows) {
    const reportedAt = new Date(r.reported_at);
    const running = now.getTime() - reportedAt.getTime() < REPORT_STALE_MS;
    const feed: FeedAlert = {
      clientId: r.client_id,
      url: r.url,
      since: running ? new Date(r.since) : reportedAt,
      running,
      lastError: r.last_error,
    };
    const isDown = !running || !r.connected;
    const downLongEnough = isDown && now.getTime() - feed.since.getTime() >= FEED_DOWN_MINUTES * 60_000;
    if (downLongEnough && r.alerted_at === null) {
      result.down++;
      if (organisation !== null) result.mailed += await mailAdmins(tx, organisation, feed, false, now);
      await tx.update(mqttFeed).set({ alertedAt: now }).where(eq(mqttFeed.clientId, r.client_id));
    } else if (!isDown && r.alerted_at !== null) {
      result.up++;
      if (organisation !== null) result.mailed += await mailAdmins(tx, organisation, feed, true, now);
      await tx.update(mqttFeed).set({ alertedAt: null }).where(eq(mqttFeed.clientId, r.client_id));
    }
  }
  return result;
}

export const feedCheckTask = defineTask({
  name: 'mqtt-feed-check',
  payload: z.object({
    /** The UTC 5-minute slot the check is for, ISO 8601. */
    slot: z.string(),
    /** MQTT_ORGANISATION: whose admins are told. */
    organisation: z.string().optional(),
  }),
  key: (p) => ({ subject: 'mqtt-feed', period: p.slot }),
  async run({ tx, now, logger }, { organisation }) {
    const result = await checkFeed(tx, now, organisation);
    if (result.down + result.up > 0) logger.info(result, 'mqtt feed check: admins told');
  },
});
