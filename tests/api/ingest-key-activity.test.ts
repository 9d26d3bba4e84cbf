/**
 * What each API key sent, per day (`api_key_days`), as the console shows it: every batch answered with a receipt is
 * counted once by outcome, on the key that sent it (a synchronous batch, one with an Idempotency-Key, an atomic
 * one, a 202 batch once the worker ran); a replay and a request refused as a whole are not; the newest refusal
 * names the row that was refused, not the good rows an atomic batch kept out.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createApiKey } from '../../src/server/ingest/apiKeys.ts';
import { runIngestCommand } from '../../src/server/ingest/cli.ts';
import { keyDays } from '../../src/server/ingest/keyActivity.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { createTestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { registerMeter, testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;
let server: Server;
let base = '';
const keys = { gateway: { id: 0, key: '' }, quiet: { id: 0, key: '' } };

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  const api = await createTestApi(database, { INGEST_SYNC_MAX_ROWS: '20' });
  const property = await testProperty(db, [{ uniqueId: 'A1', areaM2: '60' }]);
  await registerMeter(
    db,
    { propertyId: property.propertyId, apartmentId: property.apartmentIds[0]! },
    'heat-energy',
    'H-1',
  );
  for (const name of ['gateway', 'quiet'] as const) {
    const made = await createApiKey(db, { name, propertyIds: [property.propertyId], by: 'test' });
    keys[name] = { id: made.info.id, key: made.key };
  }
  server = createAppServer({ services: api.services });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
});

const at = (hour: number) => new Date(Date.UTC(2025, 0, 10, hour)).toISOString();

async function post(rows: unknown[] | string, headers: Record<string, string> = {}, query = '') {
  const res = await fetch(`${base}/api/ingest/v1/readings${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.gateway.key}`, ...headers },
    body: typeof rows === 'string' ? rows : JSON.stringify(rows),
  });
  return { status: res.status, body: await res.json() };
}

const today = async () => {
  const days = await keyDays(db, [keys.gateway.id, keys.quiet.id], 7);
  expect(days.every((d) => d.apiKeyId === keys.gateway.id)).toBe(true);
  expect(days.length).toBeLessThanOrEqual(1);
  return days[0];
};

describe('what a key sent, per day', () => {
  it('counts each answered batch once by outcome, and names the newest refused row', async () => {
    expect(await today()).toBeUndefined();
    // A synchronous batch: two good rows, one refused (a JSON body's line is the row's place, from 1).
    const first = await post([
      { meter: 'H-1', timestamp: at(0), value: 100 },
      { meter: 'H-1', timestamp: at(1), value: 101 },
      { meter: 'NOPE', timestamp: at(1), value: 1 },
    ]);
    expect(first.body.totals).toMatchObject({ accepted: 2, refused: 1 });
    expect(await today()).toMatchObject({
      batches: 1,
      rows: 3,
      accepted: 2,
      duplicate: 0,
      refused: 1,
      quarantined: 0,
      lastRefusal: 'line 3: unknown meter number "NOPE"',
    });

    // With an Idempotency-Key: counted once, its replay not again. One duplicate, one new.
    const rows = [
      { meter: 'H-1', timestamp: at(1), value: 101 },
      { meter: 'H-1', timestamp: at(2), value: 102 },
    ];
    expect((await post(rows, { 'idempotency-key': 'k-1' })).status).toBe(200);
    const replay = await fetch(`${base}/api/ingest/v1/readings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${keys.gateway.key}`,
        'idempotency-key': 'k-1',
      },
      body: JSON.stringify(rows),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await today()).toMatchObject({ batches: 2, rows: 5, accepted: 3, duplicate: 1, refused: 1 });

    // Atomic with one bad value: nothing written, all rows refused; the refusal shown is the bad row's (line 2),
    // not line 1's "not written".
    const atomic = await post(
      [
        { meter: 'H-1', timestamp: at(3), value: 103 },
        { meter: 'H-1', timestamp: at(4), value: 'x' },
      ],
      {},
      '?atomic=1',
    );
    expect(atomic.body).toMatchObject({ written: false, totals: { refused: 2 } });
    const afterAtomic = await today();
    expect(afterAtomic).toMatchObject({ batches: 3, rows: 7, accepted: 3, refused: 3 });
    expect(afterAtomic!.lastRefusal).toMatch(/^line 2: value "x"/);
    expect(afterAtomic!.lastRefusal).not.toContain('not written');

    // A request refused as a whole (malformed JSON) has no receipt and is not counted.
    expect((await post('[{"meter":')).status).toBe(400);
    // A clean batch keeps the day's newest refusal.
    await post([{ meter: 'H-1', timestamp: at(5), value: 105 }]);
    const clean = await today();
    expect(clean).toMatchObject({ batches: 4, rows: 8, accepted: 4 });
    expect(clean!.lastRefusal).toBe(afterAtomic!.lastRefusal);
    expect(clean!.lastRefusalAt).toBe(afterAtomic!.lastRefusalAt);
  });

  it('counts a batch above the synchronous limit when the worker has ingested it, not before', async () => {
    const before = (await today())!;
    const rows = Array.from({ length: 30 }, (_, i) => ({
      meter: 'H-1',
      timestamp: at(10 + i),
      value: 200 + i,
    }));
    expect((await post(rows)).status).toBe(202);
    expect(await today()).toEqual(before);
    await createJobRunner({ db, logger: pino({ level: 'silent' }) }).drain();
    expect(await today()).toMatchObject({
      batches: before.batches + 1,
      rows: before.rows + 30,
      accepted: before.accepted + 30,
    });
  });

  it('shows the same in `npm run cli -- api-key list`', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      expect(await runIngestCommand('api-key', ['list'], async () => db)).toBe(true);
    } finally {
      log.mockRestore();
    }
    const day = (await today())!;
    const gateway = lines.findIndex((l) => l.includes('"gateway"'));
    expect(lines[gateway + 1]).toBe(
      `  last 7 days: ${day.batches} batches, ${day.rows} rows: ${day.accepted} accepted, ${day.duplicate} duplicate, ` +
        `${day.refused} refused, 0 quarantined; last refused ${day.lastRefusalAt}: ${day.lastRefusal}`,
    );
    const quiet = lines.findIndex((l) => l.includes('"quiet"'));
    expect(lines[quiet + 1]).toBe('  last 7 days: nothing sent');
  });
});
