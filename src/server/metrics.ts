/**
 * The process's Prometheus metrics (prom-client), one registry per process, kept on globalThis so the Astro
 * server bundle and start.ts share it (as runtime.ts shares the services). Served by `metricsHttp.ts` at
 * GET /metrics; what it holds:
 * - `http_request_duration_seconds{method,route,status}`: every request through http.ts;
 * - `graphql_operation_duration_seconds{backend,operation,type}` and `graphql_errors_total{backend,operation,code}`;
 * - `job_runs_total{task,status}` and `job_duration_seconds{task}` of the jobs this process ran, and, read from the
 *   jobs table at each scrape (so any process reports the whole queue), `jobs_pending{task}`, `jobs_due{task}`,
 *   `jobs_lag_seconds{task}` (how long the oldest due job has waited), `jobs_retrying{task}`, `jobs_failed{task}`;
 * - `ingest_rows_total{result}`: readings by outcome, incremented by the ingestion code (`ingestRows`);
 * - `ingest_yield_seconds_total`: how long ingestion's lanes paused for people using the app (groupCommit.ts);
 * - `pglite_session_wait_seconds`: how long a request's turn waited for PGlite's one session behind a background
 *   connection; `db_pool_max` and `pg_connections{state}` (PostgreSQL: this database's server sessions);
 * - `db_replica_routed_reads_total{target}`, `db_replica_fallbacks_total`, `db_replica_staleness_seconds`: the read
 *   replica's routing (db/replica.ts), with DATABASE_REPLICA_URL;
 * - the process metrics of prom-client's defaults (CPU, memory, event-loop lag, GC, handles).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets (seconds) shared by HTTP, GraphQL and job durations: 2.5 ms to 30 s. */
const BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  /** A gauge per job task, set from the jobs table at each scrape. */
  const taskGauge = (name: string, help: string) =>
    new Gauge({ name, help, labelNames: ['task'] as const, registers });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route and status, from arrival to the last byte written',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: BUCKETS,
      registers,
    }),
    graphqlDuration: new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL operations executed, by backend, operation name and type (execution only, after parse and validation)',
      labelNames: ['backend', 'operation', 'type'] as const,
      buckets: BUCKETS,
      registers,
    }),
    graphqlErrors: new Counter({
      name: 'graphql_errors_total',
      help: 'Errors in GraphQL responses, by backend, operation name and error code',
      labelNames: ['backend', 'operation', 'code'] as const,
      registers,
    }),
    jobRuns: new Counter({
      name: 'job_runs_total',
      help: 'Jobs this process ran, by task and outcome (done, postponed, retry, failed)',
      labelNames: ['task', 'status'] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'Time of the jobs this process ran, by task, claim to commit',
      labelNames: ['task'] as const,
      buckets: BUCKETS,
      registers,
    }),
    jobsPending: taskGauge(
      'jobs_pending',
      'Pending jobs in the queue by task (due or not), read from the jobs table at scrape',
    ),
    jobsDue: taskGauge(
      'jobs_due',
      'Pending jobs whose run time has come, by task (queue depth), read at scrape',
    ),
    jobsLag: taskGauge(
      'jobs_lag_seconds',
      'How long the oldest due job of each task has waited past its run time, read at scrape',
    ),
    jobsRetrying: taskGauge(
      'jobs_retrying',
      'Pending jobs that failed at least once and wait for their next attempt, by task',
    ),
    jobsFailed: taskGauge(
      'jobs_failed',
      'Jobs that failed for good and are still kept in the jobs table (JOB_RETENTION_DAYS), by task',
    ),
    ingestRows: new Counter({
      name: 'ingest_rows_total',
      help: 'Meter readings offered to ingestion in this process, by result',
      labelNames: ['result'] as const,
      registers,
    }),
    ingestYield: new Counter({
      name: 'ingest_yield_seconds_total',
      help: "Time ingestion's lanes paused after a transaction to give way to people using the app (INGEST_YIELD)",
      registers,
    }),
    pgliteWait: new Histogram({
      name: 'pglite_session_wait_seconds',
      help: "Waits of requests for PGlite's one session while a background connection held it",
      buckets: BUCKETS,
      registers,
    }),
    dbPoolMax: new Gauge({
      name: 'db_pool_max',
      help: 'Connections this process may open to the database (DATABASE_POOL_SIZE; 1 session on PGlite)',
      registers,
    }),
    pgConnections: new Gauge({
      name: 'pg_connections',
      help: "PostgreSQL: server sessions on this database (every process's), by state, read at scrape",
      labelNames: ['state'] as const,
      registers,
    }),
    dbReads: new Counter({
      name: 'db_replica_routed_reads_total',
      help: 'Tenant data reads routed by DATABASE_REPLICA_URL, by target (replica, or primary when it is behind or down)',
      labelNames: ['target'] as const,
      registers,
    }),
    replicaFallbacks: new Counter({
      name: 'db_replica_fallbacks_total',
      help: 'Statements that failed on the read replica for a connection reason and ran again on the primary',
      registers,
    }),
    replicaStaleness: new Gauge({
      name: 'db_replica_staleness_seconds',
      help: "How old the read replica's data was at its last check (seconds since every primary commit was replayed)",
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const KEY = Symbol.for('tenant-app.metrics');
type Holder = { [KEY]?: Metrics };

/** The process's metrics, created on first use. */
export function getMetrics(): Metrics {
  const holder = globalThis as Holder;
  holder[KEY] ??= createMetrics();
  return holder[KEY];
}

/**
 * Readings offered to ingestion, by result: `inserted`, `duplicate` (already stored, same value), `conflict`,
 * `refused` (bad input), … The ingestion code increments it: `ingestRows().inc({ result: 'inserted' }, n)`.
 */
export function ingestRows(): Metrics['ingestRows'] {
  return getMetrics().ingestRows;
}

/** At most this many distinct operation names per backend get their own series; the rest are `other`. */
const MAX_OPERATION_NAMES = 200;
const seenOperations = new Map<string, Set<string>>();

/**
 * The `operation` label for a client-chosen operation name: `anonymous` without one, `other` when it is not a
 * plain GraphQL name or the backend already has MAX_OPERATION_NAMES of them (so clients cannot grow the series
 * without bound).
 */
export function operationLabel(backend: string, name: string | undefined | null): string {
  if (!name) return 'anonymous';
  if (!/^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(name)) return 'other';
  let seen = seenOperations.get(backend);
  if (!seen) {
    seen = new Set();
    seenOperations.set(backend, seen);
  }
  if (seen.has(name)) return name;
  if (seen.size >= MAX_OPERATION_NAMES) return 'other';
  seen.add(name);
  return name;
}
