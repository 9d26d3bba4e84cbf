/**
 * Observability on the real HTTP server: GET /metrics after a login and a graph (off without a token, refused with
 * a wrong one, open on the private port), the access log, and one request id through the access log, the GraphQL
 * log, a job the request enqueued and that job's log.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { createAppServer } from '../../src/server/http.ts';
import { logTransport } from '../../src/server/jobs/mail.ts';
import { runNextJob } from '../../src/server/jobs/queue.ts';
import { ALL_TASKS } from '../../src/server/jobs/registry.ts';
import { RETRY_SEND_AFTER_MS } from '../../src/server/mail/mailer.ts';
import { ingestRows } from '../../src/server/metrics.ts';
import { startMetricsServer } from '../../src/server/metricsHttp.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, PASSWORD, seedFixture } from './helpers/fixtures.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

let database: Database;
let api: TestApi;
let fx: Fixture;
let server: Server;
let base = '';

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  // Mail to a port nobody listens on: sending fails, so the request enqueues a send-mail job.
  api = await createTestApi(database, { METRICS_TOKEN: TOKEN, SMTP_URL: 'smtp://127.0.0.1:9' });
  server = createAppServer({ services: api.services });
  base = await listen(server);
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await database?.close();
});

async function post(path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { res, body: (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] } };
}

async function scrape(url = `${base}/metrics`, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** The value of one sample line (`name{labels} value`), or undefined when the exposition has none. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    const parts = inner.split(',');
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics on the app port', () => {
  it('is refused without the token and with a wrong one, and is off when no token is set', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const off = await createTestApi(database);
    const offServer = createAppServer({ services: off.services });
    const offBase = await listen(offServer);
    try {
      const res = await fetch(`${offBase}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('http_request_duration_seconds');
    } finally {
      offServer.closeAllConnections();
      offServer.close();
    }
  });

  it('counts a login and a graph by route, status and operation, and errors by code', async () => {
    const login = await post('/api/tenant/graphql', {
      operationName: 'Login',
      query:
        'mutation Login($e: String!, $p: String!) { loginWithEmailAndPassword(credentials: { email: $e, password: $p, targetResource: "tenant" }) { ok { token } } }',
      variables: { e: fx.users.alice.email, p: PASSWORD },
    });
    expect(login.body.errors).toBeUndefined();
    const tenantToken = (login.body.data?.loginWithEmailAndPassword as { ok: { token: string } } | undefined)
      ?.ok.token;
    const bad = await post('/api/account/graphql', {
      query:
        'mutation BadLogin { tokenAuth(email: "alice@test.test", password: "wrong-password") { token } }',
    });
    expect(bad.body.errors).toHaveLength(1);
    const graph = await post(
      '/api/tenant/graphql',
      {
        query:
          'query Graph($g: TenantGraphInput!) { tenantGraph(graph: $g) { timestamps graphs { consumption { values } } } }',
        variables: {
          g: {
            graphType: 'HOURLY_VALUES',
            resolution: 'DAY',
            periodBegin: '2025-03-01T00:00',
            periodEnd: '2025-03-08T00:00',
            objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
            quantities: ['heat-energy'],
          },
        },
      },
      { authorization: `Bearer ${tenantToken}` },
    );
    expect(graph.res.status).toBe(200);
    ingestRows().inc({ result: 'inserted' }, 3);

    const text = await scrape(`${base}/metrics`, { authorization: `Bearer ${TOKEN}` });
    const route = (r: string) => ({ method: 'POST', route: r, status: '200' });
    expect(
      sample(text, 'http_request_duration_seconds_count', route('/api/account/graphql')),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', route('/api/tenant/graphql')),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/metrics',
        status: '401',
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', {
        backend: 'tenant',
        operation: 'Login',
        type: 'mutation',
      }),
    ).toBe(1);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', {
        backend: 'tenant',
        operation: 'Graph',
        type: 'query',
      }),
    ).toBe(1);
    const badCount = [
      ...text.matchAll(
        /^graphql_errors_total\{backend="account",operation="BadLogin",code="([A-Z_]+)"\} (\d+)$/gm,
      ),
    ];
    expect(badCount).toHaveLength(1);
    expect(sample(text, 'graphql_errors_total', { backend: 'tenant', operation: 'Graph' })).toBeUndefined();
    expect(sample(text, 'ingest_rows_total', { result: 'inserted' })).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^db_pool_max \d+$/m);
    if (testEngine === 'postgres') expect(text).toMatch(/^pg_connections\{state="active"\} [1-9]/m);
    else expect(text).toContain('pglite_session_wait_seconds_count 0');
  });

  it('labels the ingestion and console paths by route, a batch id by its pattern', async () => {
    const readings = await fetch(`${base}/api/ingest/v1/readings`, { method: 'POST', body: '[]' });
    expect(readings.status).toBe(401);
    // Not a batch id at all: 404 before the key is checked, and still the pattern's label.
    const batch = await fetch(`${base}/api/ingest/v1/batches/4c1d2b7e-metrics-test`);
    expect(batch.status).toBe(404);
    const admin = await post('/api/admin/graphql', { query: '{ __typename }' });
    expect(admin.res.status).toBe(200);
    const text = await scrape(`${base}/metrics`, { authorization: `Bearer ${TOKEN}` });
    const count = (method: string, route: string, status: string) =>
      sample(text, 'http_request_duration_seconds_count', { method, route, status });
    expect(count('POST', '/api/ingest/v1/readings', '401')).toBe(1);
    expect(count('GET', '/api/ingest/v1/batches/:id', '404')).toBe(1);
    expect(count('POST', '/api/admin/graphql', '200')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('4c1d2b7e-metrics-test');
  });

  it('reports the job queue per task: depth, lag, retries and failures', async () => {
    await database.db.execute(sql`
      INSERT INTO jobs (task, key, payload, run_at, status, attempts) VALUES
        ('send-mail', 'send-mail:metrics-test-due', '{}', now() - interval '90 seconds', 'pending', 1),
        ('send-mail', 'send-mail:metrics-test-later', '{}', now() + interval '1 hour', 'pending', 0),
        ('daily-sweep', 'daily-sweep:metrics-test-failed', '{}', now(), 'failed', 8)`);
    try {
      const text = await scrape(`${base}/metrics`, { authorization: `Bearer ${TOKEN}` });
      expect(sample(text, 'jobs_pending', { task: 'send-mail' })).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'jobs_due', { task: 'send-mail' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'jobs_retrying', { task: 'send-mail' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'jobs_lag_seconds', { task: 'send-mail' })).toBeGreaterThanOrEqual(89);
      expect(sample(text, 'jobs_failed', { task: 'daily-sweep' })).toBe(1);
    } finally {
      await database.db.execute(sql`DELETE FROM jobs WHERE key LIKE '%:metrics-test-%'`);
    }
  });
});

describe('the private metrics port', () => {
  it('serves /metrics without a token, and nothing else', async () => {
    const open = await createTestApi(database, { METRICS_PORT: '0' });
    const metricsServer = await startMetricsServer(open.services);
    expect(metricsServer).not.toBeNull();
    const url = `http://127.0.0.1:${(metricsServer!.address() as AddressInfo).port}`;
    try {
      expect(await scrape(`${url}/metrics`)).toContain('http_request_duration_seconds');
      expect((await fetch(`${url}/api/health`)).status).toBe(404);
    } finally {
      metricsServer!.close();
    }
    expect(await startMetricsServer((await createTestApi(database)).services)).toBeNull();
  });
});

describe('request ids', () => {
  it('joins the access log, the GraphQL log, the job the request enqueued and its log', async () => {
    const id = 'metrics-test-request-1';
    const reset = await post(
      '/api/account/graphql',
      {
        query: 'mutation ($e: String!) { requestPasswordReset(email: $e) { ok } }',
        variables: { e: fx.users.alice.email },
      },
      { 'x-request-id': id },
    );
    expect(reset.res.headers.get('x-request-id')).toBe(id);
    const access = api.logs.find((l) => l.component === 'http' && l.requestId === id);
    expect(access).toMatchObject({ msg: 'request', req: { method: 'POST', path: '/api/account/graphql' } });
    expect(access?.res).toEqual({ status: 200 });
    expect(JSON.stringify(access)).not.toMatch(/authorization|cookie/i);
    expect(api.logs.find((l) => l.msg === 'password reset requested')?.requestId).toBe(id);

    // The mail goes out in the background with its send-mail job queued; it fails (nothing listens on port 9), so
    // the job takes it over when due.
    let job: { key: string; request_id: string | null } | undefined;
    for (let i = 0; i < 200 && !job; i++) {
      [job] = await queryRows<{ key: string; request_id: string | null }>(
        database.db,
        sql`SELECT key, request_id FROM jobs WHERE task = 'send-mail' AND status = 'pending'`,
      );
      if (!job) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(job?.request_id).toBe(id);

    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const result = await runNextJob(database.db, {
      tasks: new Map(ALL_TASKS.map((t) => [t.name, t])),
      now: new Date(Date.now() + RETRY_SEND_AFTER_MS + 60_000),
      logger,
      mail: { ...logTransport, send: () => Promise.reject(new Error('still no mail server')) },
    });
    expect(result).toMatchObject({ ran: true, task: 'send-mail', status: 'retry' });
    expect(lines.find((l) => l.msg === 'job failed, will retry')).toMatchObject({
      requestId: id,
      job: job?.key,
    });

    const text = await scrape(`${base}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(sample(text, 'job_runs_total', { task: 'send-mail', status: 'retry' })).toBeGreaterThanOrEqual(1);
  });

  it('makes one up when the caller gives none or an unsafe one', async () => {
    const res = await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    const given = res.headers.get('x-request-id');
    expect(given).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.logs.find((l) => l.component === 'http' && l.requestId === given)).toMatchObject({
      req: { method: 'GET', path: '/api/health' },
    });
  });
});
