/**
 * The optional read replica (DATABASE_REPLICA_URL): a PostgreSQL streaming replica (hot standby) that serves the
 * tenant backend's data reads (graphs, KPIs, tables, the dashboard), so they leave the primary's CPU to ingestion,
 * the worker and every write. Only reads of data that may be a little old go there: token checks, the caller's
 * tenancies (who may see what), logins, alarms, notifications and every write stay on the primary.
 *
 * The staleness bound, and how it is known without writing anything: every DATABASE_REPLICA_CHECK_MS the router
 * samples the primary's WAL position (`pg_current_wal_lsn()`) with the time it asked, and asks the replica how far
 * it has replayed (`pg_last_wal_replay_lsn()`). Once the replica has replayed past a sample, every transaction the
 * primary committed before that sample's time is visible on the replica: that time is the replica's `freshAt`.
 * A read goes to the replica only while `now - freshAt <= DATABASE_REPLICA_MAX_LAG_MS`, so a read served there
 * sees every write committed on the primary more than that long before it began. An idle primary writes no WAL,
 * so its position stays where the replica already is and the replica counts as fresh (unlike a lag measured from
 * `pg_last_xact_replay_timestamp()`, which grows while nothing is written). When the replica is down, no longer in
 * recovery, or behind, reads go to the primary; a read that fails on the replica for a connection reason (or is
 * cancelled by a recovery conflict) is run again on the primary at once, and the replica is left alone until its
 * next good check.
 */
import type { Logger } from 'pino';
import type { Options, PostgresType, Sql } from 'postgres';
import { getMetrics } from '../metrics.ts';
import { APP_SESSION_SETTINGS, connectPostgres, type Db, preparing } from './client.ts';
import * as schema from './schema.ts';

type Client = Sql<Record<string, PostgresType>>;

export interface ReplicaOptions {
  /** postgres:// URL of the replica. */
  url: string;
  /** The primary's Drizzle handle (its postgres.js client serves the fallback). */
  primary: Db;
  /** Reads go to the replica only while it has replayed everything the primary committed this long ago (ms). */
  maxLagMs: number;
  /** How often the replica's position is checked (ms); 0: only when `check()` is called (tests). */
  checkIntervalMs: number;
  max?: number;
  statementTimeoutMs?: number;
  logger?: Logger;
  /** The clock in ms, monotonic (performance.now by default: wall-clock steps must not fake freshness); tests move it. */
  now?: () => number;
}

/** Where a read goes, and why. */
interface ReplicaState {
  target: 'replica' | 'primary';
  /** The time (the router's clock) before which every primary commit is visible on the replica; null: not yet. */
  freshAt: number | null;
  /** Why the replica is not used: `down`, `not-a-replica`, `behind` or `unchecked`; null when it is. */
  reason: 'down' | 'not-a-replica' | 'behind' | 'unchecked' | null;
}

export interface ReplicaRouter {
  /** The handle for a read that may be up to maxLagMs old: the replica's when fresh enough, else the primary's. */
  readDb(): Db;
  state(): ReplicaState;
  /** Samples the primary's WAL position and the replica's replay position once. */
  check(): Promise<ReplicaState>;
  close(): Promise<void>;
}

/** A WAL position `X/Y` (hex) as a number. */
function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** postgres.js connection errors, and the SQLSTATEs after which the same read should go to the primary. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01', // admin_shutdown (the replica is stopping)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '53300', // too_many_connections
  '40001', // on a standby: canceling statement due to conflict with recovery
]);

/** Whether a failed read on the replica should run again on the primary. */
function isReplicaUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return CONNECTION_CODES.has(code) || code.startsWith('08');
}

type Pending = PromiseLike<unknown> & { values(): PromiseLike<unknown> };

/**
 * A postgres.js client for Drizzle that runs each statement on the replica and, when the replica cannot serve it,
 * on the primary. Drizzle calls only `unsafe(query, params, options)` (awaited, or `.values()`) for reads.
 */
function withFallback(replica: Client, primary: Client, onUnavailable: (err: unknown) => void): Client {
  return new Proxy(replica, {
    get(target, key, receiver) {
      if (key !== 'unsafe') return Reflect.get(target, key, receiver);
      return (query: string, params?: unknown[], options?: Record<string, unknown>) => {
        const run = async (values: boolean) => {
          const on = (client: Client) => {
            const pending = client.unsafe(query, params as never, options) as unknown as Pending;
            return values ? pending.values() : pending;
          };
          try {
            return await on(target);
          } catch (err) {
            if (!isReplicaUnavailable(err)) throw err;
            onUnavailable(err);
            return await on(primary);
          }
        };
        let all: Promise<unknown> | undefined;
        return {
          // biome-ignore lint/suspicious/noThenProperty: postgres.js's queries are thenables; Drizzle awaits this one.
          then: (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => {
            all ??= run(false);
            return all.then(ok, fail);
          },
          values: () => run(true),
        };
      };
    },
  });
}

/** Opens the replica's pool and starts checking it; reads go to the primary until the first good check. */
export async function openReplicaRouter(options: ReplicaOptions): Promise<ReplicaRouter> {
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const now = options.now ?? (() => performance.now());
  const timeout = options.statementTimeoutMs ?? 0;
  const pool: Options<Record<string, PostgresType>> = {
    max: options.max ?? 4,
    connect_timeout: 5,
    connection: { ...APP_SESSION_SETTINGS, ...(timeout > 0 ? { statement_timeout: timeout } : {}) },
  };
  const replicaClient = await connectPostgres(options.url, pool);
  const primaryClient = (options.primary as unknown as { $client: Client }).$client;
  const metrics = getMetrics();

  let freshAt: number | null = null;
  let reason: ReplicaState['reason'] = 'unchecked';
  /** Primary WAL positions not yet replayed on the replica, oldest first. */
  let samples: Array<{ lsn: bigint; at: number }> = [];
  let downLogged = false;
  const markDown = (err: unknown) => {
    reason = 'down';
    samples = [];
    if (!downLogged) options.logger?.warn({ err }, 'read replica unavailable: reads go to the primary');
    downLogged = true;
  };
  const replicaDb = drizzle(
    preparing(
      withFallback(replicaClient, primaryClient, (err) => {
        metrics.replicaFallbacks.inc();
        markDown(err);
      }),
    ),
    { schema },
  ) as unknown as Db;

  const state = (): ReplicaState => {
    const fresh = freshAt !== null && now() - freshAt <= options.maxLagMs;
    const why = reason ?? (fresh ? null : 'behind');
    return { target: why === null ? 'replica' : 'primary', freshAt, reason: why };
  };

  let running: Promise<ReplicaState> | null = null;
  const checkOnce = async (): Promise<ReplicaState> => {
    const at = now();
    const [position] = await primaryClient.unsafe<Array<{ lsn: string }>>(
      'SELECT pg_current_wal_lsn()::text AS lsn',
    );
    samples.push({ lsn: lsnValue(position!.lsn), at });
    if (samples.length > 50) samples.shift();
    try {
      const [replay] = await replicaClient.unsafe<Array<{ standby: boolean; replayed: string | null }>>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      );
      if (!replay?.standby || !replay.replayed) {
        if (reason !== 'not-a-replica')
          options.logger?.error(
            'DATABASE_REPLICA_URL is not a streaming replica (not in recovery): not used',
          );
        reason = 'not-a-replica';
        samples = [];
        return state();
      }
      const replayed = lsnValue(replay.replayed);
      for (const s of samples) if (s.lsn <= replayed) freshAt = Math.max(freshAt ?? s.at, s.at);
      samples = samples.filter((s) => s.lsn > replayed);
      if (reason !== null) options.logger?.info('read replica in use');
      reason = null;
      downLogged = false;
    } catch (err) {
      markDown(err);
    }
    const current = state();
    if (current.freshAt !== null) metrics.replicaStaleness.set((now() - current.freshAt) / 1000);
    return current;
  };
  const check = () => {
    running ??= checkOnce().finally(() => {
      running = null;
    });
    return running;
  };
  const logCheckError = (err: unknown) =>
    options.logger?.error({ err }, 'read replica check failed (the primary did not answer)');
  const timer =
    options.checkIntervalMs > 0
      ? setInterval(() => check().catch(logCheckError), options.checkIntervalMs)
      : null;
  timer?.unref();
  await check().catch(logCheckError);

  return {
    readDb() {
      const target = state().target;
      metrics.dbReads.inc({ target });
      return target === 'replica' ? replicaDb : options.primary;
    },
    state,
    check,
    async close() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
      await replicaClient.end({ timeout: 5 });
    },
  };
}
