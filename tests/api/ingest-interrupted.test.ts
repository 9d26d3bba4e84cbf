/**
 * An Idempotency-Key whose synchronous batch was interrupted (the server stopped between storing the key and
 * storing the receipt) is not stuck "pending" for good: while it could still be running a replay answers 202;
 * once it is older than INGEST_SYNC_STALE_SECONDS, GET says "interrupted" and a replay runs it again, answering
 * the rows stored before the stop as duplicates (docs/ingest.md, "Idempotency").
 */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createApiKey } from '../../src/server/ingest/apiKeys.ts';
import { ingestBatch } from '../../src/server/ingest/ingest.ts';
import { createTestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { expectDocumented } from './helpers/openapi.ts';
import { testProperty } from './helpers/property.ts';

let database: Database;
let db: Db;
let server: Server;
let base = '';
let key = '';
let keyId = 0;
let propertyId = 0;

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  const api = await createTestApi(database, { INGEST_SYNC_STALE_SECONDS: '60' });
  const property = await testProperty(db, [{ uniqueId: 'A1', areaM2: '60' }]);
  propertyId = property.propertyId;
  const [point] = await db
    .insert(measurementPoints)
    .values({
      propertyId,
      apartmentId: property.apartmentIds[0]!,
      quantity: 'heat-energy',
      unit: 'x',
      name: 'heat',
      readingKind: 'register',
    })
    .returning();
  await db.insert(meters).values({
    measurementPointId: point!.id,
    number: 'H-1',
    legacyKind: 'energy',
    installedAt: new Date('2020-01-01T00:00:00Z'),
  });
  const made = await createApiKey(db, { name: 'gateway', propertyIds: [propertyId], by: 'test' });
  key = made.key;
  keyId = made.info.id;
  server = createAppServer({ services: api.services });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
});

const rows = [
  { meter: 'H-1', timestamp: '2025-01-10T00:00:00Z', value: '100' },
  { meter: 'H-1', timestamp: '2025-01-10T01:00:00Z', value: '101' },
];

/** POST /readings, its answer checked against docs/ingest.openapi.yaml. */
const post = async (body: string, idem: string) => {
  const res = await fetch(`${base}/api/ingest/v1/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'idempotency-key': idem },
    body,
  });
  await expectDocumented('POST', '/readings', res);
  return res;
};

/** A batch's state (pending, interrupted or its receipt), checked against the document. */
const getBatch = async (id: number) => {
  const res = await fetch(`${base}/api/ingest/v1/batches/${id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await expectDocumented('GET', '/batches/{id}', res);
  return res.json();
};

async function storedCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM register_readings`);
  return Number(row!.n);
}

/**
 * The state a stop mid-batch leaves: the key's row pending (no rows kept: a synchronous batch), and the first
 * reading already committed by an earlier part.
 */
async function interruptedBatch(idem: string, body: string, ageSeconds: number): Promise<number> {
  await ingestBatch(
    db,
    [{ line: 1, meterNumber: rows[0]!.meter, ts: rows[0]!.timestamp, value: rows[0]!.value }],
    { source: `http:key:${keyId}`, propertyIds: [propertyId] },
  );
  const sha = createHash('sha256').update(Buffer.from(body)).digest('hex');
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO ingest_batches (api_key_id, idempotency_key, body_sha256, atomic, row_count, created_at)
        VALUES (${keyId}, ${idem}, ${sha}, false, ${rows.length}, now() - make_interval(secs => ${ageSeconds}))
        RETURNING id`,
  );
  return row!.id;
}

describe('an interrupted idempotent batch', () => {
  it('stays pending while its request could still be running: the replay answers 202 and writes nothing', async () => {
    const body = JSON.stringify(
      rows.map((r) => ({ ...r, timestamp: r.timestamp.replace('2025-01-10', '2025-01-11') })),
    );
    const sha = createHash('sha256').update(Buffer.from(body)).digest('hex');
    const [row] = await queryRows<{ id: number }>(
      db,
      sql`INSERT INTO ingest_batches (api_key_id, idempotency_key, body_sha256, atomic, row_count)
          VALUES (${keyId}, 'running', ${sha}, false, 2) RETURNING id`,
    );
    const before = await storedCount();
    const replay = await post(body, 'running');
    expect(replay.status).toBe(202);
    expect(await replay.json()).toMatchObject({ batch: row!.id, status: 'pending' });
    expect(await getBatch(row!.id)).toMatchObject({ status: 'pending' });
    expect(await storedCount()).toBe(before);
  });

  it('is reported interrupted once stale, and the next replay runs it again, once, with no row written twice', async () => {
    const body = JSON.stringify(rows);
    const id = await interruptedBatch('stopped', body, 120);
    expect(await storedCount()).toBe(1);
    expect(await getBatch(id)).toMatchObject({ batch: id, status: 'interrupted' });

    const other = await post(JSON.stringify([rows[1]]), 'stopped');
    expect(other.status).toBe(422);
    expect(await storedCount()).toBe(1);

    const resumed = await post(body, 'stopped');
    expect(resumed.status).toBe(200);
    const receipt = await resumed.json();
    expect(receipt).toMatchObject({
      batch: id,
      status: 'done',
      resumed: true,
      totals: { rows: 2, accepted: 1, duplicate: 1, refused: 0 },
    });
    expect(receipt.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'accepted']);
    expect(await storedCount()).toBe(2);

    const again = await post(body, 'stopped');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(receipt);
    expect(await getBatch(id)).toEqual(receipt);
    expect(await storedCount()).toBe(2);
  });
});
