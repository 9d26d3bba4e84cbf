/**
 * Serving the metrics of metrics.ts, and the HTTP side of observability:
 * - GET /metrics on the app's port only with `Authorization: Bearer <METRICS_TOKEN>` (404 when no token is set,
 *   401 with a wrong one), or without a token on a private listener (METRICS_PORT on METRICS_HOST);
 * - the request histogram (`trackHttpRequest`) and the access log (pino-http), whose request id is kept from a
 *   plain `x-request-id` or made up, handed to the GraphQL backends through that header (graphql/yoga.ts) and
 *   sent back in the response's `x-request-id`.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { queryRows } from './db/sql.ts';
import { getMetrics } from './metrics.ts';
import { isPlainRequestId } from './requestScope.ts';

/** What serving /metrics needs. */
export interface MetricsServices {
  config: ServerConfig;
  database: Database;
  logger: Logger;
}

export const METRICS_PATH = '/metrics';

/** Whether a request on the app's port may read /metrics: `off` (no token set), `denied` or `allowed`. */
export function metricsAccess(
  req: IncomingMessage,
  config: Pick<ServerConfig, 'METRICS_TOKEN'>,
): 'off' | 'denied' | 'allowed' {
  const token = config.METRICS_TOKEN;
  if (!token) return 'off';
  const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b) ? 'allowed' : 'denied';
}

interface QueueRow extends Record<string, unknown> {
  task: string;
  pending: number;
  due: number;
  retrying: number;
  failed: number;
  lag: number | null;
}

/** Sets the gauges read from the database: the job queue, PostgreSQL's sessions, PGlite's waits. */
async function collectFromDatabase({ database, config }: MetricsServices): Promise<void> {
  const m = getMetrics();
  const { db } = database;
  // Both index ranges of jobs_due_idx (status, run_at); finished jobs are not read.
  const queue = await queryRows<QueueRow>(
    db,
    sql`SELECT task,
          count(*) FILTER (WHERE status = 'pending')::int AS pending,
          count(*) FILTER (WHERE status = 'pending' AND run_at <= now())::int AS due,
          count(*) FILTER (WHERE status = 'pending' AND attempts > 0)::int AS retrying,
          count(*) FILTER (WHERE status = 'failed')::int AS failed,
          extract(epoch FROM now() - min(run_at) FILTER (WHERE status = 'pending' AND run_at <= now()))::float8 AS lag
        FROM jobs WHERE status IN ('pending', 'failed') GROUP BY task`,
  );
  for (const gauge of [m.jobsPending, m.jobsDue, m.jobsRetrying, m.jobsFailed, m.jobsLag]) gauge.reset();
  for (const row of queue) {
    const labels = { task: row.task };
    m.jobsPending.set(labels, Number(row.pending));
    m.jobsDue.set(labels, Number(row.due));
    m.jobsRetrying.set(labels, Number(row.retrying));
    m.jobsFailed.set(labels, Number(row.failed));
    m.jobsLag.set(labels, Number(row.lag ?? 0));
  }
  if (database.engine === 'postgres') {
    m.dbPoolMax.set(config.DATABASE_POOL_SIZE);
    const sessions = await queryRows<{ state: string | null; n: number }>(
      db,
      sql`SELECT state, count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND backend_type = 'client backend' GROUP BY state`,
    );
    m.pgConnections.reset();
    for (const s of sessions) m.pgConnections.set({ state: s.state ?? 'unknown' }, Number(s.n));
  } else {
    m.dbPoolMax.set(1);
    await database.recordWaits?.();
  }
}

/** Answers a metrics scrape: the database's gauges, then every metric in Prometheus's text format. */
export async function sendMetrics(services: MetricsServices, res: ServerResponse): Promise<void> {
  const { registry } = getMetrics();
  try {
    await collectFromDatabase(services);
  } catch (err) {
    // The process's own metrics still go out; the queue gauges keep their last values.
    services.logger.warn({ err }, 'metrics: reading the database failed');
  }
  const text = await registry.metrics();
  res.writeHead(200, {
    'content-type': registry.contentType,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/**
 * The private metrics listener (METRICS_PORT on METRICS_HOST): GET /metrics without a token, nothing else.
 * Returns null when no port is configured; close it with the app.
 */
export async function startMetricsServer(services: MetricsServices): Promise<Server | null> {
  const { config } = services;
  if (config.METRICS_PORT === undefined) return null;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === METRICS_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      void sendMetrics(services, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.METRICS_HOST, resolve);
  });
  server.unref();
  return server;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/** Observes the request's duration when its response ends (or `aborted` when the client went first). */
export function trackHttpRequest(req: IncomingMessage, res: ServerResponse, route: string): void {
  const started = performance.now();
  const method = METHODS.has(req.method ?? '') ? (req.method as string) : 'other';
  res.once('close', () => {
    const status = res.writableFinished ? String(res.statusCode) : 'aborted';
    getMetrics().httpDuration.observe({ method, route, status }, (performance.now() - started) / 1000);
  });
}

/** The access log's request id: a plain `x-request-id` from the caller (or its proxy) is kept, else a new UUID. */
function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && isPlainRequestId(given) ? given : randomUUID();
  // The GraphQL backends read the id from this header, so their log lines carry the same one.
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  return id;
}

/**
 * The access log: one line per request when its response ends, with the request id, method, path without the query
 * (queries may carry tokens), status and time; headers are never logged. 5xx at error level, the rest at info.
 * With ACCESS_LOG=0 the request id is still given, without the log line.
 */
export function accessLog(
  logger: Logger,
  config: Pick<ServerConfig, 'ACCESS_LOG'>,
): (req: IncomingMessage, res: ServerResponse) => void {
  if (config.ACCESS_LOG === '0') return (req, res) => void requestIdFor(req, res);
  const log = pinoHttp({
    logger: logger.child({ component: 'http' }),
    genReqId: requestIdFor,
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: (req.url ?? '/').split('?')[0] }),
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
  });
  return (req, res) => log(req, res);
}
