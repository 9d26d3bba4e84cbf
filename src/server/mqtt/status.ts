/**
 * The MQTT feed's status, as its subscriber reports it to the database (`mqtt_feed`, migration 0026), for the
 * console of the feed's organisation: the subscriber often runs in another process (the worker) than the console.
 * The subscriber reports when it connects or loses the connection, on a broker error, and after each drain, which
 * runs at least every 30 s; a report older than REPORT_STALE_MS means no subscriber runs. The telegrams waiting in
 * the inbox are counted when the console asks.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { mqttFeed } from '../db/schema.ts';
import { iso, queryRows } from '../db/sql.ts';

/** A subscriber that has not reported for this long (four of its 30 s rechecks) is shown as not running. */
export const REPORT_STALE_MS = 2 * 60_000;

/** What a subscriber knows of itself; written whole at each report. */
export interface FeedState {
  clientId: string;
  url: string;
  topic: string;
  connected: boolean;
  since: Date;
  lastError: string | null;
  lastTelegramAt: Date | null;
}

/**
 * Writes the subscriber's state, and the report's time (the database's clock, as the console reads it). A connected
 * subscriber also retires the rows of other client ids on the same broker and topic that stopped reporting
 * (REPORT_STALE_MS): the same feed under a changed MQTT_CLIENT_ID. Their last telegram's time and an outage
 * already told (`alerted_at`, so the feed check tells its end) carry over. Returns the client ids retired.
 */
export async function reportFeed(db: Db, state: FeedState): Promise<string[]> {
  const { clientId, ...rest } = state;
  await upsertFeed(db, clientId, rest);
  if (!state.connected) return [];
  const retired = await queryRows<{ client_id: string }>(
    db,
    sql`WITH retired AS (
          DELETE FROM mqtt_feed
           WHERE client_id <> ${clientId} AND url = ${state.url} AND topic = ${state.topic}
             AND reported_at <= now() - make_interval(secs => ${REPORT_STALE_MS / 1000})
          RETURNING client_id, last_telegram_at, alerted_at),
        carried AS (
          UPDATE mqtt_feed
             SET last_telegram_at = greatest(mqtt_feed.last_telegram_at, (SELECT max(last_telegram_at) FROM retired)),
                 alerted_at = coalesce(mqtt_feed.alerted_at, (SELECT min(alerted_at) FROM retired))
           WHERE client_id = ${clientId} AND EXISTS (SELECT 1 FROM retired))
        SELECT client_id FROM retired ORDER BY client_id`,
  );
  return retired.map((r) => r.client_id);
}

async function upsertFeed(db: Db, clientId: string, rest: Omit<FeedState, 'clientId'>): Promise<void> {
  await db
    .insert(mqttFeed)
    .values({ clientId, ...rest, reportedAt: sql`now()` })
    .onConflictDoUpdate({
      target: mqttFeed.clientId,
      set: {
        ...rest,
        // A restarted subscriber has stored none yet: the last one before it stays.
        lastTelegramAt: sql`greatest(${mqttFeed.lastTelegramAt}, excluded.last_telegram_at)`,
        reportedAt: sql`now()`,
      },
    });
}

/** One subscriber as the console shows it. */
interface FeedSubscriber {
  clientId: string;
  url: string;
  topic: string;
  connected: boolean;
  since: string;
  lastError: string | null;
  lastTelegramAt: string | null;
  reportedAt: string;
  /** Reported within REPORT_STALE_MS: the subscriber runs. */
  running: boolean;
}

/** The feed: its subscribers, and what waits in the inbox. Null when no subscriber ever reported and none waits. */
export interface FeedStatus {
  subscribers: FeedSubscriber[];
  waiting: number;
  oldestWaitingAt: string | null;
}

export async function feedStatus(db: Db): Promise<FeedStatus | null> {
  const rows = await queryRows<{
    client_id: string;
    url: string;
    topic: string;
    connected: boolean;
    since: string | Date;
    last_error: string | null;
    last_telegram_at: string | Date | null;
    reported_at: string | Date;
    running: boolean;
  }>(
    db,
    sql`SELECT client_id, url, topic, connected, since, last_error, last_telegram_at, reported_at,
               reported_at > now() - make_interval(secs => ${REPORT_STALE_MS / 1000}) AS running
          FROM mqtt_feed ORDER BY client_id`,
  );
  const [inbox] = await queryRows<{ n: number; oldest: string | Date | null }>(
    db,
    sql`SELECT count(*)::int AS n, min(received_at) AS oldest FROM mqtt_inbox`,
  );
  const waiting = Number(inbox?.n ?? 0);
  if (rows.length === 0 && waiting === 0) return null;
  return {
    subscribers: rows.map((r) => ({
      clientId: r.client_id,
      url: r.url,
      topic: r.topic,
      connected: r.connected,
      since: iso(r.since)!,
      lastError: r.last_error,
      lastTelegramAt: iso(r.last_telegram_at),
      reportedAt: iso(r.reported_at)!,
      running: r.running,
    })),
    waiting,
    oldestWaitingAt: iso(inbox?.oldest ?? null),
  };
}
