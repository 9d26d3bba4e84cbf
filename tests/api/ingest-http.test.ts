/**
 * Issue 19's HTTP door over the real server: API keys (scope, revocation, rate limit), JSON and CSV bodies,
 * gzip with its decompressed-size limit, malformed bodies, Idempotency-Key, atomic batches, 202 batches
 * ingested by the worker, and meter swaps. Every answer is checked against docs/ingest.openapi.yaml.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/server/config.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../../src/server/ingest/apiKeys.ts';
import { groupCommitStats, ingestGrouped } from '../../src/server/ingest/groupCommit.ts';
import { ingestYield } from '../../src/server/ingest/httpDoor.ts';
import { notePersonRequest, PEOPLE_WINDOW_MS, peopleActive } from '../../src/server/ingest/people.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { getMetrics } from '../../src/server/metrics.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { expectDocumented } from './helpers/openapi.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;
let api: TestApi;
let base = '';
let key = '';
let otherKey = '';
let mineId = 0;
let mineApartment = 0;
const servers: Server[] = [];

async function start(overrides: Partial<ServerConfig> = {}): Promise<string> {
  const services = { ...api.services, config: { ...api.services.config, ...overrides } };
  const server = createAppServer({ services });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function meter(propertyId: number, apartmentId: number, number: string): Promise<void> {
  const [p] = await db
    .insert(measurementPoints)
    .values({
      propertyId,
      apartmentId,
      quantity: 'heat-energy',
      unit: 'x',
      name: 'heat',
      readingKind: 'register',
    })
    .returning();
  await db.insert(meters).values({
    measurementPointId: p!.id,
    number,
    legacyKind: 'energy',
    installedAt: new Date('2020-01-01T00:00:00Z'),
  });
}

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  api = await createTestApi(database, {
    INGEST_SYNC_MAX_ROWS: '50',
    INGEST_MAX_DECOMPRESSED_BYTES: '100000',
  });
  const mine = await testProperty(db, [{ uniqueId: 'A1', areaM2: '60' }]);
  mineId = mine.propertyId;
  mineApartment = mine.apartmentIds[0]!;
  const theirs = await testProperty(db, [{ uniqueId: 'B1', areaM2: '60' }], 'P2');
  await meter(mine.propertyId, mine.apartmentIds[0]!, 'H-MINE');
  await meter(theirs.propertyId, theirs.apartmentIds[0]!, 'H-THEIRS');
  key = (await createApiKey(db, { name: 'gateway', propertyIds: [mine.propertyId], by: 'test' })).key;
  otherKey = (await createApiKey(db, { name: 'other', propertyIds: [theirs.propertyId], by: 'test' })).key;
  base = await start();
});

afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await database?.close();
});

/** POST /readings; every answer is checked against docs/ingest.openapi.yaml. */
async function post(
  body: string | Buffer,
  options: {
    type?: string;
    headers?: Record<string, string>;
    query?: string;
    url?: string;
    auth?: string;
  } = {},
): Promise<Response> {
  const res = await fetch(`${options.url ?? base}/api/ingest/v1/readings${options.query ?? ''}`, {
    method: 'POST',
    headers: {
      'content-type': options.type ?? 'application/json',
      authorization: `Bearer ${options.auth ?? key}`,
      ...options.headers,
    },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  await expectDocumented('POST', '/readings', res);
  return res;
}

/** GET a batch's receipt (its `href`), checked against the document. */
async function getBatch(href: string, auth = key): Promise<Response> {
  const res = await fetch(`${base}${href}`, { headers: { authorization: `Bearer ${auth}` } });
  await expectDocumented('GET', '/batches/{id}', res);
  return res;
}

const json = (rows: unknown[]) => JSON.stringify(rows);

async function storedCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM register_readings`);
  return Number(row!.n);
}

describe('POST /api/ingest/v1/readings', () => {
  it('refuses a request without a valid key, and a revoked key', async () => {
    const none = await post(json([]), { auth: 'nope' });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const made = await createApiKey(db, { name: 'short-lived', propertyIds: [mineId], by: 'test' });
    expect((await post(json([]), { auth: made.key })).status).toBe(200);
    await revokeApiKey(db, made.info.id);
    expect((await post(json([]), { auth: made.key })).status).toBe(401);
    const [listed] = await listApiKeys(db, made.info.id);
    expect(listed!.lastUsedAt).not.toBeNull();
  });

  it('answers a JSON batch with a receipt per row; a meter of another property is refused', async () => {
    const res = await post(
      json([
        { meter: 'H-MINE', timestamp: '2025-01-10T00:00:00Z', value: 100 },
        { meter: 'H-MINE', timestamp: '2025-01-10T01:00:00Z', value: '101.5' },
        { meter: 'H-THEIRS', timestamp: '2025-01-10T01:00:00Z', value: '5' },
        { meter: 'H-MINE', timestamp: '2025-01-10T02:00:00Z', value: '10.15' },
      ]),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.totals).toEqual({ rows: 4, accepted: 2, duplicate: 0, refused: 1, quarantined: 1 });
    expect(body.results[2]).toEqual({
      line: 3,
      status: 'refused',
      reason: 'unknown meter number "H-THEIRS"',
      code: 'unknown_meter',
      params: { meter: 'H-THEIRS' },
    });
    expect(body.results[3]).toMatchObject({ line: 4, status: 'quarantined', issue: expect.any(Number) });
    // The other property's key may write its own meter.
    const theirs = await post(json([{ meter: 'H-THEIRS', timestamp: '2025-01-10T01:00:00Z', value: '5' }]), {
      auth: otherKey,
    });
    expect((await theirs.json()).totals.accepted).toBe(1);
  });

  it('takes CSV, and gzip within the limit', async () => {
    const csv = 'meter_number,timestamp,value\nH-MINE,2025-01-10T03:00:00Z,102\n';
    const plain = await post(csv, { type: 'text/csv' });
    expect((await plain.json()).results).toEqual([{ line: 2, status: 'accepted' }]);
    const zipped = await post(gzipSync(csv), { type: 'text/csv', headers: { 'content-encoding': 'gzip' } });
    expect((await zipped.json()).results).toEqual([{ line: 2, status: 'duplicate' }]);
  });

  it('refuses a gzip bomb, an oversized body and malformed JSON or CSV, writing nothing', async () => {
    const before = await storedCount();
    const bomb = gzipSync(Buffer.alloc(5_000_000, ' '));
    const bombed = await post(bomb, { headers: { 'content-encoding': 'gzip' } });
    expect(bombed.status).toBe(413);
    expect(await bombed.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    const small = await start({ INGEST_MAX_BODY_BYTES: 2048 });
    const big = await post(
      json(Array.from({ length: 100 }, () => ({ meter: 'H-MINE', timestamp: 'x', value: 1 }))),
      {
        url: small,
      },
    );
    expect(big.status).toBe(413);
    const badJson = await post('[{"meter": ');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: { code: 'MALFORMED_JSON' } });
    const notArray = await post('{"meter": "H-MINE"}');
    expect(notArray.status).toBe(400);
    const badCsv = await post('meter_number,timestamp,value\nH-MINE,"2025-01-10T04:00:00Z,1\n', {
      type: 'text/csv',
    });
    expect(badCsv.status).toBe(400);
    expect(await badCsv.json()).toMatchObject({ error: { code: 'MALFORMED_CSV' } });
    const wrongHeader = await post('a,b,c\n', { type: 'text/csv' });
    expect(wrongHeader.status).toBe(400);
    expect(await storedCount()).toBe(before);
  });

  it('parses a large CSV body off the request thread with the same lines, refusals and header check', async () => {
    // Blank lines (skipped) make a body above CSV_WORKER_MIN_BYTES of 16 kB with one row, under the synchronous
    // limit of this file's server (50 rows), so the answer is the receipt.
    const pad = '\n'.repeat(20_000);
    const good = await post(`meter_number,timestamp,value${pad}\nH-MINE,2025-01-10T04:00:00Z,103\n`, {
      type: 'text/csv',
    });
    expect((await good.json()).results).toEqual([{ line: 20_002, status: 'accepted' }]);
    const before = await storedCount();
    const bad = await post(`meter_number,timestamp,value${pad}\nH-MINE,"2025-01-10T06:00:00Z,1\n`, {
      type: 'text/csv',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'MALFORMED_CSV', message: /^line 20002: malformed CSV/ },
    });
    const header = await post(`meter,ts,value${pad}\nH-MINE,2025-01-10T06:00:00Z,105\n`, {
      type: 'text/csv',
    });
    expect(header.status).toBe(400);
    expect(await header.json()).toMatchObject({
      error: {
        code: 'MALFORMED_CSV',
        message: /^line 1: expected the header "meter_number,timestamp,value"/,
      },
    });
    expect(await storedCount()).toBe(before);
  });

  it('replays an Idempotency-Key with the first receipt and writes nothing; another body gets 422', async () => {
    const body = json([{ meter: 'H-MINE', timestamp: '2025-01-10T05:00:00Z', value: '104' }]);
    const first = await post(body, { headers: { 'idempotency-key': 'k-1' } });
    const receipt = await first.json();
    expect(receipt.totals.accepted).toBe(1);
    const before = await storedCount();
    const replay = await post(body, { headers: { 'idempotency-key': 'k-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(receipt);
    expect(await storedCount()).toBe(before);
    const other = await post(json([{ meter: 'H-MINE', timestamp: '2025-01-10T06:00:00Z', value: '105' }]), {
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(await storedCount()).toBe(before);
  });

  it('?atomic=1 writes nothing when a row is refused', async () => {
    const before = await storedCount();
    const res = await post(
      json([
        { meter: 'H-MINE', timestamp: '2025-01-10T07:00:00Z', value: '106' },
        { meter: 'H-MINE', timestamp: 'not a time', value: '107' },
      ]),
      { query: '?atomic=1' },
    );
    const body = await res.json();
    expect(body).toMatchObject({ written: false, totals: { refused: 2 } });
    expect(body.results[1].reason).toMatch(/invalid timestamp/);
    expect(await storedCount()).toBe(before);
  });

  it('answers a batch above the synchronous limit with 202, and its receipt once the worker ran', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      meter: 'H-MINE',
      timestamp: new Date(Date.UTC(2025, 1, 1, i)).toISOString(),
      value: String(200 + i),
    }));
    const res = await post(json(rows));
    expect(res.status).toBe(202);
    const pending = await res.json();
    expect(pending).toMatchObject({ status: 'pending' });
    expect(await (await getBatch(pending.href)).json()).toMatchObject({ status: 'pending' });
    // Another key does not see the batch.
    expect((await getBatch(pending.href, otherKey)).status).toBe(404);
    expect((await getBatch(pending.href, 'nope')).status).toBe(401);
    await createJobRunner({ db, logger: pino({ level: 'silent' }) }).drain();
    const done = await (await getBatch(pending.href)).json();
    expect(done).toMatchObject({ batch: pending.batch, status: 'done', totals: { rows: 60, accepted: 60 } });
  });

  it('ingests a batch above the synchronous limit in parts, one job run each, oldest first, giving way to people between them', async () => {
    await meter(mineId, mineApartment, 'H-PARTS');
    const parted = await start({ INGEST_CHUNK_ROWS: 20 });
    const hour = (i: number) => new Date(Date.UTC(2025, 5, 1, i)).toISOString();
    // 58 hourly readings sent newest first, a meter the key does not have, and the newest reading again.
    const rows: { meter: string; timestamp: string; value: string }[] = Array.from(
      { length: 58 },
      (_, i) => ({
        meter: 'H-PARTS',
        timestamp: hour(57 - i),
        value: String(357 - i),
      }),
    );
    rows.push({ meter: 'H-NOPE', timestamp: hour(30), value: '1' });
    rows.push({ ...rows[0]! });
    const res = await post(json(rows), { url: parted });
    expect(res.status).toBe(202);
    const { batch, href } = await res.json();
    const runner = createJobRunner({ db, logger: pino({ level: 'silent' }) });
    const state = async () => {
      const [b] = await queryRows<{
        done_rows: number;
        status: string;
        stored: number;
        newest: string | null;
      }>(
        db,
        sql`SELECT b.done_rows, b.status,
              (SELECT count(*)::int FROM register_readings r JOIN meters m ON m.id = r.meter_id
                WHERE m.number = 'H-PARTS') AS stored,
              (SELECT to_char(max(r.ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') FROM register_readings r
                JOIN meters m ON m.id = r.meter_id WHERE m.number = 'H-PARTS') AS newest
            FROM ingest_batches b WHERE b.id = ${batch}`,
      );
      const [job] = await queryRows<{ job: string; later: boolean }>(
        db,
        sql`SELECT status AS job, run_at > now() + interval '1 millisecond' AS later FROM jobs
            WHERE key = ${`ingest-batch:batch:${batch}:once`}`,
      );
      return { ...b!, stored: Number(b!.stored), job: job!.job, later: job!.later };
    };
    // Nobody uses the app: the oldest 20 rows in the first run's transaction, and the next part is due at once.
    notePersonRequest(performance.now() - PEOPLE_WINDOW_MS - 1);
    expect(await runner.drain(1)).toBe(1);
    expect(await state()).toEqual({
      done_rows: 20,
      status: 'pending',
      stored: 20,
      newest: '2025-06-01T19',
      job: 'pending',
      later: false,
    });
    expect(await (await getBatch(href)).json()).toMatchObject({ status: 'pending' });
    // A person asks: after the second part the job waits before its third.
    notePersonRequest();
    expect(await runner.drain(1)).toBe(1);
    expect(await state()).toMatchObject({
      done_rows: 40,
      status: 'pending',
      stored: 39,
      job: 'pending',
      later: true,
    });
    expect(await runner.drain()).toBe(0);
    // Its time come, the last part ends the batch with one receipt of every row.
    const later = createJobRunner({
      db,
      logger: pino({ level: 'silent' }),
      clock: { now: () => new Date(Date.now() + 10_000) },
    });
    expect(await later.drain()).toBe(1);
    expect(await state()).toMatchObject({ done_rows: 60, status: 'done', stored: 58, job: 'done' });
    const done = await (await getBatch(href)).json();
    expect(done).toMatchObject({
      batch,
      status: 'done',
      totals: { rows: 60, accepted: 58, refused: 1, duplicate: 1, quarantined: 0 },
    });
    expect(done.results.map((r: { line: number }) => r.line)).toEqual(rows.map((_, i) => i + 1));
    expect(done.results[58]).toMatchObject({ line: 59, status: 'refused' });
    expect(done.results[59]).toMatchObject({ line: 60, status: 'duplicate' });
  });

  it('rate limits each key', async () => {
    const limited = await start({ INGEST_KEY_RATE_LIMIT: 2 });
    const { key: fresh } = await createApiKey(db, { name: 'limited', propertyIds: [mineId], by: 'test' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(json([]), { url: limited, auth: fresh })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('commits batches of one key that wait together in one transaction, each with its own receipt', async () => {
    await meter(mineId, mineApartment, 'H-G1');
    await meter(mineId, mineApartment, 'H-G2');
    const before = { ...groupCommitStats };
    const options = { source: 'http:key:test', propertyIds: [mineId] };
    const row = (line: number, meterNumber: string, ts: string, value: string) => ({
      line,
      meterNumber,
      ts,
      value,
    });
    // The first starts at once; the two that wait for it meet no common meter, so they go in together.
    const first = ingestGrouped(db, 'lane', [row(2, 'H-G1', '2025-02-01T00:00:00Z', '1')], options);
    const second = ingestGrouped(
      db,
      'lane',
      [
        row(2, 'H-G2', '2025-02-01T00:00:00Z', '5'),
        row(3, 'H-G2', '2025-02-01T01:00:00Z', '6'),
        row(4, 'H-G2', '2025-02-01T01:00:00Z', '7'),
        row(5, 'H-NOPE', '2025-02-01T01:00:00Z', '1'),
      ],
      options,
    );
    const third = ingestGrouped(
      db,
      'lane',
      [row(2, 'H-G1', '2025-02-01T01:00:00Z', '2'), row(3, 'H-G1', '2025-02-01T00:00:00Z', '1')],
      options,
    );
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(groupCommitStats.transactions - before.transactions).toBe(2);
    expect(groupCommitStats.batches - before.batches).toBe(3);
    expect(a.results).toEqual([{ line: 2, status: 'accepted' }]);
    expect(b).toMatchObject({ rows: 4, accepted: 2, duplicate: 0, refused: 2, quarantined: 0 });
    expect(b.results).toEqual([
      { line: 2, status: 'accepted' },
      { line: 3, status: 'accepted' },
      // The reason and the params name the batch's own line, not the merged transaction's.
      {
        line: 4,
        status: 'refused',
        reason: expect.stringMatching(/ but 6 on line 3$/),
        code: 'conflicting_value_in_batch',
        params: {
          meter: 'H-G2',
          timestamp: '2025-02-01T01:00:00Z',
          value: '7',
          otherValue: '6',
          otherLine: 3,
        },
      },
      {
        line: 5,
        status: 'refused',
        reason: 'unknown meter number "H-NOPE"',
        code: 'unknown_meter',
        params: { meter: 'H-NOPE' },
      },
    ]);
    expect(c).toMatchObject({ rows: 2, accepted: 1, duplicate: 1 });
    expect(c.results).toEqual([
      { line: 2, status: 'accepted' },
      { line: 3, status: 'duplicate' },
    ]);
  });

  it('runs two transactions of one lane at once on disjoint meters when allowed; a batch of a busy meter waits', async () => {
    await meter(mineId, mineApartment, 'H-P1');
    await meter(mineId, mineApartment, 'H-P2');
    const before = { ...groupCommitStats };
    const options = { source: 'http:key:test', propertyIds: [mineId], parallel: 2 };
    const row = (meterNumber: string, ts: string, value: string) => ({ line: 2, meterNumber, ts, value });
    // The first starts at once; the second has another meter, so it starts beside it (with one transaction at a
    // time it would wait, and go in together with the third: 2 transactions); the third has the first's meter
    // and waits for it to end.
    const [a, b, c] = await Promise.all([
      ingestGrouped(db, 'lane-2', [row('H-P1', '2025-03-01T00:00:00Z', '10')], options),
      ingestGrouped(db, 'lane-2', [row('H-P2', '2025-03-01T00:00:00Z', '20')], options),
      ingestGrouped(db, 'lane-2', [row('H-P1', '2025-03-01T01:00:00Z', '11.5')], options),
    ]);
    expect(groupCommitStats.transactions - before.transactions).toBe(3);
    for (const receipt of [a, b, c]) expect(receipt.results).toEqual([{ line: 2, status: 'accepted' }]);
    const [hour] = await queryRows<{ value: string }>(
      db,
      sql`SELECT h.value::text AS value FROM hourly_consumption h
            JOIN meters m ON m.measurement_point_id = h.measurement_point_id
           WHERE m.number = 'H-P1' AND h.hour_start = '2025-03-01T00:00:00Z'`,
    );
    expect(hour?.value).toBe('1.5');
  });

  it('gives way while people use the app: after a transaction, a pause of INGEST_YIELD times its length; none when nobody asked', async () => {
    await meter(mineId, mineApartment, 'H-Y1');
    const pauses: number[] = [];
    let paused = () => {};
    const options = {
      source: 'http:key:test',
      propertyIds: [mineId],
      lingerMs: 0,
      yieldFactor: 2,
      pause: async (ms: number) => {
        pauses.push(ms);
        paused();
      },
    };
    const batch = (h: number) =>
      ingestGrouped(
        db,
        'yield',
        [{ line: 2, meterNumber: 'H-Y1', ts: `2025-04-01T0${h}:00:00Z`, value: String(h + 1) }],
        options,
      );
    // Nobody has asked anything for longer than the window: no pause.
    notePersonRequest(performance.now() - PEOPLE_WINDOW_MS - 1);
    expect((await batch(0)).accepted).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pauses).toEqual([]);
    // A person asks: the next transaction is followed by a pause of twice its length, at most 5 s.
    notePersonRequest();
    const counted = async () => (await getMetrics().ingestYield.get()).values[0]?.value ?? 0;
    const before = await counted();
    const next = new Promise<void>((resolve) => {
      paused = resolve;
    });
    const started = performance.now();
    expect((await batch(1)).accepted).toBe(1);
    // The pause starts right after the transaction; 5 s is only the bound on a lane that never pauses.
    await Promise.race([next, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    const took = performance.now() - started;
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeGreaterThan(0);
    expect(pauses[0]).toBeLessThanOrEqual(Math.min(5_000, 2 * took));
    // GET /metrics counts the pause (ingest_yield_seconds_total).
    expect(await counted()).toBeCloseTo(before + pauses[0]! / 1000, 6);
  });

  it('gives way between the parts of a batch committed in parts too, each pause after its own part', async () => {
    await meter(mineId, mineApartment, 'H-Y2');
    const pauses: number[] = [];
    const stored: number[] = [];
    const options = {
      source: 'http:key:test',
      propertyIds: [mineId],
      lingerMs: 0,
      chunkRows: 2,
      yieldFactor: 1,
      pause: async (ms: number) => {
        // What is committed when each pause starts: the parts before it, and not the next one.
        const [n] = await queryRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM register_readings r JOIN meters m ON m.id = r.meter_id
               WHERE m.number = 'H-Y2'`,
        );
        stored.push(n!.n);
        pauses.push(ms);
      },
    };
    notePersonRequest();
    const rows = [0, 1, 2, 3, 4, 5].map((h) => ({
      line: h + 2,
      meterNumber: 'H-Y2',
      ts: `2025-05-01T0${h}:00:00Z`,
      value: String(h + 1),
    }));
    expect((await ingestGrouped(db, 'yield-parts', rows, options)).accepted).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Three parts of two rows: a pause after the first and the second part, and one after the last.
    expect(stored).toEqual([2, 4, 6]);
    expect(pauses.every((ms) => ms > 0)).toBe(true);
    // None when nobody has asked for longer than the window.
    notePersonRequest(performance.now() - PEOPLE_WINDOW_MS - 1);
    pauses.length = 0;
    const later = rows.map((r, i) => ({ ...r, ts: `2025-05-02T0${i}:00:00Z`, value: String(i + 10) }));
    expect((await ingestGrouped(db, 'yield-parts', later, options)).accepted).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pauses).toEqual([]);
  });

  it("takes INGEST_YIELD when set, and otherwise the engine's default: 5 on PostgreSQL, 30 on PGlite", () => {
    expect(ingestYield({ INGEST_YIELD: undefined }, 'postgres')).toBe(5);
    expect(ingestYield({ INGEST_YIELD: undefined }, 'pglite')).toBe(30);
    expect(ingestYield({ INGEST_YIELD: 0 }, 'pglite')).toBe(0);
    expect(ingestYield({ INGEST_YIELD: 5 }, 'postgres')).toBe(5);
  });

  it("counts a GraphQL request as a person using the app, and a gateway's batch not", async () => {
    notePersonRequest(performance.now() - PEOPLE_WINDOW_MS - 1);
    expect((await post(json([]))).status).toBe(200);
    expect(peopleActive()).toBe(false);
    const res = await fetch(`${base}/api/tenant/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(res.status).toBe(200);
    expect(peopleActive()).toBe(true);
    expect(peopleActive(performance.now() + PEOPLE_WINDOW_MS)).toBe(false);
  });

  it('waits for the batches it answered to come back, so clients that keep one batch in flight share transactions', async () => {
    await meter(mineId, mineApartment, 'H-L1');
    await meter(mineId, mineApartment, 'H-L2');
    const before = { ...groupCommitStats };
    // A long linger, so that the clients' 50 ms between an answer and their next batch never outlasts it here.
    const options = { source: 'http:key:test', propertyIds: [mineId], lingerMs: 2_000 };
    const client = async (meterNumber: string) => {
      const receipts = [];
      for (let h = 0; h < 3; h++) {
        const ts = `2025-03-01T0${h}:00:00Z`;
        receipts.push(
          await ingestGrouped(db, 'linger', [{ line: 2, meterNumber, ts, value: String(h + 1) }], options),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return receipts;
    };
    const [a, b] = await Promise.all([client('H-L1'), client('H-L2')]);
    expect([...a, ...b].map((r) => r.accepted)).toEqual([1, 1, 1, 1, 1, 1]);
    // H-L1's first batch alone (the lane was idle), then H-L1's second with H-L2's first (the lane waited for
    // H-L1 to come back), both clients' next ones together, and H-L2's last alone: 4 transactions for 6 batches.
    // Without the wait each batch is a transaction of its own (the clients come back after the lane has ended).
    expect(groupCommitStats.batches - before.batches).toBe(6);
    expect(groupCommitStats.transactions - before.transactions).toBe(4);
  });
});

describe('POST /api/ingest/v1/swaps', () => {
  /** POST /swaps; every answer is checked against docs/ingest.openapi.yaml. */
  async function swap(body: unknown, auth = key): Promise<Response> {
    const res = await fetch(`${base}/api/ingest/v1/swaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${auth}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    await expectDocumented('POST', '/swaps', res);
    return res;
  }
  const meterRows = () =>
    queryRows<{ number: string; removed: boolean; point: number }>(
      db,
      sql`SELECT number, removed_at IS NOT NULL AS removed, measurement_point_id AS point FROM meters
          WHERE number LIKE 'H-SWAP%' OR number = 'H-THEIRS' ORDER BY number`,
    );

  it("records its own meter's swap with both readings; another property's meter, bad input and a taken number change nothing", async () => {
    await meter(mineId, mineApartment, 'H-SWAP-OLD');
    const first = await post(
      json([{ meter: 'H-SWAP-OLD', timestamp: '2025-03-01T00:00:00Z', value: '500' }]),
    );
    expect((await first.json()).totals.accepted).toBe(1);
    const before = await meterRows();
    const readingsBefore = await storedCount();
    const good = {
      meter: 'H-SWAP-OLD',
      at: '2025-03-02T00:00:00Z',
      endValue: '510',
      newMeter: 'H-SWAP-NEW',
      startValue: '0.5',
    };
    const refused = async (res: Response, status: number, code: string, message: RegExp) => {
      expect(res.status).toBe(status);
      const { error } = await res.json();
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    };

    // Another property's meter reads as unknown, to either key.
    await refused(await swap({ ...good, meter: 'H-THEIRS' }), 422, 'BAD_SWAP', /^Unknown meter "H-THEIRS"$/);
    await refused(await swap(good, otherKey), 422, 'BAD_SWAP', /^Unknown meter "H-SWAP-OLD"$/);
    await refused(await swap('{"meter": '), 400, 'MALFORMED_JSON', /not valid JSON/);
    const { startValue: _, ...noStart } = good;
    await refused(await swap(noStart), 400, 'BAD_SWAP', /"startValue" is required/);
    await refused(await swap({ ...good, at: '2025-03-02 00:00' }), 422, 'BAD_SWAP', /ISO 8601/);
    await refused(await swap({ ...good, newMeter: 'H-THEIRS' }), 422, 'BAD_SWAP', /is taken/);
    await refused(await swap({ ...good, at: '2025-02-28T00:00:00Z' }), 422, 'BAD_SWAP', /has readings after/);
    await refused(await swap(good, 'nope'), 401, 'UNAUTHENTICATED', /API key/);
    expect(await meterRows()).toEqual(before);
    expect(await storedCount()).toBe(readingsBefore);

    const ok = await swap(good);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ written: true, totals: { rows: 2, accepted: 2 } });
    const point = before.find((m) => m.number === 'H-SWAP-OLD')!.point;
    expect(await meterRows()).toEqual([
      { number: 'H-SWAP-NEW', removed: false, point },
      { number: 'H-SWAP-OLD', removed: true, point },
      { number: 'H-THEIRS', removed: false, point: before.find((m) => m.number === 'H-THEIRS')!.point },
    ]);
    expect(await storedCount()).toBe(readingsBefore + 2);
    // The new meter takes readings from the swap on; the old one none after it.
    const next = await post(
      json([
        { meter: 'H-SWAP-NEW', timestamp: '2025-03-02T05:00:00Z', value: '3.5' },
        { meter: 'H-SWAP-OLD', timestamp: '2025-03-02T05:00:00Z', value: '511' },
      ]),
    );
    const receipt = await next.json();
    expect(receipt.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'refused']);
  });
});
