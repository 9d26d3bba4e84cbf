/**
 * Refusal codes (src/lib/refusalCodes.ts) over the real HTTP door: every refused row of a receipt carries a stable
 * `code` and the `params` its message needs beside the English `reason` (unchanged), for each kind of refusal the
 * door can give; the key's day keeps the newest refusal's line, code and params, and the console's ApiKeyDay
 * exposes them; `import --json` prints the same receipt.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueTokens } from '../../src/server/auth/login.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../src/server/db/schema.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createApiKey } from '../../src/server/ingest/apiKeys.ts';
import { runIngestCommand } from '../../src/server/ingest/cli.ts';
import { parseReadingsCsv } from '../../src/server/ingest/csv.ts';
import { keyDays } from '../../src/server/ingest/keyActivity.ts';
import { RETENTION_HORIZON_KEY } from '../../src/server/ingest/retention.ts';
import { IngestError } from '../../src/server/ingest/types.ts';
import { drain, receive } from '../../src/server/mqtt/inbox.ts';
import { call } from './helpers/accountsApi.ts';
import { type AdminFixture, seedAdminFixture } from './helpers/adminFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { expectDocumented, expectMatchesSchema } from './helpers/openapi.ts';

let database: Database;
let db: Db;
let api: TestApi;
let fx: AdminFixture;
let server: Server;
let base = '';
let key = { id: 0, key: '' };

async function meter(
  number: string,
  quantity: string,
  kind: 'register' | 'instantaneous',
  installed: string,
  removed?: string,
  radioId?: string,
) {
  const [p] = await db
    .insert(measurementPoints)
    .values({ propertyId: fx.p1, quantity, unit: 'x', name: quantity, readingKind: kind })
    .returning();
  await db.insert(meters).values({
    measurementPointId: p!.id,
    number,
    legacyKind: 'energy',
    installedAt: new Date(installed),
    removedAt: removed ? new Date(removed) : null,
    radioId: radioId ?? null,
  });
}

/** A console call as P1's organisation admin. */
async function asAdmin<T>(query: string) {
  const token = (
    await issueTokens(database.db, api.services.config, 'admin', api.services.keys.admin, fx.ops.admin1)
  ).token;
  const result = await call<T>(api.admin, query, {}, { token });
  expect(result.errors).toBeUndefined();
  return result.data!;
}

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  fx = await seedAdminFixture(db);
  api = await createTestApi(database);
  await meter('H-1', 'heat-energy', 'register', '2019-01-01T00:00:00Z');
  await meter('H-2', 'heat-energy', 'register', '2019-01-01T00:00:00Z');
  await meter('T-1', 'indoor-temperature', 'instantaneous', '2019-01-01T00:00:00Z');
  await meter('H-OLD', 'heat-energy', 'register', '2019-01-01T00:00:00Z', '2024-01-01T00:00:00Z');
  // Raw readings before 2021 were removed (READING_RETENTION_YEARS): older ones are refused.
  await db.execute(
    sql`INSERT INTO app_meta (key, value) VALUES (${RETENTION_HORIZON_KEY}, '2021-01-01T00:00:00Z')`,
  );
  const made = await createApiKey(db, { name: 'gateway', propertyIds: [fx.p1], by: 'test' });
  key = { id: made.info.id, key: made.key };
  server = createAppServer({ services: api.services });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
});

type Row = { line: number; status: string; reason?: string; code?: string; params?: unknown };

async function post(rows: unknown[], query = '') {
  const res = await fetch(`${base}/api/ingest/v1/readings${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
    body: JSON.stringify(rows),
  });
  expect(res.status).toBe(200);
  await expectDocumented('POST', '/readings', res);
  return (await res.json()) as { written: boolean; results: Row[] };
}

const refusedOf = (results: Row[]) =>
  Object.fromEntries(
    results.filter((r) => r.status === 'refused').map((r) => [r.line, { code: r.code, params: r.params }]),
  );

describe('a receipt names each refusal with a code and its params', () => {
  it('refusals of rows on their own, against the batch and against the retention horizon', async () => {
    const receipt = await post([
      { meter: 'NOPE', timestamp: '2025-01-10T00:00:00Z', value: 1 },
      { meter: 'H-1', timestamp: 'yesterday', value: 1 },
      { meter: 'H-1', timestamp: '1999-12-31T23:00:00Z', value: 1 },
      { meter: 'H-1', timestamp: '2099-01-01T00:00:00Z', value: 1 },
      { meter: 'H-1', timestamp: '2025-01-10T01:00:00Z', value: 'abc' },
      { meter: 'H-1', timestamp: '2025-01-10T02:00:00Z', value: '1234567890123' },
      { meter: 'H-1', timestamp: '2025-01-10T03:00:00Z', value: '1.1234567' },
      { meter: 'H-1', timestamp: '2025-01-10T04:00:00Z', value: '-1' },
      { meter: 'T-1', timestamp: '2025-01-10T00:00:00Z', value: '95.5' },
      { meter: 'H-OLD', timestamp: '2025-01-10T00:00:00Z', value: 1 },
      { meter: 'H-1', timestamp: '2025-01-10T00:00:00Z', value: 100 },
      { meter: 'H-1', timestamp: '2025-01-10T00:00:00Z', value: 101 },
      { meter: 'H-1\u0000', timestamp: '2025-01-10T00:00:00Z', value: 1 },
      { meter: 'H-1', timestamp: '2020-06-01T00:00:00Z', value: 50 },
    ]);
    expect(receipt.written).toBe(true);
    expect(receipt.results.find((r) => r.line === 11)).toEqual({ line: 11, status: 'accepted' });
    expect(refusedOf(receipt.results)).toEqual({
      1: { code: 'unknown_meter', params: { meter: 'NOPE' } },
      2: { code: 'invalid_timestamp', params: { timestamp: 'yesterday' } },
      3: { code: 'timestamp_before_2000', params: { timestamp: '1999-12-31T23:00:00Z' } },
      4: { code: 'timestamp_in_future', params: { timestamp: '2099-01-01T00:00:00Z' } },
      5: { code: 'not_a_number', params: { value: 'abc' } },
      6: { code: 'too_many_integer_digits', params: { value: '1234567890123', maxDigits: 12 } },
      7: { code: 'too_many_fraction_digits', params: { value: '1.1234567', maxDigits: 6 } },
      8: { code: 'negative_register', params: { value: '-1' } },
      9: {
        code: 'out_of_range',
        params: { value: '95.5', min: -40, max: 70, quantity: 'indoor-temperature' },
      },
      10: {
        code: 'outside_installation',
        params: {
          meter: 'H-OLD',
          timestamp: '2025-01-10T00:00:00Z',
          installedAt: '2019-01-01T00:00:00.000Z',
          removedAt: '2024-01-01T00:00:00.000Z',
        },
      },
      12: {
        code: 'conflicting_value_in_batch',
        params: {
          meter: 'H-1',
          timestamp: '2025-01-10T00:00:00Z',
          value: '101',
          otherValue: '100',
          otherLine: 11,
        },
      },
      13: { code: 'null_byte', params: {} },
      14: {
        code: 'before_retention',
        params: { timestamp: '2020-06-01T00:00:00Z', horizon: '2021-01-01T00:00:00.000Z' },
      },
    });
    // The English reasons are as they were.
    expect(receipt.results[0]!.reason).toBe('unknown meter number "NOPE"');
    expect(receipt.results[13]!.reason).toBe(
      'timestamp 2020-06-01T00:00:00Z is before 2021-01-01T00:00:00.000Z: raw readings that old were removed (READING_RETENTION_YEARS)',
    );
  });

  it('refusals against stored readings and the quarantine', async () => {
    const stored = await post([{ meter: 'H-1', timestamp: '2025-01-10T00:00:00Z', value: 102 }]);
    expect(refusedOf(stored.results)).toEqual({
      1: { code: 'conflicts_with_stored', params: { meter: 'H-1', storedValue: '100' } },
    });
    // A digit shift is held back as suspect; another value for its time waits for the operator's decision.
    const held = await post([
      { meter: 'H-2', timestamp: '2025-01-10T00:00:00Z', value: 5455 },
      { meter: 'H-2', timestamp: '2025-01-10T01:00:00Z', value: 5456 },
      { meter: 'H-2', timestamp: '2025-01-10T02:00:00Z', value: '545.6' },
      { meter: 'H-2', timestamp: '2025-01-10T03:00:00Z', value: 5458 },
    ]);
    const issue = (held.results[2] as Row & { issue: number }).issue;
    expect(held.results[2]).toMatchObject({ status: 'quarantined', issue: expect.any(Number) });
    const pending = await post([{ meter: 'H-2', timestamp: '2025-01-10T02:00:00Z', value: 5457 }]);
    expect(refusedOf(pending.results)).toEqual({
      1: { code: 'quarantine_pending', params: { issueId: issue } },
    });
  });

  it('an atomic batch: the good rows kept out are not_written_atomic', async () => {
    const receipt = await post(
      [
        { meter: 'H-1', timestamp: '2025-01-11T00:00:00Z', value: 200 },
        { meter: 'NOPE', timestamp: '2025-01-11T00:00:00Z', value: 1 },
      ],
      '?atomic=1',
    );
    expect(receipt.written).toBe(false);
    expect(receipt.results).toEqual([
      {
        line: 1,
        status: 'refused',
        reason: 'not written: another row of this atomic batch was refused',
        code: 'not_written_atomic',
        params: {},
      },
      {
        line: 2,
        status: 'refused',
        reason: 'unknown meter number "NOPE"',
        code: 'unknown_meter',
        params: { meter: 'NOPE' },
      },
    ]);
  });

  it('a CSV file: a wrong header and a malformed file are coded too', () => {
    const header = (() => {
      try {
        parseReadingsCsv('meter,ts,value\nH-1,2025-01-10T00:00:00Z,1\n');
      } catch (err) {
        return (err as IngestError).problems;
      }
    })();
    expect(header).toEqual([
      {
        line: 1,
        reason: 'expected the header "meter_number,timestamp,value", got "meter,ts,value"',
        code: 'bad_csv_header',
        params: { expected: 'meter_number,timestamp,value', got: 'meter,ts,value' },
      },
    ]);
    const malformed = (() => {
      try {
        parseReadingsCsv('meter_number,timestamp,value\nH-1,"2025-01-10T00:00:00Z,1\n');
      } catch (err) {
        expect(err).toBeInstanceOf(IngestError);
        return (err as IngestError).problems;
      }
    })();
    expect(malformed).toMatchObject([{ code: 'malformed_csv', params: { message: expect.any(String) } }]);
    expect(malformed![0]!.reason).toBe(
      `malformed CSV: ${(malformed![0]!.params as { message: string }).message}`,
    );
  });

  it('a CSV body with a wrong header: the 400 names the line with its code', async () => {
    const res = await fetch(`${base}/api/ingest/v1/readings`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${key.key}` },
      body: 'meter,ts,value\nH-1,2025-01-10T00:00:00Z,1\n',
    });
    expect(res.status).toBe(400);
    await expectDocumented('POST', '/readings', res);
    expect(await res.json()).toEqual({
      error: {
        code: 'MALFORMED_CSV',
        message: 'line 1: expected the header "meter_number,timestamp,value", got "meter,ts,value"',
        problems: [
          {
            line: 1,
            code: 'bad_csv_header',
            params: { expected: 'meter_number,timestamp,value', got: 'meter,ts,value' },
            reason: 'expected the header "meter_number,timestamp,value", got "meter,ts,value"',
          },
        ],
      },
    });
  });

  it('`import --json` prints the same codes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codes-'));
    const file = join(dir, 'readings.csv');
    writeFileSync(
      file,
      'meter_number,timestamp,value\nH-1,2025-01-12T00:00:00Z,300\nGHOST,2025-01-12T00:00:00Z,1\n',
    );
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      await runIngestCommand('import', [file, '--json', '--partial'], async () => db);
    } finally {
      log.mockRestore();
    }
    const printed = JSON.parse(lines.join('\n')) as { results: Row[] };
    // The same receipt as the HTTP API's, as docs/ingest.md says.
    await expectMatchesSchema('Receipt', printed);
    expect(printed.results).toEqual([
      { line: 2, status: 'accepted' },
      {
        line: 3,
        status: 'refused',
        reason: 'unknown meter number "GHOST"',
        code: 'unknown_meter',
        params: { meter: 'GHOST' },
      },
    ]);
  });
});

describe("the key's day keeps the newest refusal's line, code and params", () => {
  const ApiKeyDays = `{ apiKeys { name activity { lastRefusal lastRefusalLine lastRefusalCode lastRefusalParams } } }`;

  async function consoleDays() {
    const data = await asAdmin<{ apiKeys: { name: string; activity: Record<string, unknown>[] }[] }>(
      ApiKeyDays,
    );
    return data.apiKeys.find((k) => k.name === 'gateway')!.activity;
  }

  it('stores them with the English text, shows them on ApiKeyDay, keeps them through a clean batch', async () => {
    await post([
      { meter: 'H-1', timestamp: '2025-01-13T00:00:00Z', value: 400 },
      { meter: 'H-1', timestamp: '2025-01-13T01:00:00Z', value: '-3' },
    ]);
    const [day] = await keyDays(db, [key.id], 7);
    expect(day).toMatchObject({
      lastRefusal: 'line 2: value -3 is negative; a register never is',
      lastRefusalLine: 2,
      lastRefusalCode: 'negative_register',
      lastRefusalParams: { value: '-3' },
    });
    expect(await consoleDays()).toEqual([
      {
        lastRefusal: 'line 2: value -3 is negative; a register never is',
        lastRefusalLine: 2,
        lastRefusalCode: 'negative_register',
        lastRefusalParams: { value: '-3' },
      },
    ]);
    // An atomic batch: the refused row's code, not the kept-out rows' not_written_atomic.
    await post(
      [
        { meter: 'H-1', timestamp: '2025-01-13T02:00:00Z', value: 402 },
        { meter: 'H-1', timestamp: '2025-01-13T03:00:00Z', value: 'x' },
      ],
      '?atomic=1',
    );
    const [atomic] = await keyDays(db, [key.id], 7);
    expect(atomic).toMatchObject({
      lastRefusalLine: 2,
      lastRefusalCode: 'not_a_number',
      lastRefusalParams: { value: 'x' },
    });
    // A clean batch keeps the day's newest refusal whole.
    await post([{ meter: 'H-1', timestamp: '2025-01-13T04:00:00Z', value: 404 }]);
    const [clean] = await keyDays(db, [key.id], 7);
    expect(clean).toMatchObject({
      lastRefusal: atomic!.lastRefusal,
      lastRefusalAt: atomic!.lastRefusalAt,
      lastRefusalLine: 2,
      lastRefusalCode: 'not_a_number',
      lastRefusalParams: { value: 'x' },
    });
  });

  it('a day stored before codes were (code null) keeps its English text alone', async () => {
    await db.execute(
      sql`UPDATE api_key_days SET last_refusal_line = NULL, last_refusal_code = NULL, last_refusal_params = NULL
          WHERE api_key_id = ${key.id}`,
    );
    const [day] = await consoleDays();
    expect(day).toMatchObject({ lastRefusalLine: null, lastRefusalCode: null, lastRefusalParams: null });
    expect(day!.lastRefusal).toMatch(/^line 2: value "x" is not a number$/);
  });
});

describe("the console's untaken telegrams carry the detail's code and params", () => {
  it('no_value, refused and malformed, from the drain; a row stored before codes has its English detail only', async () => {
    await meter('W-R', 'cold-water-volume', 'register', '2019-01-01T00:00:00Z', undefined, '22220001');
    await meter('H-R', 'heat-energy', 'register', '2019-01-01T00:00:00Z', undefined, '22220002');
    await receive(
      db,
      'wmbusmeters/flat',
      JSON.stringify({ id: '22220001', total_energy_consumption_kwh: 1, timestamp: '2025-03-01T00:00:00Z' }),
    );
    await receive(
      db,
      'wmbusmeters/flat',
      JSON.stringify({ id: '22220002', total_energy_consumption_kwh: -5, timestamp: '2025-03-01T00:00:00Z' }),
    );
    await receive(
      db,
      'wmbusmeters/flat',
      JSON.stringify({ id: '22220002', total_energy_consumption_kwh: 1 }),
    );
    await drain(db);
    const query = `{ dataQualityQueue { untakenTelegrams { meterNumber reason detail detailCode detailParams } } }`;
    type Untaken = { meterNumber: string; reason: string; detailCode: string | null; detailParams: unknown };
    const untaken = async () =>
      (
        await asAdmin<{ dataQualityQueue: { untakenTelegrams: Untaken[] } }>(query)
      ).dataQualityQueue.untakenTelegrams
        .map(({ meterNumber, reason, detailCode, detailParams }) => ({
          meterNumber,
          reason,
          detailCode,
          detailParams,
        }))
        .sort((a, b) => `${a.meterNumber}${a.reason}`.localeCompare(`${b.meterNumber}${b.reason}`));
    expect(await untaken()).toEqual([
      {
        meterNumber: 'H-R',
        reason: 'malformed',
        detailCode: 'malformed',
        detailParams: { message: 'no "timestamp" with a UTC offset' },
      },
      {
        meterNumber: 'H-R',
        reason: 'refused',
        detailCode: 'negative_register',
        detailParams: { value: '-5' },
      },
      {
        meterNumber: 'W-R',
        reason: 'no_value',
        detailCode: 'no_value',
        detailParams: { meter: 'W-R', quantity: 'cold-water-volume', fields: ['total_m3'] },
      },
    ]);
    await db.execute(
      sql`UPDATE mqtt_unmatched SET last_code = NULL, last_params = NULL WHERE radio_id = '22220001'`,
    );
    expect((await untaken()).find((u) => u.meterNumber === 'W-R')).toEqual({
      meterNumber: 'W-R',
      reason: 'no_value',
      detailCode: null,
      detailParams: null,
    });
  });
});
