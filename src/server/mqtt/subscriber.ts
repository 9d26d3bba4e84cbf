/**
 * The MQTT door (MQTT_URL): subscribes to wmbusmeters' telegrams with QoS 1 on a persistent session (a stable
 * client id and clean: false), so the broker keeps what arrives while we are away. Telegrams that arrive together
 * are committed to the inbox (inbox.ts) in one statement, and each is acknowledged only after that commit; a drain
 * loop ingests the inbox in batches.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import type { Db } from '../db/client.ts';
import { getMetrics } from '../metrics.ts';
import { DRAIN_BATCH, type DrainResult, drain, receiveMany } from './inbox.ts';
import { HELD_MESSAGE, logFeedOrganisation, mqttMeterScope } from './owner.ts';
import { type FeedState, reportFeed } from './status.ts';

/**
 * How long after a batch of telegrams is stored the drain starts: telegrams that keep coming pile up meanwhile,
 * so one ingestion transaction takes many of them.
 */
const DRAIN_DELAY_MS = 200;

/**
 * How often the subscriber drains when no telegram comes: a radio id given to a meter since its telegrams were
 * listed as unknown gets its latest telegram taken in (inbox.ts, requeueClaimedRadioIds) within this time.
 */
const RECHECK_MS = 30_000;

export interface MqttSettings {
  url: string;
  topic: string;
  clientId: string;
  /** RECHECK_MS unless given (tests). */
  recheckMs?: number;
  /** MQTT_ORGANISATION: whose meters the telegrams reach (owner.ts, mqttMeterScope). */
  organisation?: string;
}

export interface MqttSubscriber {
  /** Resolves once the broker has accepted the subscription. */
  ready: Promise<void>;
  /** Drains what is stored now (for tests and shutdown); resolves with the last drain's result. */
  flush(): Promise<void>;
  /** Disconnects (unacknowledged telegrams stay with the broker) and stops the drain loop. */
  stop(): Promise<void>;
}

let telegramCounter: Counter<'result'> | undefined;
/** `mqtt_telegrams_total{result}`: received, accepted, duplicate, quarantined, unknown_id, malformed, no_value, refused. */
function telegrams(): Counter<'result'> {
  telegramCounter ??= new Counter({
    name: 'mqtt_telegrams_total',
    help: 'MQTT telegrams by outcome: received (stored), then accepted, duplicate, quarantined, unknown_id, malformed, no_value or refused',
    labelNames: ['result'] as const,
    registers: [getMetrics().registry],
  });
  return telegramCounter;
}

let connectedGauge: Gauge | undefined;
/** `mqtt_connected`: 1 while the subscriber is connected to the broker, 0 otherwise. */
function connectedMetric(): Gauge {
  connectedGauge ??= new Gauge({
    name: 'mqtt_connected',
    help: 'Whether the MQTT subscriber is connected to its broker (1) or not (0)',
    registers: [getMetrics().registry],
  });
  return connectedGauge;
}

/** The subscriber's metrics, registered on first use (a process without a subscriber has neither). */
export function mqttMetrics(): { telegrams: Counter<'result'>; connected: Gauge } {
  return { telegrams: telegrams(), connected: connectedMetric() };
}

function count(result: DrainResult): void {
  const counter = telegrams();
  counter.inc({ result: 'accepted' }, result.accepted);
  counter.inc({ result: 'duplicate' }, result.duplicate);
  counter.inc({ result: 'quarantined' }, result.quarantined);
  for (const [reason, n] of Object.entries(result.unmatched)) counter.inc({ result: reason }, n);
}

/** Connects and subscribes; telegrams flow into the database until stop(). */
export function startMqttSubscriber(db: Db, logger: Logger, settings: MqttSettings): MqttSubscriber {
  const log = logger.child({ component: 'mqtt' });
  let draining: Promise<void> = Promise.resolve();
  let wanted = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  // What the console shows of the feed (status.ts): written when the connection comes or goes, on a new broker
  // error, and after each drain (at least every recheck), one report after the other.
  const state: FeedState = {
    clientId: settings.clientId,
    url: redact(settings.url),
    topic: settings.topic,
    connected: false,
    since: new Date(),
    lastError: null,
    lastTelegramAt: null,
  };
  let reported: Promise<void> = Promise.resolve();
  const report = (change: Partial<FeedState> = {}): Promise<void> => {
    Object.assign(state, change);
    connectedMetric().set(state.connected ? 1 : 0);
    const snapshot = { ...state };
    reported = reported
      .then(async () => {
        const retired = await reportFeed(db, snapshot);
        if (retired.length > 0)
          log.info(
            { retired },
            'mqtt: took over the status of client ids on the same broker and topic that stopped reporting',
          );
      })
      .catch((err: unknown) => log.warn({ err }, 'mqtt: could not record the feed’s status'));
    return reported;
  };

  /** One drain loop at a time: drains until the inbox is empty, then waits for the next telegram. */
  let heldLogged = false;
  const drainAll = async () => {
    // Looked up at each drain: an organisation made after the start (the first one, or the one named) counts.
    const scope = await mqttMeterScope(db, settings.organisation);
    if (scope === 'held') {
      if (!heldLogged) log.error({ MQTT_ORGANISATION: settings.organisation }, HELD_MESSAGE);
      heldLogged = true;
      await report();
      return;
    }
    heldLogged = false;
    for (;;) {
      const result = await drain(db, DRAIN_BATCH, scope);
      if (result.telegrams > 0) {
        count(result);
        const unmatched = Object.values(result.unmatched).reduce((a, b) => a + b, 0);
        log.info({ ...result, unmatched }, 'mqtt telegrams ingested');
      }
      if (result.telegrams < DRAIN_BATCH) break;
    }
    await report();
  };
  const scheduleDrain = (delayMs: number) => {
    wanted = true;
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      wanted = false;
      draining = draining
        .then(drainAll)
        .catch((err: unknown) => {
          // Left in the inbox: the next drain takes them again.
          log.error({ err }, 'mqtt drain failed; retrying in 5 s');
          scheduleDrain(5_000);
        })
        .finally(() => {
          if (wanted) scheduleDrain(50);
        });
    }, delayMs);
  };

  const client: MqttClient = mqtt.connect(settings.url, {
    clientId: settings.clientId,
    clean: false,
    reconnectPeriod: 2_000,
    connectTimeout: 10_000,
  });

  // Acknowledge a telegram only once it is stored, and store the telegrams that arrive together in one statement.
  // mqtt.js hands over one telegram at a time and sends its PUBACK when handleMessage calls back; it takes the
  // next one only after that. So handleMessage calls back at once, and the PUBACK it then sends is held here
  // (sendPacket below) until the batch holding the telegram is committed. Until then the broker keeps the
  // telegram for a redelivery (a crash, a reconnect); it sends at most its in-flight limit unacknowledged
  // (mosquitto: 20), which bounds a batch. A PUBACK held for a connection that has since gone is dropped: the
  // broker sends the telegram again on the new one, and it is ingested as a duplicate.
  type Held = { packet: { cmd: string; messageId?: number }; stream: unknown };
  const awaiting = new Set<number>();
  let held: Held[] = [];
  let buffer: { topic: string; payload: string; messageId?: number }[] = [];
  let writing: Promise<void> | null = null;
  const internals = client as unknown as {
    _sendPacket: (packet: Held['packet'], cb?: (err?: Error) => void, ...rest: unknown[]) => void;
    stream: unknown;
  };
  const sendPacket = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, cb, ...rest) => {
    if (packet.cmd === 'puback' && packet.messageId !== undefined && awaiting.has(packet.messageId)) {
      held.push({ packet, stream: internals.stream });
      cb?.();
      return;
    }
    sendPacket(packet, cb, ...rest);
  };
  const release = (ids: (number | undefined)[]) => {
    const mine = new Set(ids.filter((id): id is number => id !== undefined));
    for (const id of mine) awaiting.delete(id);
    const now = held.filter((h) => mine.has(h.packet.messageId!));
    held = held.filter((h) => !mine.has(h.packet.messageId!));
    return now;
  };
  const write = async (): Promise<void> => {
    while (buffer.length > 0) {
      const batch = buffer;
      buffer = [];
      try {
        await receiveMany(db, batch);
      } catch (err) {
        log.error({ err }, 'mqtt telegrams could not be stored; not acknowledged, reconnecting');
        // No acknowledgement: the broker redelivers them on the next connection.
        release(batch.map((t) => t.messageId));
        client.end(true, {}, () => {
          if (!stopped) setTimeout(() => client.reconnect(), 2_000);
        });
        continue;
      }
      telegrams().inc({ result: 'received' }, batch.length);
      state.lastTelegramAt = new Date();
      for (const h of release(batch.map((t) => t.messageId))) {
        if (h.stream === internals.stream && client.connected) sendPacket(h.packet);
      }
      scheduleDrain(DRAIN_DELAY_MS);
    }
  };
  client.handleMessage = (packet, callback) => {
    if (packet.cmd !== 'publish') {
      callback();
      return;
    }
    const payload = typeof packet.payload === 'string' ? packet.payload : packet.payload.toString('utf8');
    // QoS 0 has no acknowledgement to hold (wmbusmeters may publish so); it is stored all the same.
    if (packet.qos > 0 && packet.messageId !== undefined) awaiting.add(packet.messageId);
    buffer.push({ topic: packet.topic, payload, messageId: packet.qos > 0 ? packet.messageId : undefined });
    writing ??= write().finally(() => {
      writing = null;
    });
    callback();
  };

  const ready = new Promise<void>((resolve, reject) => {
    client.on('connect', (connack) => {
      log.info({ url: redact(settings.url), sessionPresent: connack.sessionPresent }, 'mqtt connected');
      void report({ connected: true, since: new Date(), lastError: null });
      client.subscribe(settings.topic, { qos: 1 }, (err) => {
        if (err) {
          log.error({ err, topic: settings.topic }, 'mqtt subscribe failed');
          reject(err);
        } else resolve();
      });
    });
  });
  ready.catch(() => {});
  client.on('error', (err) => {
    log.error({ err }, 'mqtt error');
    // Each failed reconnect repeats the error: recorded when it changes.
    if (err.message !== state.lastError) void report({ lastError: err.message });
  });
  client.on('offline', () => log.warn('mqtt offline; reconnecting'));
  client.on('close', () => {
    if (state.connected && !stopped) void report({ connected: false, since: new Date() });
  });
  // Whatever an earlier run stored and did not ingest yet.
  scheduleDrain(0);
  // Radio ids claimed since, even when no telegram comes.
  const recheck = setInterval(() => scheduleDrain(0), settings.recheckMs ?? RECHECK_MS);
  recheck.unref();

  return {
    ready,
    async flush() {
      draining = draining.then(drainAll);
      await draining;
    },
    async stop() {
      stopped = true;
      clearInterval(recheck);
      if (timer) clearTimeout(timer);
      // What was received is committed and acknowledged before the connection closes.
      await writing?.catch(() => {});
      await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
      await draining.catch(() => {});
      await report({ connected: false, since: new Date() });
    },
  };
}

/** The URL without its password, for logs. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'mqtt://?';
  }
}

/** Starts the subscriber when MQTT_URL is set (the process that runs jobs calls this); returns stop(). */
export function startMqttIfConfigured(
  db: Db,
  logger: Logger,
  config: { MQTT_URL?: string; MQTT_TOPIC: string; MQTT_CLIENT_ID: string; MQTT_ORGANISATION?: string },
): () => Promise<void> {
  if (!config.MQTT_URL) return async () => {};
  logFeedOrganisation(db, logger, config.MQTT_ORGANISATION).catch((err: unknown) =>
    logger.warn({ err }, 'mqtt: could not check MQTT_ORGANISATION'),
  );
  const subscriber = startMqttSubscriber(db, logger, {
    url: config.MQTT_URL,
    topic: config.MQTT_TOPIC,
    clientId: config.MQTT_CLIENT_ID,
    organisation: config.MQTT_ORGANISATION,
  });
  return () => subscriber.stop();
}
