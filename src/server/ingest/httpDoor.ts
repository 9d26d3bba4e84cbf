/**
 * The HTTP door of ingestion (docs/ingest.md, docs/ingest.openapi.yaml):
 *   POST /api/ingest/v1/readings     JSON `[{meter, timestamp, value}]` or CSV, optionally gzip; a per-row receipt
 *   GET  /api/ingest/v1/batches/{id} the receipt of a batch answered with 202
 *   POST /api/ingest/v1/swaps        a meter swap with the old meter's end and the new one's start reading
 * Authorization: Bearer <operator API key>; every answer is JSON, errors as {error: {code, message}}.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { enqueue } from '../jobs/queue.ts';
import { authenticateApiKey, consumeKeyRequest } from './apiKeys.ts';
import { ingestBatchTask, inPartOrder, receiptBody } from './batchTask.ts';
import { csvInWorker, parseReadingsCsv } from './csv.ts';
import { ingestGrouped } from './groupCommit.ts';
import { ingestBatch } from './ingest.ts';
import { DataIssueError, recordSwap } from './issues.ts';
import { recordKeyActivity } from './keyActivity.ts';
import { PGLITE_INGEST_YIELD, POSTGRES_INGEST_YIELD } from './people.ts';
import { IngestError, type ReadingRow } from './types.ts';

export const INGEST_PREFIX = '/api/ingest/v1/';

type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More of the error's body: MALFORMED_CSV's refused lines with their codes. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Reads the body up to `limit` bytes; a larger one is a 413 (and the connection closes). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(new HttpError(413, 'BODY_TOO_LARGE', `The body is larger than ${limit} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpError(413, 'BODY_TOO_LARGE', `The body is larger than ${limit} bytes`));
        req.removeAllListeners('data');
        req.resume();
      } else chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => resolve(Buffer.concat(chunks)));
  });
}

function decompress(body: Buffer, encoding: string | undefined, limit: number): Promise<Buffer> {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  if (enc === 'identity' || enc === '') return Promise.resolve(body);
  if (enc !== 'gzip') {
    throw new HttpError(415, 'UNSUPPORTED_ENCODING', `Content-Encoding "${enc}" is not supported; use gzip`);
  }
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: limit }, (err, out) => {
      if (!err) resolve(out);
      else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        reject(new HttpError(413, 'BODY_TOO_LARGE', `The decompressed body is larger than ${limit} bytes`));
      } else reject(new HttpError(400, 'BAD_GZIP', `The body is not valid gzip: ${err.message}`));
    });
  });
}

/** JSON rows: an array of {meter, timestamp, value}; the line of a row is its index + 1. */
function parseJsonRows(text: string): ReadingRow[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, 'MALFORMED_JSON', `The body is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) {
    throw new HttpError(400, 'MALFORMED_JSON', 'The body must be a JSON array of {meter, timestamp, value}');
  }
  return value.map((item, i) => {
    const o = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
    return { line: i + 1, meterNumber: text(o.meter), ts: text(o.timestamp), value: text(o.value) };
  });
}

/**
 * Bodies from this size on are parsed in the CSV worker thread (csvInWorker): a 1,000-row batch, about 50 kB,
 * takes csv-parse about 4 ms. Smaller ones are parsed in place, where the round trip to the worker would cost
 * more than it saves.
 */
const CSV_WORKER_MIN_BYTES = 16 * 1024;

async function parseRows(body: Buffer, contentType: string): Promise<ReadingRow[]> {
  if (/\bjson\b/i.test(contentType)) return parseJsonRows(body.toString('utf8'));
  if (/\btext\/csv\b/i.test(contentType)) {
    try {
      return body.length >= CSV_WORKER_MIN_BYTES
        ? await csvInWorker(body)
        : parseReadingsCsv(body.toString('utf8'));
    } catch (err) {
      if (err instanceof IngestError) {
        throw new HttpError(
          400,
          'MALFORMED_CSV',
          err.problems.map((p) => `line ${p.line}: ${p.reason}`).join('; '),
          {},
          {
            problems: err.problems.map((p) => ({
              line: p.line,
              code: p.code,
              params: p.params,
              reason: p.reason,
            })),
          },
        );
      }
      throw err;
    }
  }
  throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json or text/csv');
}

async function authenticate(db: Db, config: ServerConfig, req: IncomingMessage) {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const key = match ? await authenticateApiKey(db, match[1]!) : null;
  if (!key) {
    throw new HttpError(401, 'UNAUTHENTICATED', 'A valid API key is required (Authorization: Bearer <key>)', {
      'www-authenticate': 'Bearer',
    });
  }
  const waitMs = await consumeKeyRequest(db, key.id, config.INGEST_KEY_RATE_LIMIT);
  if (waitMs > 0) {
    throw new HttpError(
      429,
      'RATE_LIMITED',
      `Too many requests for this key; retry in ${Math.ceil(waitMs / 1000)} s`,
      {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      },
    );
  }
  return key;
}

async function postReadings(
  db: Db,
  config: ServerConfig,
  req: IncomingMessage,
  url: URL,
  send: Send,
  { parallel, yieldFactor }: { parallel: number; yieldFactor: number },
) {
  const key = await authenticate(db, config, req);
  const raw = await readBody(req, config.INGEST_MAX_BODY_BYTES);
  const body = await decompress(raw, req.headers['content-encoding'], config.INGEST_MAX_DECOMPRESSED_BYTES);
  const atomic = ['1', 'true'].includes(url.searchParams.get('atomic') ?? '');
  const rows = await parseRows(body, req.headers['content-type'] ?? '');
  if (rows.length > config.INGEST_MAX_ROWS) {
    throw new HttpError(413, 'TOO_MANY_ROWS', `At most ${config.INGEST_MAX_ROWS} rows per batch`);
  }
  const idemHeader = req.headers['idempotency-key'];
  const idem = typeof idemHeader === 'string' && idemHeader.trim() ? idemHeader.trim() : null;
  if (idem !== null && idem.length > 200) {
    throw new HttpError(400, 'BAD_IDEMPOTENCY_KEY', 'Idempotency-Key is at most 200 characters');
  }
  const bodySha = createHash('sha256')
    .update(body)
    .update(atomic ? '\0atomic' : '')
    .digest('hex');
  const async = rows.length > config.INGEST_SYNC_MAX_ROWS;
  const source = `http:key:${key.id}`;
  if (idem === null && !async) {
    const receipt = receiptBody(
      null,
      atomic,
      await runSync(db, rows, atomic, source, key.propertyIds, {
        chunkRows: config.INGEST_CHUNK_ROWS,
        parallel,
        yieldFactor,
      }),
      rows,
    );
    await countForKey(db, key.id, receipt);
    send(200, receipt);
    return;
  }
  // A batch row: the idempotency record, and for a large batch its rows until the worker ingests them.
  const [created] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO ingest_batches (api_key_id, idempotency_key, body_sha256, atomic, row_count, rows)
        VALUES (${key.id}, ${idem}, ${bodySha}, ${atomic}, ${rows.length},
          ${async ? JSON.stringify(atomic ? rows : inPartOrder(rows)) : null}::jsonb)
        ON CONFLICT (api_key_id, idempotency_key) DO NOTHING RETURNING id`,
  );
  let batchId = created?.id;
  let resumed = false;
  if (!created) {
    const [first] = await queryRows<{
      id: number;
      body_sha256: string;
      status: string;
      receipt: unknown;
      interrupted: boolean;
      created_at: string;
    }>(
      db,
      sql`SELECT id, body_sha256, status, receipt, created_at::text AS created_at,
            (status = 'pending' AND rows IS NULL
              AND created_at < now() - make_interval(secs => ${config.INGEST_SYNC_STALE_SECONDS})) AS interrupted
          FROM ingest_batches WHERE api_key_id = ${key.id} AND idempotency_key = ${idem}`,
    );
    if (first!.body_sha256 !== bodySha) {
      throw new HttpError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another body');
    }
    if (first!.status !== 'pending') {
      send(200, first!.receipt, { 'idempotent-replayed': 'true' });
      return;
    }
    // A synchronous batch still pending long after any request could have lasted was interrupted (the process
    // stopped mid-batch). This replay takes it over, once: rows stored before the stop come back as duplicates.
    const claimed = first!.interrupted
      ? await queryRows<{ id: number }>(
          db,
          sql`UPDATE ingest_batches SET created_at = now()
              WHERE id = ${first!.id} AND status = 'pending' AND created_at::text = ${first!.created_at}
              RETURNING id`,
        )
      : [];
    if (claimed.length === 0) {
      send(202, pendingBody(first!.id), { location: batchPath(first!.id) });
      return;
    }
    batchId = first!.id;
    resumed = true;
  }
  if (async) {
    await enqueue(
      db,
      ingestBatchTask,
      { batchId: batchId!, partRows: config.INGEST_CHUNK_ROWS, yieldFactor },
      new Date(),
    );
    send(202, pendingBody(batchId!), { location: batchPath(batchId!) });
    return;
  }
  let receipt: ReturnType<typeof receiptBody> & { resumed?: true };
  try {
    receipt = {
      ...receiptBody(
        batchId!,
        atomic,
        await runSync(db, rows, atomic, source, key.propertyIds, {
          chunkRows: config.INGEST_CHUNK_ROWS,
          parallel,
          yieldFactor,
        }),
        rows,
      ),
      ...(resumed ? { resumed: true } : {}),
    };
  } catch (err) {
    // A first run that failed wrote nothing (or, when not atomic, only whole parts that a resend reports as
    // duplicates): the key may be used again.
    if (!resumed) await db.execute(sql`DELETE FROM ingest_batches WHERE id = ${batchId!}`);
    throw err;
  }
  await db.execute(sql`UPDATE ingest_batches SET status = 'done', receipt = ${JSON.stringify(receipt)}::jsonb,
    finished_at = now() WHERE id = ${batchId!}`);
  await countForKey(db, key.id, receipt);
  send(200, receipt);
}

/**
 * Counts an answered batch on its key's day (keyActivity.ts), for the console. The batch is committed by now, so a
 * failure here is logged and the receipt still sent: the client must not send again what is stored.
 */
async function countForKey(db: Db, keyId: number, receipt: ReturnType<typeof receiptBody>) {
  try {
    await recordKeyActivity(db, keyId, receipt);
  } catch (err) {
    console.error('api key activity not counted', err);
  }
}

/** Runs a batch; an atomic batch with refused rows answers its receipt of refusals (nothing written). */
async function runSync(
  db: Db,
  rows: ReadingRow[],
  atomic: boolean,
  source: string,
  propertyIds: number[],
  lane: { chunkRows: number; parallel: number; yieldFactor: number },
) {
  // Batches of one key that arrive while one of its batches is ingested are committed together (groupCommit.ts),
  // in transactions of about chunkRows rows, up to `parallel` transactions at once.
  if (!atomic) {
    return ingestGrouped(db, `${source}:${propertyIds.join(',')}`, rows, { source, propertyIds, ...lane });
  }
  try {
    return await ingestBatch(db, rows, { atomic, source, propertyIds });
  } catch (err) {
    if (err instanceof IngestError && atomic) return err;
    throw err;
  }
}

const batchPath = (id: number) => `${INGEST_PREFIX}batches/${id}`;
const pendingBody = (id: number) => ({ batch: id, status: 'pending', href: batchPath(id) });

async function getBatch(db: Db, config: ServerConfig, req: IncomingMessage, id: number, send: Send) {
  const key = await authenticate(db, config, req);
  const [batch] = await queryRows<{ status: string; receipt: unknown; interrupted: boolean }>(
    db,
    sql`SELECT status, receipt, (status = 'pending' AND rows IS NULL
          AND created_at < now() - make_interval(secs => ${config.INGEST_SYNC_STALE_SECONDS})) AS interrupted
        FROM ingest_batches WHERE id = ${id} AND api_key_id = ${key.id}`,
  );
  if (!batch) throw new HttpError(404, 'NOT_FOUND', `No batch ${id} of this key`);
  if (batch.interrupted) {
    send(200, {
      batch: id,
      status: 'interrupted',
      message:
        'The server stopped while this batch was stored. Send the same request with the same Idempotency-Key again: rows stored before the stop come back as duplicates.',
    });
  } else if (batch.status === 'pending') send(200, pendingBody(id));
  else send(200, batch.receipt);
}

async function postSwap(db: Db, config: ServerConfig, req: IncomingMessage, send: Send) {
  const key = await authenticate(db, config, req);
  const body = await readBody(req, 100_000);
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new HttpError(400, 'MALFORMED_JSON', 'The body is not valid JSON');
  }
  const str = (name: string, required: boolean) => {
    const v = input?.[name];
    if (v === undefined && !required) return undefined;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    throw new HttpError(400, 'BAD_SWAP', `"${name}" is required (a string)`);
  };
  const meter = str('meter', true)!;
  const [inScope] = await queryRows<{ ok: boolean }>(
    db,
    sql`SELECT true AS ok FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
        WHERE m.number = ${meter} AND p.property_id = ANY(${pgNumberArray(key.propertyIds)}::int[])`,
  );
  if (!inScope) throw new HttpError(422, 'BAD_SWAP', `Unknown meter "${meter}"`);
  try {
    const receipt = await recordSwap(db, {
      meter,
      at: str('at', true)!,
      endValue: str('endValue', false),
      newMeter: str('newMeter', true)!,
      startValue: str('startValue', true)!,
      radioId: str('radioId', false),
      source: `http:key:${key.id}`,
    });
    send(200, receiptBody(null, true, receipt, []));
  } catch (err) {
    if (err instanceof DataIssueError) throw new HttpError(422, err.code, err.message);
    throw err;
  }
}

/**
 * INGEST_YIELD, or when unset the engine's default: 5 on PostgreSQL, 30 on PGlite. PostgreSQL runs a tenant's
 * statements beside an ingestion transaction and shares only the cores with it; PGlite's one session makes a
 * request that arrives during a transaction wait for all of it, so there ingestion must hold the session for a
 * much smaller share of the time while people use the app (docs/decisions.md, session 16).
 */
export function ingestYield(
  config: Pick<ServerConfig, 'INGEST_YIELD'>,
  engine: 'pglite' | 'postgres',
): number {
  return config.INGEST_YIELD ?? (engine === 'pglite' ? PGLITE_INGEST_YIELD : POSTGRES_INGEST_YIELD);
}

/** Handles a request under INGEST_PREFIX; answers 404 for unknown paths. */
export function handleIngestRequest(
  db: Db,
  config: ServerConfig,
  req: IncomingMessage,
  res: ServerResponse,
  engine: 'pglite' | 'postgres',
): void {
  const send: Send = (status, body, headers = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(text);
  };
  const url = new URL(req.url ?? '/', 'http://localhost');
  const rest = url.pathname.slice(INGEST_PREFIX.length);
  const batch = /^batches\/(\d{1,9})$/.exec(rest);
  let work: Promise<void>;
  if (rest === 'readings' && req.method === 'POST')
    // One transaction per key on PGlite (one session); INGEST_LANE_TRANSACTIONS on PostgreSQL.
    work = postReadings(db, config, req, url, send, {
      parallel: engine === 'pglite' ? 1 : config.INGEST_LANE_TRANSACTIONS,
      yieldFactor: ingestYield(config, engine),
    });
  else if (rest === 'swaps' && req.method === 'POST') work = postSwap(db, config, req, send);
  else if (batch && req.method === 'GET') work = getBatch(db, config, req, Number(batch[1]), send);
  else work = Promise.reject(new HttpError(404, 'NOT_FOUND', `No ${req.method} ${url.pathname}`));
  work.catch((err: unknown) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) {
      const close: Record<string, string> = err.status === 413 ? { connection: 'close' } : {};
      send(
        err.status,
        { error: { code: err.code, message: err.message, ...err.details } },
        { ...err.headers, ...close },
      );
    } else {
      send(500, {
        error: { code: 'INTERNAL', message: 'The batch could not be ingested; nothing was written' },
      });
      console.error(err);
    }
  });
}
