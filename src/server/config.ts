/** Run-time configuration, parsed once with zod; a bad value stops start-up with one readable message. */
import { resolve } from 'node:path';
import { z } from 'zod';

const schema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4321),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Connections each app process keeps to PostgreSQL (ignored on the embedded database). One Node thread keeps
   * few statements in flight, and fewer connections carry more pipelined statements each; many processes times
   * this must stay under the server's max_connections. docs/benchmarks.md has what each size measured.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(4),
  /**
   * A PostgreSQL streaming replica (hot standby) of DATABASE_URL for the tenant backend's data reads (db/replica.ts);
   * unset: every read goes to DATABASE_URL.
   */
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Reads go to the replica only while it has replayed every commit older than this (ms); else the primary. */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** How often each app process checks the replica's replay position (ms); at most half the lag bound. */
  DATABASE_REPLICA_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** PEM (PKCS#8) Ed25519 private keys; generated into DATA_DIR/keys when unset. */
  ACCOUNT_JWT_PRIVATE_KEY: z.string().optional(),
  TENANT_JWT_PRIVATE_KEY: z.string().optional(),
  /** The operator console's backend (/api/admin/graphql). */
  ADMIN_JWT_PRIVATE_KEY: z.string().optional(),
  /** Access token lifetime in seconds. */
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(10).max(86_400).default(300),
  /** Refresh token lifetime in seconds. */
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 86_400),
  /** smtp(s)://user:pass@host:port; unset: mail goes to the mail_outbox table and the log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().default('Tenant app <no-reply@tenant-app.invalid>'),
  /**
   * mqtt(s)://user:pass@host:port of a broker wmbusmeters publishes to; unset: no MQTT. The process that runs the
   * jobs (npm start's embedded worker, or npm run worker) subscribes; give it to exactly one process.
   */
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must be an mqtt:// or mqtts:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The topic filter of wmbusmeters' telegrams (its MQTT shell command publishes to wmbusmeters/<name>). */
  MQTT_TOPIC: z.string().min(1).default('wmbusmeters/#'),
  /**
   * The organisation (id or exact name) that runs the MQTT feed: its admins see the radio ids no meter has on the
   * console's data-quality page (src/server/mqtt/owner.ts). Unset: the only organisation, if there is one.
   */
  MQTT_ORGANISATION: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** The MQTT client id: stable, so the broker keeps the session (and queued telegrams) across restarts. */
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'letters, digits and . _ : - only, at most 64')
    .default('tenant-app-ingest'),
  /** The app's public address, for links in mail; defaults to http://HOST:PORT. */
  APP_URL: z.url().optional(),
  /** Days finished job rows are kept before the daily sweep deletes them (at least 35). */
  JOB_RETENTION_DAYS: z.coerce.number().int().min(35).default(90),
  /** The worker's hourly meter check files a meter with no reading for this many hours as silent (data_issues). */
  METER_SILENT_HOURS: z.coerce.number().int().min(1).max(8760).default(48),
  /** …and a water or electricity register unchanged for this many days as stuck. */
  METER_STUCK_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /**
   * Years raw register readings are kept; the daily sweep removes older ones (hourly values and rollups stay), and
   * ingestion then refuses readings older than that. Unset: every reading is kept.
   */
  READING_RETENTION_YEARS: z
    .literal('')
    .transform(() => undefined)
    .or(z.coerce.number().int().min(1).max(100).optional()),
  /**
   * How many proxies in front of the app to trust (0: none). Each appends the address it was connected from to
   * X-Forwarded-For, so the client's address is the entry the outermost trusted proxy wrote: the N-th from the
   * right. Entries left of it are the client's own writing and are never used.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Social login: each provider is off until its client id is set. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  FACEBOOK_CLIENT_ID: z.string().optional(),
  /** Overrides of a provider's issuer and JWKS address (a staging identity provider, or tests). */
  GOOGLE_ISSUER: z.string().optional(),
  GOOGLE_JWKS_URL: z.url().optional(),
  APPLE_ISSUER: z.string().optional(),
  APPLE_JWKS_URL: z.url().optional(),
  FACEBOOK_ISSUER: z.string().optional(),
  FACEBOOK_JWKS_URL: z.url().optional(),
  /** Overrides of a provider's OpenID Connect authorization endpoint (where the login buttons send the browser). */
  GOOGLE_AUTHORIZE_URL: z.url().optional(),
  APPLE_AUTHORIZE_URL: z.url().optional(),
  FACEBOOK_AUTHORIZE_URL: z.url().optional(),
  /**
   * GET /metrics (Prometheus): on the app's port only with `Authorization: Bearer <METRICS_TOKEN>`; unset, the app's
   * port answers 404 there. At least 24 characters.
   */
  METRICS_TOKEN: z
    .string()
    .min(24, 'must be at least 24 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** A private port that serves GET /metrics without a token (on METRICS_HOST); unset: no such listener. */
  METRICS_PORT: z
    .literal('')
    .transform(() => undefined)
    .or(z.coerce.number().int().min(0).max(65_535).optional()),
  /** The address the metrics port listens on; keep it private (loopback or an internal network). */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** 1: one access-log line per HTTP request (pino-http, with its request id); 0: none. */
  ACCESS_LOG: z.enum(['0', '1']).default('1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `development` (astro dev) turns GraphQL introspection and field suggestions on; anything else is production. */
  NODE_ENV: z.string().default('production'),
  /** Overrides the NODE_ENV default: 1 turns introspection and field suggestions on, 0 off. */
  GRAPHQL_INTROSPECTION: z.enum(['0', '1']).optional(),
  /**
   * Most series points (objects × quantities × buckets) one operation may ask for, summed over its graph-shaped
   * fields (tenantGraph, tenancyDashboard's graph, fixedCharges).
   */
  GRAPH_MAX_POINTS: z.coerce.number().int().min(1).default(5_000),
  /** Largest request body the API reads, in bytes; a larger one is refused with 413 before it is parsed. */
  API_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(100_000),
  /** Ingestion API (docs/ingest.md): largest body as sent (compressed or not), in bytes; larger: 413. */
  INGEST_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(10_000_000),
  /** Ingestion API: largest body after gzip decompression, in bytes; larger (a gzip bomb): 413. */
  INGEST_MAX_DECOMPRESSED_BYTES: z.coerce.number().int().min(1024).default(50_000_000),
  /** Ingestion API: rows answered synchronously; a larger batch gets 202 and is ingested by the worker. */
  INGEST_SYNC_MAX_ROWS: z.coerce.number().int().min(1).default(5_000),
  /**
   * Ingestion API: batches that are not atomic (and the merges of group commit) commit in transactions of about
   * this many rows, oldest first, so that requests wait behind one of them at most (PGlite serves one transaction
   * at a time). Smaller: shorter waits, fewer rows per second (docs/ingest.md, "Concurrent batches").
   */
  INGEST_CHUNK_ROWS: z.coerce.number().int().min(1).default(5_000),
  /**
   * Ingestion API: a synchronous batch with an Idempotency-Key still pending after this many seconds was
   * interrupted (its process stopped mid-batch); a replay of the same key and body then runs it again. Keep it
   * above the longest a synchronous request can last (Node's requestTimeout, 300 s).
   */
  INGEST_SYNC_STALE_SECONDS: z.coerce.number().int().min(1).default(300),
  /**
   * Ingestion API on PostgreSQL: how many transactions of one API key's batches may run at once (on batches of
   * disjoint meters; docs/ingest.md, "Concurrent batches"). 1 by default: on the 2-core bench machine a second
   * one made tenants wait more than it sped ingestion up (docs/ingest-bench.md, session 10). A database server
   * with cores to spare may take more; measure. PGlite, one session, always runs one.
   */
  INGEST_LANE_TRANSACTIONS: z.coerce.number().int().min(1).max(8).default(1),
  /**
   * Ingestion API: while people use the app (a GraphQL request to this process in the last 2 s), each ingestion
   * transaction of an API key's lane (and each part of a batch committed in parts) is followed by a pause of this
   * many times its own length (at most 5 s). 0: no pause. Unset: 5 on PostgreSQL, 30 on PGlite
   * (ingest/people.ts). On the 2-core bench machine, tenantGraph's p95 at fixed arrivals while 4 gateways sent was
   * 1.0–1.4× its idle p95 on PostgreSQL with 5 (1.3–2.5× with 3, 2.1–5.2× with 0), and 0.8–1.0× on PGlite with 30
   * (12.8× with 3); ingestion's rate meanwhile falls to a few per cent of the bulk loader's on PGlite and about a
   * sixth on PostgreSQL, and with nobody reading it is unchanged (docs/ingest-bench.md, sessions 15 and 16).
   */
  INGEST_YIELD: z.coerce.number().min(0).max(100).optional(),
  /** Ingestion API: most rows in one batch; more: 413. */
  INGEST_MAX_ROWS: z.coerce.number().int().min(1).default(200_000),
  /** Ingestion API: requests per minute per API key; more: 429 with Retry-After. */
  INGEST_KEY_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  /** Comma-separated origins allowed to call the API from another origin (CORS); empty means same origin only. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url().transform((u) => new URL(u).origin))),
});

export type ServerConfig = z.infer<typeof schema> & {
  dataDir: string;
  APP_URL: string;
  /** GraphQL introspection and "Did you mean" suggestions: on in development, off in production. */
  graphqlIntrospection: boolean;
};

/** Every setting the server reads (`.env.example` lists each; tests/unit/config-keys.test.ts checks it). */
export const SERVER_CONFIG_KEYS = Object.keys(schema.shape);

/** Parses the environment; throws one error listing every bad variable. */
export function parseServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { data } = result;
  if (data.DATABASE_REPLICA_URL && !data.DATABASE_URL)
    throw new Error('Invalid configuration:\n  - DATABASE_REPLICA_URL: needs DATABASE_URL (the primary)');
  if (data.DATABASE_REPLICA_URL && data.DATABASE_REPLICA_CHECK_MS * 2 > data.DATABASE_REPLICA_MAX_LAG_MS)
    throw new Error(
      'Invalid configuration:\n  - DATABASE_REPLICA_CHECK_MS: at most half of DATABASE_REPLICA_MAX_LAG_MS, ' +
        'or a replica that keeps up would still count as behind under steady writes',
    );
  const graphqlIntrospection = data.GRAPHQL_INTROSPECTION
    ? data.GRAPHQL_INTROSPECTION === '1'
    : data.NODE_ENV === 'development';
  const host = data.HOST.includes(':') ? `[${data.HOST}]` : data.HOST;
  const appUrl = (data.APP_URL ?? `http://${host}:${data.PORT}`).replace(/\/$/, '');
  return { ...data, dataDir: resolve(data.DATA_DIR), APP_URL: appUrl, graphqlIntrospection };
}
