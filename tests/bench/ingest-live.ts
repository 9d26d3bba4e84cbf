/**
 * Live ingestion (issue 19), four parts, each runnable alone:
 *   node --import tsx tests/bench/ingest-live.ts [late] [http] [parallel] [mqtt]   (no part named: all four)
 * and in `npm run bench` (`--skip-ingest-live` leaves them out, `--only ingest-live` runs only them). PGlite
 * always; PostgreSQL too with BENCH_DATABASE_URL or TEST_DATABASE_URL. Every figure is printed beside a
 * reference measured in the same run, with the machine and its load average, since the machine is shared.
 *
 * - late: one late reading a month back, filling a gap of a register (the hours around it, their days and
 *   month, the property's rollups and the late-data check): statements and milliseconds, for two history lengths.
 * - http: 4 clients posting 1,000-row batches to POST /api/ingest/v1/readings, as a ratio to the bulk loader's
 *   rate in the same run; tenantGraph p95 while that runs, against its idle p95; and freshness, from a POST's
 *   answer until tenantGraph shows the hour (p95).
 * - parallel: two properties ingesting batches at once, against one alone (per-property locks).
 * - mqtt: telegrams per second through a real broker (mosquitto) restarted halfway, and how many were lost.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { connectPostgres, type Db, migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { accounts, apartments, measurementPoints, meters, properties } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createApiKey } from '../../src/server/ingest/apiKeys.ts';
import { groupCommitStats } from '../../src/server/ingest/groupCommit.ts';
import { ingestBatch, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { type MqttSubscriber, startMqttSubscriber } from '../../src/server/mqtt/subscriber.ts';
import { hasMosquitto, MOSQUITTO, startBroker } from '../api/helpers/mosquitto.ts';
import { copenhagenMinute, demoTenant, openBenchDatabase, post } from './api.ts';

const HOUR = 3_600_000;
const APARTMENTS = 6;

function machine(): string {
  const [l1, l5] = os.loadavg();
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${l1!.toFixed(1)} / ${l5!.toFixed(1)} (1 / 5 min)`;
}

function p95(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** A fresh database (in-memory PGlite, or a new PostgreSQL database) whose statements are counted. */
async function countedDatabase(engine: 'pglite' | 'postgres', adminUrl?: string) {
  const counter = { statements: 0 };
  const logQuery = () => {
    counter.statements++;
  };
  if (engine === 'pglite') {
    const database = await openDatabase({ logQuery });
    await migrateDatabase(database);
    return { database, counter, cleanup: async () => {} };
  }
  const admin = await connectPostgres(adminUrl!, { max: 1 });
  const name = `bench_late_${Math.random().toString(36).slice(2, 10)}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 4, logQuery });
  await migrateDatabase(database);
  return {
    database,
    counter,
    cleanup: async () => {
      await database.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Part "late": the cost of one late reading a month back, for a short and a long history. */
export async function benchLate(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== Late data (${engine}): one reading a month back that fills a gap of five hours ==`);
  console.log(`machine: ${machine()}`);
  for (const days of [60, 365]) {
    const { database, counter, cleanup } = await countedDatabase(engine, adminUrl);
    try {
      const now = new Date();
      await seedDemo(database.db, { now, days, apartments: APARTMENTS });
      const [meter] = await queryRows<{ number: string }>(
        database.db,
        sql`SELECT number FROM meters WHERE number LIKE 'EN-%' ORDER BY number LIMIT 1`,
      );
      const base = Math.floor(now.getTime() / HOUR) * HOUR - 30 * 24 * HOUR;
      const costs: { ms: number; statements: number; phases: Record<string, number> }[] = [];
      for (let k = 0; k < 7; k++) {
        const t0 = base + k * 12 * HOUR;
        // The gap: five hourly readings that never came; the hours keep their old values until the late one.
        const [kept] = await queryRows<{ value: string }>(
          database.db,
          sql`WITH gone AS (
                DELETE FROM register_readings r USING meters m
                WHERE m.id = r.meter_id AND m.number = ${meter!.number}
                  AND r.ts > ${new Date(t0).toISOString()}::timestamptz
                  AND r.ts < ${new Date(t0 + 6 * HOUR).toISOString()}::timestamptz
                RETURNING r.ts, r.value)
              SELECT value::text AS value FROM gone ORDER BY ts OFFSET 2 LIMIT 1`,
        );
        counter.statements = 0;
        const timings = { wall: {} as Record<string, number> };
        const started = performance.now();
        await ingestBatch(
          database.db,
          [
            {
              line: 1,
              meterNumber: meter!.number,
              ts: new Date(t0 + 3 * HOUR).toISOString(),
              value: kept!.value,
            },
          ],
          { now: new Date(), timings },
        );
        costs.push({ ms: performance.now() - started, statements: counter.statements, phases: timings.wall });
      }
      const [readings] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM register_readings`,
      );
      console.log(
        `${String(days).padStart(3)} days of history (${Number(readings!.n).toLocaleString('en')} readings): ` +
          `${median(costs.map((c) => c.statements))} statements, median ${median(costs.map((c) => c.ms)).toFixed(0)} ms ` +
          `(min ${Math.min(...costs.map((c) => c.ms)).toFixed(0)}, max ${Math.max(...costs.map((c) => c.ms)).toFixed(0)}) per late reading`,
      );
      // Per phase, the median over the runs (ms): where the time goes, and whether a phase grows with history.
      const phases = Object.keys(costs[0]!.phases);
      console.log(
        `  phases (median ms): ${phases.map((p) => `${p} ${(median(costs.map((c) => c.phases[p] ?? 0)) * 1000).toFixed(0)}`).join(', ')}`,
      );
    } finally {
      await cleanup();
      await database.close().catch(() => {});
    }
  }
}

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { graphs { consumption { values } } } }`;

/** Part "http": HTTP ingest against the bulk loader, tenantGraph under ingestion, freshness. */
export async function benchHttp(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== HTTP ingest (${engine}): 4 clients × 1,000-row batches, against the bulk loader ==`);
  console.log(`machine: ${machine()}`);
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  let server: Server | undefined;
  try {
    // History up to three weeks ago: 20 days since are what the clients send (about 32 batches of 1,000, enough
    // for a rate on a shared machine; a week gave 8 batches and ratios that varied 2× between runs).
    const seededTo = new Date(Math.floor(Date.now() / HOUR) * HOUR - 21 * 24 * HOUR);
    const t0 = performance.now();
    await seedDemo(database.db, { now: seededTo, days: 60, apartments: APARTMENTS });
    const bulkSeconds = (performance.now() - t0) / 1000;
    const [count] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM register_readings`,
    );
    const bulkRate = Number(count!.n) / bulkSeconds;
    const services = {
      config: parseServerConfig({
        DATA_DIR: tmpdir(),
        LOG_LEVEL: 'warn',
        INGEST_KEY_RATE_LIMIT: '1000000',
        // The app's default unless the bench is run with another (the transactions' size against the wait).
        ...(process.env.INGEST_CHUNK_ROWS ? { INGEST_CHUNK_ROWS: process.env.INGEST_CHUNK_ROWS } : {}),
      }),
      database,
      logger: pino({ level: 'warn' }),
      keys: await generateKeyRing(),
    };
    server = createAppServer({ services });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [property] = await database.db.select().from(properties);
    const { key } = await createApiKey(database.db, {
      name: 'bench',
      propertyIds: [property!.id],
      by: 'bench',
    });
    const registers = await queryRows<{ number: string; value: string }>(
      database.db,
      sql`SELECT m.number, (SELECT r.value::text FROM register_readings r WHERE r.meter_id = m.id
                            ORDER BY r.ts DESC LIMIT 1) AS value
          FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
          WHERE m.removed_at IS NULL AND p.reading_kind = 'register' ORDER BY m.number`,
    );
    const { token, unitId } = await demoTenant(`${origin}/api/tenant/graphql`);
    const graph = async (periodBegin: string, periodEnd: string) => {
      const started = performance.now();
      const data = (await post(
        `${origin}/api/tenant/graphql`,
        GRAPH,
        {
          graph: {
            graphType: 'HOURLY_VALUES',
            resolution: 'HOUR',
            periodBegin,
            periodEnd,
            objects: [{ kind: 'UNIT', id: unitId }],
            quantities: ['heat-energy'],
          },
        },
        token,
      )) as { tenantGraph: { graphs: { consumption: { values: (number | null)[] }[] }[] } };
      return { ms: performance.now() - started, values: data.tenantGraph.graphs[0]!.consumption[0]!.values };
    };
    const day = (end: Date) =>
      [copenhagenMinute(new Date(end.getTime() - 24 * HOUR)), copenhagenMinute(end)] as const;
    const idle: number[] = [];
    for (let i = 0; i < 40; i++) idle.push((await graph(...day(seededTo))).ms);

    // Each client owns a quarter of the registers and sends their hours in order, 1,000 rows a batch.
    const clients = [0, 1, 2, 3].map((c) => registers.filter((_, i) => i % 4 === c));
    const post1 = async (rows: ReadingRow[]) => {
      const csv = `meter_number,timestamp,value\n${rows.map((r) => `${r.meterNumber},${r.ts},${r.value}`).join('\n')}\n`;
      const res = await fetch(`${origin}/api/ingest/v1/readings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
        body: csv,
      });
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { totals: { accepted: number } };
    };
    let sent = 0;
    let ingesting = true;
    const merges = { ...groupCommitStats };
    const during: number[] = [];
    const hoursToSend = 20 * 24;
    const started = performance.now();
    const clientRuns = clients.map(async (own) => {
      const values = own.map((m) => Number(m.value));
      const perBatch = Math.max(1, Math.floor(1000 / own.length));
      for (let h = 1; h <= hoursToSend; h += perBatch) {
        const rows: ReadingRow[] = [];
        for (let k = h; k < Math.min(h + perBatch, hoursToSend + 1); k++) {
          const ts = new Date(seededTo.getTime() + k * HOUR).toISOString();
          own.forEach((m, i) => {
            values[i] = values[i]! + 0.1;
            rows.push({ line: rows.length + 2, meterNumber: m.number, ts, value: values[i]!.toFixed(3) });
          });
        }
        const receipt = await post1(rows);
        sent += receipt.totals.accepted;
      }
    });
    const watcher = (async () => {
      while (ingesting) during.push((await graph(...day(seededTo))).ms);
    })();
    await Promise.all(clientRuns);
    const httpSeconds = (performance.now() - started) / 1000;
    ingesting = false;
    await watcher;
    const httpRate = sent / httpSeconds;
    console.log(
      `bulk loader (same run): ${Math.round(bulkRate).toLocaleString('en')} readings/s; HTTP: ${sent.toLocaleString('en')} readings ` +
        `in ${httpSeconds.toFixed(1)} s = ${Math.round(httpRate).toLocaleString('en')} readings/s = ` +
        `${((100 * httpRate) / bulkRate).toFixed(0)} % of the bulk rate (goal ≥ 50 %)`,
    );
    console.log(
      `group commit: ${groupCommitStats.batches - merges.batches} batches in ${groupCommitStats.transactions - merges.transactions} merges, ` +
        `committed in transactions of about ${services.config.INGEST_CHUNK_ROWS} rows (INGEST_CHUNK_ROWS)`,
    );
    console.log(
      `tenantGraph (24 h at HOUR) p95: idle ${p95(idle).toFixed(0)} ms, while ingesting ${p95(during).toFixed(0)} ms ` +
        `(${(p95(during) / p95(idle)).toFixed(1)}×, goal ≤ 2×; ${during.length} requests)`,
    );

    // Freshness: one new hour of the tenant's heat register, then tenantGraph until it shows the hour.
    const [heat] = await queryRows<{ number: string; value: string }>(
      database.db,
      sql`SELECT m.number, (SELECT r.value::text FROM register_readings r WHERE r.meter_id = m.id
                            ORDER BY r.ts DESC LIMIT 1) AS value
          FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
          WHERE p.apartment_id = ${Number(unitId)} AND p.quantity = 'heat-energy' AND m.removed_at IS NULL`,
    );
    let value = Number(heat!.value);
    const fresh: number[] = [];
    for (let k = hoursToSend + 1; k <= hoursToSend + 20; k++) {
      const ts = new Date(seededTo.getTime() + k * HOUR);
      value += 0.5;
      await post1([{ line: 2, meterNumber: heat!.number, ts: ts.toISOString(), value: value.toFixed(3) }]);
      const answered = performance.now();
      const hourStart = new Date(ts.getTime() - HOUR);
      for (;;) {
        const { values } = await graph(copenhagenMinute(hourStart), copenhagenMinute(ts));
        if (values[0] !== null && values[0] !== undefined) break;
      }
      fresh.push(performance.now() - answered);
    }
    console.log(
      `freshness (POST answered → tenantGraph shows the hour): p95 ${p95(fresh).toFixed(0)} ms, median ${median(fresh).toFixed(0)} ms (goal p95 ≤ 2 s)`,
    );
  } finally {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database.close();
    await cleanup();
  }
}

/** Two properties of `meters` registers each; returns their meter numbers. */
async function twoProperties(db: Db, count: number): Promise<string[][]> {
  const [account] = await db.insert(accounts).values({ name: 'Bench' }).returning();
  const out: string[][] = [];
  for (const n of ['P-A', 'P-B']) {
    const [p] = await db
      .insert(properties)
      .values({ accountId: account!.id, number: n, address: 'Benchvej 1', zipcode: '8000', city: 'Aarhus' })
      .returning();
    const [apt] = await db
      .insert(apartments)
      .values({
        propertyId: p!.id,
        uniqueId: `${n}-1`,
        apartment: '1',
        address: 'Benchvej 1',
        zipcode: '8000',
        city: 'Aarhus',
        areaM2: '70',
        rooms: 3,
      })
      .returning();
    const numbers: string[] = [];
    for (let i = 0; i < count; i++) {
      const [mp] = await db
        .insert(measurementPoints)
        .values({
          propertyId: p!.id,
          apartmentId: apt!.id,
          quantity: 'electricity-energy',
          unit: 'kilo-watt-hour',
          name: `E${i}`,
          readingKind: 'register',
        })
        .returning();
      const number = `${n}-E${i}`;
      await db
        .insert(meters)
        .values({ measurementPointId: mp!.id, number, legacyKind: 'electricity', installedAt: new Date(0) });
      numbers.push(number);
    }
    out.push(numbers);
  }
  return out;
}

/** Part "parallel": two properties ingesting at once, against one alone. */
export async function benchParallel(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== Two properties ingesting at once (${engine}), 20 batches of 1,000 readings each ==`);
  console.log(`machine: ${machine()}`);
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  try {
    const [a, b] = await twoProperties(database.db, 50);
    const start = Math.floor(Date.now() / HOUR) * HOUR - 90 * 24 * HOUR;
    const run = async (numbers: string[], fromHour: number, batches: number) => {
      for (let k = 0; k < batches; k++) {
        const rows: ReadingRow[] = [];
        for (let h = 0; h < 20; h++) {
          const hour = fromHour + k * 20 + h;
          const ts = new Date(start + hour * HOUR).toISOString();
          for (const number of numbers)
            rows.push({ line: rows.length + 2, meterNumber: number, ts, value: (hour * 0.5).toFixed(3) });
        }
        await ingestBatch(database.db, rows, { now: new Date() });
      }
    };
    let t = performance.now();
    await run(a!, 0, 20);
    const alone = (performance.now() - t) / 1000;
    t = performance.now();
    await Promise.all([run(a!, 400, 20), run(b!, 0, 20)]);
    const both = (performance.now() - t) / 1000;
    const rateAlone = 20_000 / alone;
    const rateBoth = 40_000 / both;
    console.log(
      `one property alone: ${Math.round(rateAlone).toLocaleString('en')} readings/s; two at once: ` +
        `${Math.round(rateBoth).toLocaleString('en')} readings/s together = ${(rateBoth / rateAlone).toFixed(2)}× the one`,
    );
  } finally {
    await database.close();
    await cleanup();
  }
}

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

/** The parts named (all when none), on PGlite and, with a URL, PostgreSQL. */
export async function benchIngestLive(parts: string[], pgUrl?: string): Promise<void> {
  const wanted = (p: string) => parts.length === 0 || parts.includes(p);
  // BENCH_ENGINES=postgres (or pglite) runs one engine only.
  const only = process.env.BENCH_ENGINES?.split(',');
  const engines: ['pglite' | 'postgres', string | undefined][] = [];
  if (!only || only.includes('pglite')) engines.push(['pglite', undefined]);
  if (pgUrl && (!only || only.includes('postgres'))) engines.push(['postgres', pgUrl]);
  for (const [engine, url] of engines) {
    if (wanted('late')) await benchLate(engine, url);
    if (wanted('http')) await benchHttp(engine, url);
    if (wanted('parallel')) await benchParallel(engine, url);
    if (wanted('mqtt')) await benchMqtt(engine, url);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchIngestLive(
    process.argv.slice(2),
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  );
}
