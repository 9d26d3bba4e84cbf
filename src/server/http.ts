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
import compression from 'compression';
import { sql } from 'drizzle-orm';
import { ACCOUNT_GRAPHQL_ENDPOINT, createAccountYoga } from './account/yoga.ts';
import { ADMIN_GRAPHQL_ENDPOINT, createAdminYoga } from './admin/yoga.ts';
import { SOCIAL_CALLBACK_PATH } from './auth/social.ts';
import { handleSocialFormPost } from './auth/socialCallback.ts';
import { DatabaseHealth, health } from './databaseHealth.ts';
import { QUERY_TOO_COMPLEX } from './graphql/limits.ts';
import { createHealthProbes } from './healthProbes.ts';
import { sendJson, setSecurityHeaders } from './httpHeaders.ts';
import { handleIngestRequest, INGEST_PREFIX } from './ingest/httpDoor.ts';
import { notePersonRequest } from './ingest/people.ts';
import {
  accessLog,
  METRICS_PATH,
  metricsAccess,
  sendMetrics,
  startMetricsServer,
  trackHttpRequest,
} from './metricsHttp.ts';
import { withBody } from './requestBody.ts';
import type { ApiServices } from './services.ts';
import { PRERENDERED_CACHE_CONTROL, prerenderedPages, staticFiles } from './staticFiles.ts';
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

// ---- the server ----

/** Paths that are their own `route` label in the request metrics. */
const KNOWN_ROUTES = new Set([
  ACCOUNT_GRAPHQL_ENDPOINT,
  TENANT_GRAPHQL_ENDPOINT,
  ADMIN_GRAPHQL_ENDPOINT,
  `${INGEST_PREFIX}readings`,
  '/api/health',
  '/api/health/live',
  '/api/health/ready',
  METRICS_PATH,
]);

/**
 * The `route` label: the API's own paths, a large batch's receipt (`/api/ingest/v1/batches/:id`), other `/api/`
 * paths, `static` (the build's hashed assets, or any path whose last segment has an extension), or `page` (Astro).
 * A bounded set, whatever paths clients ask for.
 */
function routeOf(path: string): string {
  if (KNOWN_ROUTES.has(path)) return path;
  if (path.startsWith(`${INGEST_PREFIX}batches/`)) return `${INGEST_PREFIX}batches/:id`;
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
        // Ingestion gives way while people use the app (ingest/people.ts).
        notePersonRequest();
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
        handleIngestRequest(services.database.db, config, req, res, services.database.engine);
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
  const prerendered = options.clientDir ? prerenderedPages(options.clientDir) : new Set<string>();
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
        // Prerendered pages are the same for everyone; every other page may depend on the cookies (session,
        // language), so a shared cache must not hand one visitor's page to another.
        if (prerendered.has(path)) res.setHeader('Cache-Control', PRERENDERED_CACHE_CONTROL);
        else if (routeOf(path) === 'page') res.setHeader('Vary', 'Cookie');
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
