/** GET /api/health: whether the database answers, without letting a busy database look like an outage. */
import type { ServerResponse } from 'node:http';
import { sendJson } from './httpHeaders.ts';
import type { ApiServices } from './services.ts';

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
export async function health(
  services: ApiServices,
  probe: DatabaseHealth,
  res: ServerResponse,
): Promise<void> {
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
