/**
 * The MQTT door against a real broker (mosquitto): wmbusmeters telegrams become readings through the one
 * ingestion path; telegrams that give no reading are counted by radio id and reason; nothing is lost when the app
 * stops while telegrams flow, nor when the broker restarts.
 */
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters, mqttFeed, properties } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { runMqttCommand } from '../../src/server/mqtt/cli.ts';
import { drain, listUnmatched, receive } from '../../src/server/mqtt/inbox.ts';
import { HELD_MESSAGE } from '../../src/server/mqtt/owner.ts';
import { feedStatus, reportFeed } from '../../src/server/mqtt/status.ts';
import { type MqttSubscriber, startMqttSubscriber } from '../../src/server/mqtt/subscriber.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Broker, hasMosquitto, startBroker } from './helpers/mosquitto.ts';
import { testProperty } from './helpers/property.ts';

const logger = pino({ level: 'silent' });
let database: Database;
let db: Db;
let broker: Broker;
let place: { propertyId: number; apartmentId: number };

/** A fresh database with one property and one apartment. */
async function setUp(): Promise<void> {
  database = await freshDatabase();
  db = database.db;
  const { propertyId, apartmentIds } = await testProperty(db, [{ uniqueId: 'A1', areaM2: '60' }]);
  place = { propertyId, apartmentId: apartmentIds[0]! };
}

/** A heat meter with a radio id (in `place`'s flat unless `at` is given); returns its meter id. */
async function radioMeter(
  number: string,
  radioId: string,
  quantity = 'heat-energy',
  at: { propertyId: number; apartmentId: number } = place,
): Promise<number> {
  const [p] = await db
    .insert(measurementPoints)
    .values({
      propertyId: at.propertyId,
      apartmentId: at.apartmentId,
      quantity,
      unit: 'kilo-watt-hour',
      name: quantity,
      readingKind: 'register',
    })
    .returning();
  const [m] = await db
    .insert(meters)
    .values({
      measurementPointId: p!.id,
      number,
      legacyKind: 'energy',
      installedAt: new Date('2024-01-01T00:00:00Z'),
      radioId,
    })
    .returning();
  return m!.id;
}

/** A second organisation with a property and a flat (testProperty makes an organisation per property). */
async function otherOrganisation(number: string): Promise<{ propertyId: number; apartmentId: number }> {
  const { propertyId, apartmentIds } = await testProperty(
    db,
    [{ uniqueId: `${number}-1`, areaM2: '50' }],
    number,
  );
  return { propertyId, apartmentId: apartmentIds[0]! };
}

/** The organisation (accounts row) of a property. */
async function organisationOf(propertyId: number): Promise<number> {
  const [row] = await db.select().from(properties).where(eq(properties.id, propertyId));
  return row!.accountId;
}

async function inboxCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mqtt_inbox`);
  return row!.n;
}

/** wmbusmeters' JSON for a heat meter (multical603) at hour `i` of 2025-03-01, the register rising 0.5 kWh/h. */
function heatTelegram(radioId: string, i: number): string {
  const ts = new Date(Date.UTC(2025, 2, 1, i)).toISOString().replace('.000Z', 'Z');
  return JSON.stringify({
    _: 'telegram',
    media: 'heat',
    meter: 'multical603',
    name: 'flat',
    id: radioId,
    total_energy_consumption_kwh: 1000 + i * 0.5,
    total_volume_m3: 12.5,
    flow_temperature_c: 60,
    return_temperature_c: 30,
    timestamp: ts,
  });
}

async function readingCount(meterId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM register_readings WHERE meter_id = ${meterId}`,
  );
  return row!.n;
}

/** A publisher as wmbusmeters' MQTT client would be (QoS 1); resolves when the broker has every message. */
async function publish(url: string, topic: string, payloads: string[]): Promise<void> {
  const client = await mqtt.connectAsync(url, {
    clientId: `publisher-${Math.random().toString(36).slice(2)}`,
  });
  for (const payload of payloads) await client.publishAsync(topic, payload, { qos: 1 });
  await client.endAsync();
}

/** Waits until `check` holds (the subscriber works in the background), or fails after a long while. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 150_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('telegrams in the inbox (no broker)', () => {
  beforeAll(setUp);
  afterAll(async () => {
    await database?.close();
  });

  it('ingests known ids, and counts unknown ids, malformed telegrams, missing values and refusals', async () => {
    const meterId = await radioMeter('H-100', '11110001');
    await radioMeter('W-100', '11110002', 'cold-water-volume');
    await receive(db, 'wmbusmeters/flat', heatTelegram('11110001', 0));
    await receive(db, 'wmbusmeters/flat', heatTelegram('11110001', 1));
    await receive(db, 'wmbusmeters/flat', heatTelegram('11110001', 1)); // the same telegram twice
    await receive(db, 'wmbusmeters/other', heatTelegram('99999999', 0));
    await receive(db, 'wmbusmeters/other', '{not json');
    await receive(
      db,
      'wmbusmeters/other',
      JSON.stringify({ id: '11110001', total_energy_consumption_kwh: 1 }),
    );
    // A water meter's telegram carries no total_m3 here.
    await receive(db, 'wmbusmeters/flat', heatTelegram('11110002', 0));
    // Negative register: refused by the ingestion's validation.
    await receive(
      db,
      'wmbusmeters/flat',
      JSON.stringify({ id: '11110001', total_energy_consumption_kwh: -5, timestamp: '2025-03-01T05:00:00Z' }),
    );
    const result = await drain(db);
    expect(result).toMatchObject({
      telegrams: 8,
      accepted: 2,
      duplicate: 1,
      unmatched: { unknown_id: 1, malformed: 2, no_value: 1, refused: 1 },
    });
    expect(await readingCount(meterId)).toBe(2);
    const [hour] = await queryRows<{ value: string }>(
      db,
      sql`SELECT h.value::text FROM hourly_consumption h JOIN meters m ON m.measurement_point_id = h.measurement_point_id
            WHERE m.id = ${meterId} AND h.hour_start = '2025-03-01T00:00:00Z'`,
    );
    expect(Number(hour?.value)).toBeCloseTo(0.5, 6);
    const unmatched = await listUnmatched(db);
    expect(unmatched.map((u) => [u.radio_id, u.reason, u.telegrams]).sort()).toEqual(
      [
        ['-', 'malformed', 1],
        ['11110001', 'malformed', 1],
        ['11110001', 'refused', 1],
        ['11110002', 'no_value', 1],
        ['99999999', 'unknown_id', 1],
      ].sort(),
    );
    expect(unmatched.find((u) => u.reason === 'unknown_id')?.driver).toBe('multical603');
    // Handled telegrams leave the inbox; a second drain finds nothing.
    expect((await drain(db)).telegrams).toBe(0);
    // The same unknown id again is counted on the same line.
    await receive(db, 'wmbusmeters/other', heatTelegram('99999999', 1));
    await drain(db);
    expect((await listUnmatched(db)).find((u) => u.radio_id === '99999999')?.telegrams).toBe(2);
  });

  it("records the latest untaken telegram's detail as a code with params beside the English text", async () => {
    await radioMeter('H-120', '11120001');
    await radioMeter('W-120', '11120002', 'cold-water-volume');
    await receive(db, 'wmbusmeters/flat', heatTelegram('11120002', 0));
    await receive(
      db,
      'wmbusmeters/flat',
      JSON.stringify({ id: '11120001', total_energy_consumption_kwh: 1, timestamp: '2099-01-01T00:00:00Z' }),
    );
    await receive(
      db,
      'wmbusmeters/flat',
      JSON.stringify({ id: '11120001', total_energy_consumption_kwh: 1 }),
    );
    await receive(db, 'wmbusmeters/flat', heatTelegram('11129999', 0));
    await drain(db);
    const rows = await queryRows<{
      radio_id: string;
      reason: string;
      last_detail: string;
      last_code: string | null;
      last_params: unknown;
    }>(
      db,
      sql`SELECT radio_id, reason, last_detail, last_code, last_params FROM mqtt_unmatched
          WHERE radio_id LIKE '1112%' ORDER BY radio_id, reason`,
    );
    expect(rows).toEqual([
      {
        radio_id: '11120001',
        reason: 'malformed',
        last_detail: 'no "timestamp" with a UTC offset',
        last_code: 'malformed',
        last_params: { message: 'no "timestamp" with a UTC offset' },
      },
      {
        radio_id: '11120001',
        reason: 'refused',
        last_detail: 'timestamp 2099-01-01T00:00:00Z is more than one hour in the future',
        last_code: 'timestamp_in_future',
        last_params: { timestamp: '2099-01-01T00:00:00Z' },
      },
      {
        radio_id: '11120002',
        reason: 'no_value',
        last_detail: 'meter W-120 (cold-water-volume) is read from total_m3',
        last_code: 'no_value',
        last_params: { meter: 'W-120', quantity: 'cold-water-volume', fields: ['total_m3'] },
      },
      {
        radio_id: '11129999',
        reason: 'unknown_id',
        last_detail: 'no meter has this radio id',
        last_code: null,
        last_params: null,
      },
    ]);
  });

  it('an unknown radio id given to a meter later: its latest telegram is taken in, and it leaves the list', async () => {
    const meterId = await radioMeter('H-110', '11110099');
    for (const i of [3, 5]) await receive(db, 'wmbusmeters/flat', heatTelegram('11119999', i));
    await drain(db);
    expect((await listUnmatched(db)).find((u) => u.radio_id === '11119999')?.telegrams).toBe(2);
    // Nothing changes while no meter has the id.
    expect((await drain(db)).telegrams).toBe(0);
    expect(await readingCount(meterId)).toBe(0);
    await db.update(meters).set({ radioId: '11119999' }).where(eq(meters.id, meterId));
    const result = await drain(db);
    expect(result).toMatchObject({ telegrams: 1, accepted: 1 });
    expect((await listUnmatched(db)).some((u) => u.radio_id === '11119999')).toBe(false);
    // The latest one (hour 5), as sent.
    const [reading] = await queryRows<{ ts: string; value: string }>(
      db,
      sql`SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS ts, value::text FROM register_readings
          WHERE meter_id = ${meterId}`,
    );
    expect(reading).toEqual({ ts: '2025-03-01T05:00', value: '1002.5' });
    expect((await drain(db)).telegrams).toBe(0);
  });

  it('npm run cli -- mqtt status: the subscribers as they reported, and the backlog', async () => {
    const printed = async (args: string[]) => {
      const lines: string[] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
      try {
        expect(await runMqttCommand(db, args)).toBe(true);
      } finally {
        spy.mockRestore();
      }
      return lines.join('\n');
    };
    expect(await printed(['status'])).toContain('No MQTT subscriber has reported');
    await reportFeed(db, {
      clientId: 'cli-test',
      url: 'mqtt://broker:1883',
      topic: 'wmbusmeters/#',
      connected: false,
      since: new Date('2026-11-28T10:00:00Z'),
      lastError: 'connect ECONNREFUSED',
      lastTelegramAt: null,
    });
    await receive(db, 'wmbusmeters/flat', heatTelegram('11110001', 40));
    const out = await printed(['status']);
    expect(out).toContain(
      'cli-test\tmqtt://broker:1883\twmbusmeters/#\tnot connected since 2026-11-28T10:00:00.000Z',
    );
    expect(out).toContain("broker's latest error: connect ECONNREFUSED");
    expect(out).toContain('last telegram stored: none yet');
    expect(out).toMatch(/1 telegram\(s\) waiting to be taken in, the oldest stored 20\d\d-/);
    expect(await runMqttCommand(db, ['nonsense'])).toBe(false);
    await drain(db);
    await db.delete(mqttFeed);
  });

  it("a feed of one organisation reaches only its meters; another organisation's radio id is unknown to it", async () => {
    const ours = await radioMeter('H-130', '11130001');
    const other = await otherOrganisation('P-130');
    const theirs = await radioMeter('H-131', '11130002', 'heat-energy', other);
    const [orgA, orgB] = [await organisationOf(place.propertyId), await organisationOf(other.propertyId)];
    for (const id of ['11130001', '11130002']) await receive(db, 'wmbusmeters/flat', heatTelegram(id, 1));
    expect(await drain(db, 1000, orgA)).toMatchObject({
      telegrams: 2,
      accepted: 1,
      unmatched: { unknown_id: 1 },
    });
    expect([await readingCount(ours), await readingCount(theirs)]).toEqual([1, 0]);
    expect((await listUnmatched(db)).find((u) => u.radio_id === '11130002')).toMatchObject({
      reason: 'unknown_id',
      last_detail: `no meter of the feed's organisation (${orgA}) has this radio id`,
    });
    // Claimed by a meter, but not one of this feed's: not put back, so the id stays listed and nothing loops.
    expect((await drain(db, 1000, orgA)).telegrams).toBe(0);
    expect((await listUnmatched(db)).some((u) => u.radio_id === '11130002')).toBe(true);
    // The other side of the rule: the other organisation's feed takes it in, and only into its own meter.
    expect(await drain(db, 1000, orgB)).toMatchObject({ telegrams: 1, accepted: 1 });
    expect([await readingCount(ours), await readingCount(theirs)]).toEqual([1, 1]);
    expect((await listUnmatched(db)).some((u) => u.radio_id === '11130002')).toBe(false);
    // The deployment's feed (several organisations, no MQTT_ORGANISATION) reaches both.
    for (const id of ['11130001', '11130002']) await receive(db, 'wmbusmeters/flat', heatTelegram(id, 2));
    expect(await drain(db, 1000, 'all')).toMatchObject({ telegrams: 2, accepted: 2 });
    expect([await readingCount(ours), await readingCount(theirs)]).toEqual([2, 2]);
  });
});

describe.skipIf(!hasMosquitto)('through a real broker (mosquitto)', () => {
  let subscriber: MqttSubscriber | undefined;
  const settings = () => ({ url: broker.url, topic: 'wmbusmeters/#', clientId: 'tenant-app-test' });

  beforeAll(async () => {
    await setUp();
    broker = await startBroker();
  });
  afterAll(async () => {
    await subscriber?.stop();
    await broker?.close();
    await database?.close();
  });

  it('takes telegrams as they are published', async () => {
    const meterId = await radioMeter('H-200', '22220001');
    subscriber = startMqttSubscriber(db, logger, settings());
    await subscriber.ready;
    await publish(
      broker.url,
      'wmbusmeters/flat',
      Array.from({ length: 24 }, (_, i) => heatTelegram('22220001', i)),
    );
    await eventually(async () => (await readingCount(meterId)) === 24, '24 readings');
  }, 180_000);

  it('loses nothing when the app stops while telegrams flow, and when the broker restarts', async () => {
    const meterId = await radioMeter('H-300', '33330001');
    const telegrams = Array.from({ length: 60 }, (_, i) => heatTelegram('33330001', i));
    // The app stops after the first 20 (its session stays with the broker), the rest arrive meanwhile.
    await publish(broker.url, 'wmbusmeters/flat', telegrams.slice(0, 20));
    await subscriber!.stop();
    subscriber = undefined;
    await publish(broker.url, 'wmbusmeters/flat', telegrams.slice(20, 40));
    // The broker restarts while the app is away: it keeps the queued telegrams on disk.
    await broker.restart();
    await publish(broker.url, 'wmbusmeters/flat', telegrams.slice(40, 50));
    subscriber = startMqttSubscriber(db, logger, settings());
    await subscriber.ready;
    await eventually(async () => (await readingCount(meterId)) === 50, '50 readings after the restarts');
    // A broker restart under a running app: it reconnects by itself and takes the rest.
    await broker.restart();
    await publish(broker.url, 'wmbusmeters/flat', telegrams.slice(50));
    await eventually(async () => (await readingCount(meterId)) === 60, 'all 60 readings');
    const stored = await db.select().from(meters).where(eq(meters.id, meterId));
    expect(stored[0]?.radioId).toBe('33330001');
    await subscriber.flush();
    const [after] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mqtt_inbox`);
    expect(after!.n).toBe(0);
  }, 300_000);

  it('loses nothing when the app restarts twice while a publisher keeps sending', async () => {
    const meterId = await radioMeter('H-400', '44440001');
    // Subscribed first: the broker keeps telegrams for a session that has subscribed.
    subscriber ??= startMqttSubscriber(db, logger, settings());
    await subscriber.ready;
    let published = 0;
    let restarts = 0;
    // One publisher sends all the while (QoS 1, a telegram every 15 ms), as a radio reader would, and goes on
    // for 10 more after the second restart, so both restarts fall within its flow.
    const sending = (async () => {
      const client = await mqtt.connectAsync(broker.url, { clientId: 'publisher-steady' });
      for (let after = 0; after < 10 && published < 1000; ) {
        await client.publishAsync('wmbusmeters/flat', heatTelegram('44440001', published), { qos: 1 });
        published++;
        if (restarts === 2) after++;
        await new Promise((r) => setTimeout(r, 15));
      }
      await client.endAsync();
    })();
    const publishedAtStops: number[] = [];
    for (let restart = 0; restart < 2; restart++) {
      // Stop once some telegrams of this round are stored.
      await eventually(
        async () => (await readingCount(meterId)) > (restart + 1) * 10,
        `readings before restart ${restart + 1}`,
      );
      await subscriber.stop();
      subscriber = undefined;
      publishedAtStops.push(published);
      await new Promise((r) => setTimeout(r, 150));
      subscriber = startMqttSubscriber(db, logger, settings());
      await subscriber.ready;
      restarts++;
    }
    await sending;
    await eventually(async () => (await readingCount(meterId)) === published, `all ${published} readings`);
    // The publisher sent on after each stop.
    for (const at of publishedAtStops) expect(at).toBeLessThan(published);
    const [issues] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM data_issues WHERE meter_id = ${meterId}`,
    );
    expect(issues!.n).toBe(0);
  }, 300_000);

  it('takes in the latest telegram of an unknown radio id once a meter has it, with no telegram to wake it', async () => {
    await subscriber?.stop();
    subscriber = startMqttSubscriber(db, logger, { ...settings(), recheckMs: 300 });
    await subscriber.ready;
    const meterId = await radioMeter('H-500', '55550099');
    await publish(broker.url, 'wmbusmeters/flat', [heatTelegram('55559999', 7), heatTelegram('55559999', 8)]);
    await eventually(
      async () => (await listUnmatched(db)).find((u) => u.radio_id === '55559999')?.telegrams === 2,
      'the unknown id listed',
    );
    await db.update(meters).set({ radioId: '55559999' }).where(eq(meters.id, meterId));
    await eventually(async () => (await readingCount(meterId)) === 1, 'the latest telegram ingested');
    expect((await listUnmatched(db)).some((u) => u.radio_id === '55559999')).toBe(false);
  }, 180_000);

  it('MQTT_ORGANISATION naming no organisation keeps the telegrams in the inbox; named, only its meters get them', async () => {
    await subscriber?.stop();
    const ours = await radioMeter('H-600', '66660001');
    const theirs = await radioMeter('H-601', '66660002', 'heat-energy', await otherOrganisation('P-600'));
    const errors: string[] = [];
    const capture = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n'))
          if (line && JSON.parse(line).level >= 50) errors.push(JSON.parse(line).msg);
        done();
      },
    });
    subscriber = startMqttSubscriber(db, pino({ level: 'info' }, capture), {
      ...settings(),
      organisation: 'No such organisation',
    });
    await subscriber.ready;
    await publish(broker.url, 'wmbusmeters/flat', [heatTelegram('66660001', 1), heatTelegram('66660002', 1)]);
    await eventually(async () => (await inboxCount()) === 2, 'both telegrams stored');
    await subscriber.flush();
    await subscriber.flush();
    expect(await inboxCount()).toBe(2);
    expect([await readingCount(ours), await readingCount(theirs)]).toEqual([0, 0]);
    // Said once in the log, at the first drain, not at every drain.
    expect(errors).toEqual([HELD_MESSAGE]);
    await subscriber.stop();
    // The setting put right (by id; the test organisations share a name): the kept telegrams are taken in.
    subscriber = startMqttSubscriber(db, logger, {
      ...settings(),
      organisation: String(await organisationOf(place.propertyId)),
    });
    await subscriber.ready;
    await eventually(async () => (await readingCount(ours)) === 1, 'our meter’s telegram ingested');
    await subscriber.flush();
    expect(await inboxCount()).toBe(0);
    expect(await readingCount(theirs)).toBe(0);
    expect((await listUnmatched(db)).find((u) => u.radio_id === '66660002')?.reason).toBe('unknown_id');
  }, 180_000);

  it('reports its status for the console: connected, the connection lost and back, the last telegram', async () => {
    await subscriber?.stop();
    const stopped = await feedStatus(db);
    expect(stopped?.subscribers).toEqual([
      expect.objectContaining({ clientId: 'tenant-app-test', connected: false, running: true }),
    ]);
    const before = stopped!.subscribers[0]!.lastTelegramAt;
    subscriber = startMqttSubscriber(db, logger, { ...settings(), recheckMs: 200 });
    await subscriber.ready;
    const status = async () => (await feedStatus(db))!.subscribers[0]!;
    await eventually(async () => (await status()).connected, 'reported connected');
    expect(await status()).toMatchObject({ url: broker.url, topic: 'wmbusmeters/#', lastError: null });
    // A restart that has stored nothing yet keeps the last telegram's time.
    expect((await status()).lastTelegramAt).toBe(before);
    await broker.stop();
    await eventually(async () => {
      const s = await status();
      return !s.connected && s.lastError !== null;
    }, 'reported disconnected, with the error');
    expect((await status()).lastError).toContain('ECONNREFUSED');
    await broker.start();
    await eventually(async () => (await status()).connected, 'reported connected again');
    expect((await status()).lastError).toBeNull();
    await publish(broker.url, 'wmbusmeters/flat', [heatTelegram('66660001', 2)]);
    await eventually(
      async () => (await status()).lastTelegramAt !== before,
      'the new telegram’s time reported',
    );
  }, 180_000);
});
