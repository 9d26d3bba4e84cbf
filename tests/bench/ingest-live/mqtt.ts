/** Part "mqtt" of the live-ingestion bench (tests/bench/ingest-live.ts). */
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import { queryRows } from '../../../src/server/db/sql.ts';
import { ingestBatch, type ReadingRow } from '../../../src/server/ingest/ingest.ts';
import { type MqttSubscriber, startMqttSubscriber } from '../../../src/server/mqtt/subscriber.ts';
import { hasMosquitto, MOSQUITTO, startBroker } from '../../api/helpers/mosquitto.ts';
import { openBenchDatabase } from '../api.ts';
import { HOUR, machine, twoProperties } from './common.ts';

/**
 * Part "mqtt": telegrams per second through a real broker (mosquitto) into readings, with the broker restarted
 * halfway, and how many were lost; against the same readings ingested directly (ingestBatch) in the same run.
 */
export async function benchMqtt(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(
    `\n== MQTT (${engine}): wmbusmeters telegrams through mosquitto, the broker restarted halfway ==`,
  );
  console.log(`machine: ${machine()}`);
  if (!hasMosquitto) {
    console.log(`(skipped: no mosquitto at ${MOSQUITTO})`);
    return;
  }
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  const broker = await startBroker();
  let subscriber: MqttSubscriber | undefined;
  try {
    const db = database.db;
    const [numbers, reference] = await twoProperties(db, 20);
    // The first property's meters are read by radio; the second's take the same readings directly.
    for (const [i, number] of numbers!.entries())
      await db.execute(sql`UPDATE meters SET radio_id = ${String(70_000_000 + i)} WHERE number = ${number}`);
    const HOURS = 50;
    const start = Math.floor(Date.now() / HOUR) * HOUR - 10 * 24 * HOUR;
    const telegrams: string[] = [];
    const rows: ReadingRow[] = [];
    for (let h = 0; h < HOURS; h++) {
      const ts = new Date(start + h * HOUR).toISOString();
      numbers!.forEach((_, i) => {
        telegrams.push(
          JSON.stringify({
            _: 'telegram',
            media: 'electricity',
            meter: 'amiplus',
            id: String(70_000_000 + i),
            total_energy_consumption_kwh: 100 + h * 0.5,
            timestamp: ts,
          }),
        );
        rows.push({
          line: rows.length + 2,
          meterNumber: reference![i]!,
          ts,
          value: (100 + h * 0.5).toFixed(3),
        });
      });
    }
    let t = performance.now();
    await ingestBatch(db, rows, { now: new Date() });
    const directRate = rows.length / ((performance.now() - t) / 1000);

    subscriber = startMqttSubscriber(db, pino({ level: 'warn' }), {
      url: broker.url,
      topic: 'wmbusmeters/#',
      clientId: 'bench-ingest',
    });
    await subscriber.ready;
    const stored = async () => {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM register_readings r JOIN meters m ON m.id = r.meter_id
            WHERE m.radio_id IS NOT NULL`,
      );
      return Number(row!.n);
    };
    const publish = async (payloads: string[]) => {
      const client = await mqtt.connectAsync(broker.url, { clientId: `bench-publisher-${Math.random()}` });
      await Promise.all(payloads.map((p) => client.publishAsync('wmbusmeters/bench', p, { qos: 1 })));
      await client.endAsync();
    };
    t = performance.now();
    const half = telegrams.length / 2;
    await publish(telegrams.slice(0, half));
    await broker.restart();
    await publish(telegrams.slice(half));
    const deadline = Date.now() + 300_000;
    let n = await stored();
    while (n < telegrams.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      n = await stored();
    }
    const seconds = (performance.now() - t) / 1000;
    console.log(
      `${telegrams.length.toLocaleString('en')} telegrams (${numbers!.length} meters × ${HOURS} hours): ${n.toLocaleString('en')} readings stored ` +
        `in ${seconds.toFixed(1)} s = ${Math.round(n / seconds).toLocaleString('en')} telegrams/s, ${telegrams.length - n} lost; ` +
        `the same readings through ingestBatch directly: ${Math.round(directRate).toLocaleString('en')} readings/s ` +
        `(MQTT = ${((100 * n) / seconds / directRate).toFixed(0)} % of it)`,
    );
  } finally {
    await subscriber?.stop();
    await broker.close();
    await database.close();
    await cleanup();
  }
}
