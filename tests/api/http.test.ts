/**
 * The real HTTP server (src/server/http.ts), in-process on a loopback port: security headers on every kind of
 * response, HSTS only over TLS or a trusted proxy, CORS same-origin unless allow-listed, compression of
 * GraphQL responses, precompressed static files, and the body size limit.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { ServerConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;
let token = '';
let clientDir = '';
const servers: Server[] = [];
const JS = `export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`;

/** Starts the app server (API and static files, no Astro) with config overrides; returns its base URL. */
async function start(overrides: Partial<ServerConfig> = {}): Promise<string> {
  const services = { ...api.services, config: { ...api.services.config, ...overrides } };
  const server = createAppServer({ services, clientDir });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * One request with node:http, so the body arrives as sent (fetch would decompress it). With `pieces`, the
 * request body goes out in that many writes, 20 ms apart.
 */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; pieces?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    const body = options.body ?? '';
    const size = Math.ceil(body.length / (options.pieces ?? 1));
    const send = (at: number) => {
      if (at + size >= body.length) req.end(body.slice(at));
      else {
        req.write(body.slice(at, at + size));
        setTimeout(() => send(at + size), 20);
      }
    };
    send(0);
  });
}

const gqlBody = (query: string, variables: Record<string, unknown> = {}) =>
  JSON.stringify({ query, variables });
const GRAPH =
  'query ($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps graphs { consumption { values } } } }';
const graphVariables = () => ({
  graph: {
    graphType: 'HOURLY_VALUES',
    resolution: 'DAY',
    periodBegin: '2025-02-01T00:00',
    periodEnd: '2025-04-01T00:00',
    objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
    quantities: ['heat-energy'],
  },
});

let base = '';

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  mkdirSync(join(clientDir, '_astro'));
  writeFileSync(join(clientDir, '_astro/app.abc123.js'), JS);
  writeFileSync(join(clientDir, '_astro/app.abc123.js.br'), brotliCompressSync(JS));
  writeFileSync(join(clientDir, '_astro/app.abc123.js.gz'), gzipSync(JS));
  writeFileSync(join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(clientDir, 'help/en'), { recursive: true });
  writeFileSync(join(clientDir, 'help/en/index.html'), '<!doctype html><title>Help</title>');
  base = await start();
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  await database?.close();
});

function expectSecurityHeaders(r: RawResponse) {
  expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(r.headers['content-security-policy']).toMatch(/default-src 'none'/);
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['x-frame-options']).toBe('DENY');
  expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(r.headers['permissions-policy']).toMatch(/camera=\(\)/);
}

describe('security headers', () => {
  it('are on GraphQL responses, the health check, static files and 404s; no HSTS over plain HTTP', async () => {
    const responses = [
      await raw(`${base}/api/tenant/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: gqlBody('{ __typename }'),
      }),
      await raw(`${base}/api/health`),
      await raw(`${base}/_astro/app.abc123.js`),
      await raw(`${base}/api/nothing-here`),
      await raw(`${base}/nothing-here`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 404, 404]);
    for (const r of responses) {
      expectSecurityHeaders(r);
      expect(r.headers['strict-transport-security']).toBeUndefined();
    }
    expect(JSON.parse(responses[1]!.body.toString())).toEqual({ status: 'ok', database: database.engine });
  });

  it('HSTS only when a trusted proxy says the browser came over TLS', async () => {
    const trusting = await start({ TRUST_PROXY: 1 });
    const proxied = await raw(`${trusting}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers['strict-transport-security']).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
    const plain = await raw(`${trusting}/api/health`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY anyone could send the header: it is ignored.
    const untrusted = await raw(`${base}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('CORS', () => {
  const preflight = (url: string, origin: string) =>
    raw(`${url}/api/tenant/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('same origin only by default: another origin gets no CORS headers', async () => {
    const pre = await preflight(base, 'https://evil.example');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const post = await raw(`${base}/api/tenant/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: gqlBody('{ __typename }'),
    });
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an allow-listed origin is allowed, without credentials; others still are not', async () => {
    const url = await start({ CORS_ORIGINS: ['https://partner.example'] });
    const pre = await preflight(url, 'https://partner.example');
    expect(pre.headers['access-control-allow-origin']).toBe('https://partner.example');
    expect(pre.headers['access-control-allow-headers']).toMatch(/authorization/);
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const other = await preflight(url, 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('compression', () => {
  it('GraphQL responses are compressed with brotli or gzip, as the client accepts', async () => {
    for (const [accept, encoding, decode] of [
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const r = await raw(`${base}/api/tenant/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'accept-encoding': accept,
        },
        body: gqlBody(GRAPH, graphVariables()),
      });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(encoding);
      const body = JSON.parse(decode(r.body).toString()) as {
        data: { tenantGraph: { timestamps: string[] } };
      };
      expect(body.data.tenantGraph.timestamps).toHaveLength(59);
      expect(r.body.length).toBeLessThan(decode(r.body).length / 2);
    }
    const identity = await raw(`${base}/api/tenant/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: gqlBody(GRAPH, graphVariables()),
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body.toString()).data.tenantGraph.timestamps).toHaveLength(59);
  });

  it('a JS asset is sent precompressed, immutable, and varies by Accept-Encoding', async () => {
    const br = await raw(`${base}/_astro/app.abc123.js`, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers['cache-control']).toMatch(/immutable/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).toString()).toBe(JS);
    const gz = await raw(`${base}/_astro/app.abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(JS);
    const refused = await raw(`${base}/_astro/app.abc123.js`, {
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(JS);
  });

  it('a static file has an ETag: the same one again answers 304 without a body, another one the file', async () => {
    const first = await raw(`${base}/favicon.svg`);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"\d+-\d+"$/);
    const again = await raw(`${base}/favicon.svg`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const changed = await raw(`${base}/favicon.svg`, { headers: { 'if-none-match': 'W/"1-1"' } });
    expect(changed.status).toBe(200);
    expect(changed.body.toString()).toBe(first.body.toString());
  });

  it('a byte range of a static file answers 206 with that part', async () => {
    const part = await raw(`${base}/_astro/app.abc123.js`, {
      headers: { range: 'bytes=7-12', 'accept-encoding': 'identity' },
    });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 7-12/${Buffer.byteLength(JS)}`);
    expect(part.body.toString()).toBe(JS.slice(7, 13));
  });

  it('a page path is not looked up as a file: it goes on (here, without Astro, to the JSON 404)', async () => {
    const page = await raw(`${base}/_astro`);
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('page caching', () => {
  /** The server with a stand-in for Astro's handler, which answers every page with a small HTML body. */
  async function withPages(): Promise<string> {
    const server = createAppServer({
      services: api.services,
      clientDir,
      astroHandler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>page</title>');
      },
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('a prerendered page is public and cacheable, and does not vary by Cookie', async () => {
    const url = await withPages();
    const page = await raw(`${url}/help/en`);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('public, max-age=3600');
    expect(String(page.headers.vary ?? '')).not.toMatch(/cookie/i);
  });

  it('a page rendered per request varies by Cookie and is not made public', async () => {
    const url = await withPages();
    for (const path of ['/help/xx', '/t/1/help', '/login']) {
      const page = await raw(`${url}${path}`);
      expect(page.status, path).toBe(200);
      expect(String(page.headers.vary), path).toMatch(/\bCookie\b/);
      expect(page.headers['cache-control'], path).toBeUndefined();
    }
  });
});

describe('request size', () => {
  it('a body over the limit is refused with 413 and a code, unread', async () => {
    const url = await start({ API_MAX_BODY_BYTES: 2048 });
    const big = gqlBody(`{ ${'__typename '.repeat(300)}}`);
    const r = await raw(`${url}/api/tenant/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
      body: big,
    });
    expect(r.status).toBe(413);
    const body = JSON.parse(r.body.toString()) as { errors: Array<{ extensions: Record<string, string> }> };
    expect(body.errors[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'bodySize' });
    expectSecurityHeaders(r);
  });
});

describe('request bodies', () => {
  /** A POST to the tenant endpoint, its body sent in `pieces` writes. */
  const post = (body: string, contentType = 'application/json', pieces = 1) =>
    raw(`${base}/api/tenant/graphql`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'content-length': String(Buffer.byteLength(body)),
        authorization: `Bearer ${token}`,
      },
      body,
      pieces,
    });
  const messages = (r: RawResponse) =>
    (JSON.parse(r.body.toString()) as { errors?: Array<{ message: string }> }).errors?.map((e) => e.message);

  it('a query arriving in several chunks is answered', async () => {
    const r = await post(gqlBody(GRAPH, graphVariables()), 'application/json', 4);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body.toString()) as { data: { tenantGraph: { timestamps: string[] } } };
    expect(body.data.tenantGraph.timestamps.length).toBeGreaterThan(0);
  });

  it('invalid JSON, a JSON array, null, a scalar or no query get the GraphQL errors Yoga gives', async () => {
    const invalid = await post('{"query": "{ __typename }"');
    expect(invalid.status).toBe(400);
    expect(messages(invalid)).toEqual(['POST body sent invalid JSON.']);
    const array = await post(JSON.stringify([{ query: '{ __typename }' }]));
    expect(array.status).toBe(400);
    expect(messages(array)).toEqual(['Batching is not supported.']);
    const nul = await post('null');
    expect(nul.status).toBe(400);
    expect(messages(nul)).toEqual(['POST body is expected to be object but received null']);
    const scalar = await post('42');
    expect(scalar.status).toBe(400);
    expect(messages(scalar)).toEqual(['POST body is expected to be object but received number']);
    // As GraphQL over HTTP answers a request without a query in the legacy JSON response type.
    const empty = await post('{}');
    expect(empty.status).toBe(200);
    expect(messages(empty)).toEqual(['Must provide query string.']);
  });

  it('other content types are refused with 415 before they are read (JSON only; issue 24, CSRF)', async () => {
    const graphql = await post('{ __typename }', 'application/graphql');
    expect(graphql.status).toBe(415);
    expect(JSON.parse(graphql.body.toString()).errors[0].extensions).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    const form = await post(
      `query=${encodeURIComponent('{ __typename }')}`,
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(415);
    expectSecurityHeaders(form);
  });
});
