/**
 * The Node HTTP server of `npm start` and `npm run serve:api`. In order, for every request:
 * 1. security headers (CSP fallback, HSTS over TLS, nosniff, frame and referrer policy, permissions policy);
 * 2. `/api/*` straight to the two Yoga backends and the health check, before any of Astro's handling, with a
 *    body size limit; CORS is same-origin unless `CORS_ORIGINS` allows an origin (see `graphql/yoga.ts`);
 * 3. files of the client build through sirv: precompressed (`.br`, `.gz` written at build time) when the browser
 *    takes it, ETag and 304, byte ranges;
 * 4. everything else to Astro's handler, with brotli or gzip compression on the fly.
 * Every request gets a request id and an access-log line, and is counted in the metrics; GET /metrics is served
 * here only with its token (metricsHttp.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import compression from 'compression';
import { sql } from 'drizzle-orm';
import sirv from 'sirv';
import { ACCOUNT_GRAPHQL_ENDPOINT, createAccountYoga } from './account/yoga.ts';
import { ADMIN_GRAPHQL_ENDPOINT, createAdminYoga } from './admin/yoga.ts';
import { SOCIAL_CALLBACK_PATH } from './auth/social.ts';
import { handleSocialFormPost } from './auth/socialCallback.ts';
import type { ServerConfig } from './config.ts';
import { QUERY_TOO_COMPLEX } from './graphql/limits.ts';
import { createHealthProbes } from './healthProbes.ts';
import { handleIngestRequest, INGEST_PREFIX } from './ingest/httpDoor.ts';
import {
  accessLog,
  METRICS_PATH,
  metricsAccess,
  sendMetrics,
  startMetricsServer,
  trackHttpRequest,
} from './metricsHttp.ts';
import type { ApiServices } from './services.ts';
import { createTenantYoga, TENANT_GRAPHQL_ENDPOINT } from './tenant/yoga.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export interface AppServerOptions {
  services: ApiServices;
  /** Astro's Node handler (`dist/server/entry.mjs`); without it only the API is served. */
  astroHandler?: Handler;
  /** The client build (`dist/client`), served before Astro. */
  clientDir?: string;
}

/** The CSP of responses that set none (API, static files). Astro's pages send their own, with script hashes. */
const FALLBACK_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Features no page of the app uses. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** Two years, the preload list's minimum is one. */
const HSTS = 'max-age=63072000; includeSubDomains';

/** Whether the browser reached us over TLS: our own TLS socket, or a trusted proxy's X-Forwarded-Proto. */
function isSecureRequest(req: IncomingMessage, config: Pick<ServerConfig, 'TRUST_PROXY'>): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (config.TRUST_PROXY < 1) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, config: ServerConfig): void {
  res.setHeader('Content-Security-Policy', FALLBACK_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  if (isSecureRequest(req, config)) res.setHeader('Strict-Transport-Security', HSTS);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** How long a successful database check may be reused by /api/health while a newer one is in flight. */
const HEALTH_FRESH_MS = 2_000;
/** How long /api/health waits for a database check when none is fresh; then it answers 503. */
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * The database check behind /api/health: `SELECT 1`, at most one in flight. PGlite is one session, so a check
 * waits its turn behind a running statement (and PostgreSQL's pool may be busy too); a load balancer must not
 * see that as an outage. So a caller may be answered from the last check when it succeeded at most
 * HEALTH_FRESH_MS ago while a new check is under way; otherwise it waits for the new check.
 */
export class DatabaseHealth {
  private inFlight: Promise<boolean> | null = null;
  private last: { ok: boolean; at: number } | null = null;

  constructor(
    private readonly check: () => Promise<unknown>,
    private readonly limits = { freshMs: HEALTH_FRESH_MS, timeoutMs: HEALTH_TIMEOUT_MS },
  ) {}

  /** Starts a check unless one is running; resolves with its outcome. */
  private probe(): Promise<boolean> {
    if (!this.inFlight) {
      const started = this.check().then(
        () => true,
        () => false,
      );
      this.inFlight = started.then((ok) => {
        this.last = { ok, at: performance.now() };
        this.inFlight = null;
        return ok;
      });
    }
    return this.inFlight;
  }

  /** Whether the database answers: from a fresh successful check, or a new one within the timeout. */
  async status(): Promise<{ ok: boolean; checkedMsAgo: number }> {
    const running = this.probe();
    const last = this.last;
    if (last?.ok) {
      const age = performance.now() - last.at;
      if (age <= this.limits.freshMs) return { ok: true, checkedMsAgo: Math.round(age) };
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.limits.timeoutMs);
    });
    const ok = await Promise.race([running, timeout]);
    clearTimeout(timer);
    return { ok, checkedMsAgo: 0 };
  }
}

/** GET /api/health: 200 with the engine when the database answers (see DatabaseHealth), else 503. */
async function health(services: ApiServices, probe: DatabaseHealth, res: ServerResponse): Promise<void> {
  const { ok, checkedMsAgo } = await probe.status();
  if (ok)
    sendJson(
      res,
      200,
      { status: 'ok', database: services.database.engine },
      { 'x-database-checked-ms-ago': String(checkedMsAgo) },
    );
  else sendJson(res, 503, { status: 'unavailable' });
}

// ---- static files ----

/**
 * The client build's files through sirv: indexed once at start, sent with their precompressed `.br`/`.gz` sibling
 * when the browser takes it, with ETag (304 on If-None-Match) and byte ranges. Hashed `/_astro/` files are
 * immutable for a year, the rest (favicon, brand logos) are cached for an hour. Anything not in the build (every
 * page) goes on to `next`.
 */
function staticFiles(clientDir: string): Middleware {
  const serve = sirv(clientDir, {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    // Pages are Astro's: a URL is never looked up as `.html` or as a folder's index here.
    extensions: [],
    setHeaders: (res, pathname) =>
      res.setHeader(
        'Cache-Control',
        pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      ),
  }) as Middleware;
  return (req, res, next) => {
    // sirv looks for "br" and "gzip" anywhere in the header; an encoding refused with q=0 must not be sent.
    req.headers['accept-encoding'] = acceptedEncodings(req).join(', ');
    serve(req, res, next);
  };
}

/** The encodings the request accepts (those with q=0 left out). */
function acceptedEncodings(req: IncomingMessage): string[] {
  const accepted: string[] = [];
  for (const part of (req.headers['accept-encoding'] ?? '').toString().split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.push(name);
  }
  return accepted;
}

// ---- GraphQL request bodies ----

/**
 * Reads a POST body (its size already checked against API_MAX_BODY_BYTES through Content-Length) and hands
 * the request on with `req.body` set, as body-parser would. Yoga's server adapter takes a body that is
 * already read instead of reading the request through a stream pipeline of its own, which cost about a
 * sixth of the HTTP thread's CPU per small GraphQL request (docs/notes/perf-api.md, round 5). A JSON object
 * goes on parsed; anything else (another content type, invalid JSON, a JSON array or scalar) goes on as the
 * bytes, so Yoga answers it exactly as before.
 */
function withBody(req: IncomingMessage, res: ServerResponse, next: Handler): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('error', () => res.destroy());
  req.once('end', () => {
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    (req as IncomingMessage & { body?: unknown }).body = parsedJsonObject(req, bytes) ?? bytes;
    next(req, res);
  });
}

/** The body as a non-empty JSON object when the request says it is JSON and it parses as one; else undefined. */
function parsedJsonObject(req: IncomingMessage, bytes: Buffer): object | undefined {
  if (!/\bjson\b/i.test(req.headers['content-type'] ?? '')) return undefined;
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0)
      return value;
  } catch {}
  return undefined;
}

// ---- the server ----

/** Paths that are their own `route` label in the request metrics. */
const KNOWN_ROUTES = new Set([
  ACCOUNT_GRAPHQL_ENDPOINT,
  TENANT_GRAPHQL_ENDPOINT,
  '/api/health',
  '/api/health/live',
  '/api/health/ready',
  METRICS_PATH,
]);

/**
 * The `route` label: the API's own paths, other `/api/` paths, `static` (the build's hashed assets, or any path
 * whose last segment has an extension), or `page` (Astro). A bounded set, whatever paths clients ask for.
 */
function routeOf(path: string): string {
  if (KNOWN_ROUTES.has(path)) return path;
  if (path.startsWith('/api/')) return '/api/other';
  return path.startsWith('/_astro/') || /\.[\w]+$/.test(path) ? 'static' : 'page';
}

/** The path of a request URL, without its query. */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The handler with brotli or gzip compression of its answer on the fly, as the client accepts. */
function withCompression(handler: Handler): Handler {
  // Brotli at quality 4 (the middleware's default) costs about as much CPU as gzip level 6 and is smaller.
  const compress = compression({ threshold: 1024 }) as unknown as Middleware;
  return (req, res) =>
    compress(req, res, (err) => {
      if (err) {
        res.statusCode = 500;
        res.end();
      } else handler(req, res);
    });
}

/**
 * The routes this server answers before Astro: the two GraphQL backends (with the body limit), the health checks
 * and a provider's form_post to the social callback; anything else goes to `next`. `npm start` runs it in front
 * of Astro (createAppHandler); `npm run dev` mounts the same handler in Vite's dev server (astro.config.mjs), so
 * each backend has exactly one mount.
 * @public Loaded by astro.config.mjs through Vite's ssrLoadModule, which knip does not follow.
 */
export function createApiHandler(services: ApiServices): Middleware {
  const { config } = services;
  // Yoga's own fetch classes: these requests never reach Astro (see graphql/yoga.ts FetchClasses).
  const account = createAccountYoga(services, 'yoga');
  const tenant = createTenantYoga(services, 'yoga');
  const admin = createAdminYoga(services, 'yoga');
  const databaseHealth = new DatabaseHealth(() => services.database.db.execute(sql`SELECT 1`));
  const probes = createHealthProbes(services);
  const accountListener = withCompression(account.requestListener as Handler);
  const tenantListener = withCompression(tenant.requestListener as Handler);
  const adminListener = withCompression(admin.requestListener as Handler);

  return (req, res, next) => {
    const path = pathOf(req);
    if (path.startsWith('/api/')) {
      res.setHeader('Vary', 'Origin');
      if (
        path === ACCOUNT_GRAPHQL_ENDPOINT ||
        path === TENANT_GRAPHQL_ENDPOINT ||
        path === ADMIN_GRAPHQL_ENDPOINT
      ) {
        const length = Number(req.headers['content-length'] ?? 0);
        if (length > config.API_MAX_BODY_BYTES) {
          // Refused unread; the connection closes so the rest of the body is not read either.
          sendJson(
            res,
            413,
            {
              errors: [
                {
                  message: `Request body too large: at most ${config.API_MAX_BODY_BYTES} bytes`,
                  extensions: { code: QUERY_TOO_COMPLEX, limit: 'bodySize' },
                },
              ],
            },
            { connection: 'close' },
          );
          return;
        }
        if (req.method === 'POST' && req.headers['content-length'] === undefined) {
          sendJson(
            res,
            411,
            { errors: [{ message: 'Content-Length required', extensions: { code: 'BAD_REQUEST' } }] },
            { connection: 'close' },
          );
          return;
        }
        const listener =
          path === TENANT_GRAPHQL_ENDPOINT
            ? tenantListener
            : path === ADMIN_GRAPHQL_ENDPOINT
              ? adminListener
              : accountListener;
        if (req.method === 'POST') withBody(req, res, listener);
        else listener(req, res);
        return;
      }
      // /api/health/live and /api/health/ready (healthProbes.ts).
      if (probes(path, req, res)) return;
      if (path.startsWith(INGEST_PREFIX)) {
        handleIngestRequest(services.database.db, config, req, res);
        return;
      }
      if (path === '/api/health' && (req.method === 'GET' || req.method === 'HEAD')) {
        void health(services, databaseHealth, res);
        return;
      }
      // Other API routes (the statement PDF download) are Astro endpoints.
    }

    // A provider's form_post (Apple) is a cross-site POST, which Astro refuses; see socialCallback.ts.
    if (path === SOCIAL_CALLBACK_PATH && req.method === 'POST') {
      void handleSocialFormPost(req, res);
      return;
    }
    next();
  };
}

/** The request handler: headers, access log and metrics, the API first, static files, then Astro. */
export function createAppHandler(options: AppServerOptions): Handler {
  const { services } = options;
  const { config } = services;
  const api = createApiHandler(services);
  const serveStatic = options.clientDir ? staticFiles(options.clientDir) : undefined;
  const astro = options.astroHandler ? withCompression(options.astroHandler) : undefined;
  const logRequest = accessLog(services.logger, config);

  return (req, res) => {
    setSecurityHeaders(req, res, config);
    const path = pathOf(req);
    logRequest(req, res);
    trackHttpRequest(req, res, routeOf(path));

    if (path === METRICS_PATH) {
      const access = metricsAccess(req, config);
      if (access === 'allowed' && (req.method === 'GET' || req.method === 'HEAD')) {
        void sendMetrics(services, res);
        return;
      }
      if (access === 'denied') {
        sendJson(res, 401, {
          errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }],
        });
        return;
      }
    }

    api(req, res, () => {
      const rest = () => {
        if (astro) astro(req, res);
        else sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }] });
      };
      if (serveStatic && (req.method === 'GET' || req.method === 'HEAD')) serveStatic(req, res, rest);
      else rest();
    });
  };
}

/** The HTTP server; call `listen` on it. The private metrics listener (METRICS_PORT) opens and closes with it. */
export function createAppServer(options: AppServerOptions): Server {
  const server = createServer(createAppHandler(options));
  const { services } = options;
  server.once('listening', () => {
    const metrics = startMetricsServer(services).catch((err: unknown) => {
      services.logger.error({ err }, 'the metrics port could not be opened');
      return null;
    });
    server.once('close', () => void metrics.then((m) => m?.close()));
  });
  return server;
}
