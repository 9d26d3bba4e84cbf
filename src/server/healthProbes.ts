/**
 * Probes for load balancers and orchestrators, beside the general `/api/health`:
 * - `GET /api/health/live`: the process answers HTTP (restart it when this fails). No database work.
 * - `GET /api/health/ready`: send it traffic. 200 when the database answers, its schema has every migration
 *   this build ships, and both backends' signing keys are loaded; else 503 naming what is missing.
 * Neither says anything about data, and neither needs a login.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { pendingMigrations } from './db/schemaVersion.ts';
import type { ApiServices } from './services.ts';

const LIVE_PATH = '/api/health/live';
const READY_PATH = '/api/health/ready';
/** How long readiness waits for the database before it answers 503. */
const READY_TIMEOUT_MS = 5_000;

type Check = 'ok' | 'failed';
interface Readiness {
  ready: boolean;
  database: Check;
  migrations: 'current' | 'pending' | 'unknown';
  pendingMigrations?: number;
  keys: 'loaded' | 'missing';
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Readiness of a process's services (exported for tests and the deploy script's expectations). */
async function readiness(services: ApiServices, migrated: { known: boolean }): Promise<Readiness> {
  const keys = services.keys?.account?.privateKey && services.keys?.tenant?.privateKey ? 'loaded' : 'missing';
  try {
    // A schema never goes back, so once current only reachability is asked again.
    let pending = 0;
    if (migrated.known) await withTimeout(services.database.db.execute(sql`SELECT 1`), READY_TIMEOUT_MS);
    else {
      pending = await withTimeout(pendingMigrations(services.database), READY_TIMEOUT_MS);
      if (pending === 0) migrated.known = true;
    }
    return {
      ready: pending === 0 && keys === 'loaded',
      database: 'ok',
      migrations: pending === 0 ? 'current' : 'pending',
      ...(pending > 0 ? { pendingMigrations: pending } : {}),
      keys,
    };
  } catch {
    return { ready: false, database: 'failed', migrations: migrated.known ? 'current' : 'unknown', keys };
  }
}

/** A handler for the two probe paths; returns false for any other request. */
export function createHealthProbes(
  services: ApiServices,
): (path: string, req: IncomingMessage, res: ServerResponse) => boolean {
  const migrated = { known: false };
  return (path, req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (path === LIVE_PATH) {
      send(res, 200, { status: 'live' });
      return true;
    }
    if (path !== READY_PATH) return false;
    void readiness(services, migrated).then((r) => {
      const { ready, ...checks } = r;
      send(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', ...checks });
    });
    return true;
  };
}
