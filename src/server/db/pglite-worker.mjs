// @ts-check
/**
 * PGlite off the HTTP thread: this worker thread owns the embedded database and serves it over the
 * PostgreSQL wire protocol on a Unix socket, so the app talks to it with the same driver (postgres.js)
 * as to a real PostgreSQL server, and no SQL runs on the thread that answers requests.
 *
 * PGlite is one backend session, so connections take turns. A connection holds the session from its
 * first message until the session is idle again: after a Sync or a simple Query, outside a transaction.
 * So an extended-protocol exchange (Parse … Sync, possibly with a Flush round trip) and a whole
 * transaction (BEGIN … COMMIT) are never interleaved with another connection's messages.
 *
 * Plain JavaScript (checked by TypeScript through JSDoc) so that it runs in a worker without a loader.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {{ dataDir?: string, loadDataDir?: string, socketPath: string }} */
const options = workerData;

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/**
 * The `application_name` of a background connection (the demo's backfill): it gets the session only when no other
 * connection is waiting, so a request waits behind at most the background turn in flight. Kept in step with
 * BACKGROUND_APPLICATION in client.ts.
 */
const BACKGROUND_APPLICATION = 'tenant-app-background';
/**
 * After a foreground turn, how long a background connection waits before it may take the session: the
 * foreground client's next statement comes first, whether it is on its way after the answer to the last or
 * follows some work of the request's own (a login checks its password hash, about 20–30 ms, between
 * statements). With 3 ms, logins waited behind a background transaction several times each while the demo's
 * history loaded (p50 59 ms against 29 ms with nothing loading).
 */
const GRACE_MS = 30;

/** @typedef {{ background?: boolean }} Who */

/** A lock over the one backend session: first come, first served, except that background connections go last. */
class SessionLock {
  /** @type {Who | null} */
  owner = null;
  /** @type {{ who: Who, grant: () => void }[]} */
  waiting = [];
  /** @type {ReturnType<typeof setTimeout> | null} */
  grace = null;

  /**
   * How long foreground turns waited for the session while a background connection held it when they asked
   * (ms, since the last `takeWaits`): what a request lost to background work, the figure the backfill's latency
   * goal is about.
   * @type {number[]}
   */
  behindBackground = [];

  /** @param {Who} who */
  acquire(who) {
    if (this.owner === who) return Promise.resolve();
    if (this.owner === null && !(who.background && (this.grace !== null || this.waiting.length > 0))) {
      this.owner = who;
      return Promise.resolve();
    }
    // A request asking while a background connection holds the session: its wait is measured.
    const asked = !who.background && this.owner?.background ? performance.now() : null;
    return new Promise((grant) =>
      this.waiting.push({
        who,
        grant: () => {
          if (asked !== null) this.behindBackground.push(performance.now() - asked);
          grant(undefined);
        },
      }),
    );
  }

  /** The waits recorded since the last call (and forgets them). */
  takeWaits() {
    const waits = this.behindBackground;
    this.behindBackground = [];
    return waits;
  }

  /** @param {Who} who */
  release(who) {
    if (this.owner !== who) {
      this.waiting = this.waiting.filter((w) => w.who !== who);
      return;
    }
    this.owner = null;
    this.handOn(!who.background);
  }

  /**
   * Gives the session to the first foreground waiter; a background one gets it only when none waits, and
   * after a foreground turn only once GRACE_MS have passed without another foreground acquire.
   * @param {boolean} afterForeground
   */
  handOn(afterForeground) {
    const i = this.waiting.findIndex((w) => !w.who.background);
    if (i >= 0) {
      const [next] = this.waiting.splice(i, 1);
      this.owner = /** @type {{ who: Who }} */ (next).who;
      next?.grant();
      return;
    }
    if (this.waiting.length === 0) return;
    if (afterForeground) {
      if (this.grace !== null) clearTimeout(this.grace);
      this.grace = setTimeout(() => {
        this.grace = null;
        if (this.owner === null) this.handOn(false);
      }, GRACE_MS);
      return;
    }
    const next = /** @type {{ who: Who, grant: () => void }} */ (this.waiting.shift());
    this.owner = next.who;
    next.grant();
  }
}

/** The parameters of a startup packet (length, protocol, then name/value pairs, each ending in a zero byte). */
function startupParameters(/** @type {Buffer} */ packet) {
  /** @type {Record<string, string>} */
  const params = {};
  let at = 8;
  const next = () => {
    const end = packet.indexOf(0, at);
    if (end < 0) return '';
    const text = packet.toString('utf8', at, end);
    at = end + 1;
    return text;
  };
  for (let name = next(); name !== ''; name = next()) params[name] = next();
  return params;
}

const startParams = [...PGlite.defaultStartParams, '-c', 'wal_level=minimal', '-c', 'max_wal_senders=0'];
// In memory, `loadDataDir` starts from a dumped cluster (the API tests' migrated template) instead of running initdb.
const loadDataDir = options.loadDataDir ? new Blob([readFileSync(options.loadDataDir)]) : undefined;
const db = options.dataDir
  ? new PGlite(options.dataDir, { startParams })
  : new PGlite({ startParams, ...(loadDataDir ? { loadDataDir } : {}) });
await db.waitReady;
const lock = new SessionLock();
/** Runs on the session; PGlite's own mutex keeps `db.query` callers (shutdown) out meanwhile. */
const exec = (/** @type {Uint8Array} */ bytes, /** @type {(d: Uint8Array) => void} */ onRawData) =>
  db.runExclusive(() => db.execProtocolRawStream(bytes, { onRawData }));

/** Serves one client connection. @param {import('node:net').Socket} socket */
function serve(socket) {
  socket.setNoDelay(true);
  /** @type {Who} */
  const me = {};
  let buffer = Buffer.alloc(0);
  let started = false;
  let closed = false;
  let holding = false;
  /** Complete messages waiting to run, in order. @type {Buffer[]} */
  const pending = [];
  let running = false;

  /**
   * PGlite hands `onRawData` a view of its output buffer, which it reuses for the next chunk. `socket.write`
   * keeps a reference when the socket is congested and writes it later, by then overwritten: the client read
   * garbled rows (issue 24). So every chunk is copied before it is written: `Buffer.from` of a view copies.
   */
  const send = (/** @type {Uint8Array} */ data) => {
    if (!closed && data.length > 0) socket.write(Buffer.from(data));
  };

  /** Splits the buffer into whole messages (the startup packet first). */
  const frame = () => {
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        const code = buffer.readInt32BE(4);
        if (buffer.length < length) return;
        const packet = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          // Not supported: a statement runs to its end (see docs/decisions.md).
          socket.end();
          return;
        }
        started = true;
        me.background = startupParameters(packet).application_name === BACKGROUND_APPLICATION;
        pending.push(Buffer.from(packet));
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1) + 1;
      if (buffer.length < length) return;
      pending.push(Buffer.from(buffer.subarray(0, length)));
      buffer = buffer.subarray(length);
    }
  };

  const pump = async () => {
    if (running) return;
    running = true;
    try {
      while (pending.length > 0 && !closed) {
        if (!holding) {
          await lock.acquire(me);
          holding = true;
          if (closed) break;
        }
        // Run everything that has arrived in one call, up to and including the last message that may end the
        // turn (type 0 is the startup packet, whose first byte is its length's high byte): a client that
        // pipelines several statements (postgres.js does, on a busy connection) gets them all run at once, which
        // costs the engine one call instead of one per statement. The turn is over only after that call, so
        // another connection may wait a little longer; nothing is interleaved either way.
        let end = 0;
        for (let i = 0; i < pending.length; i++) {
          const type = pending[i]?.[0];
          if (type === 0x58 /* Terminate */ || type === 0 /* startup: always alone */) {
            end = i + 1;
            break;
          }
          if (type === 0x53 /* Sync */ || type === 0x51 /* Query */) end = i + 1;
        }
        // No message that ends the turn yet (an extended-protocol exchange with a Flush): run what there is.
        if (end === 0) end = pending.length;
        const batch = pending.splice(0, end);
        const lastType = batch[batch.length - 1]?.[0];
        if (lastType === 0x58 /* Terminate */) {
          batch.pop();
          if (batch.length > 0) await exec(Buffer.concat(batch), send);
          closed = true;
          break;
        }
        await exec(Buffer.concat(batch), send);
        if ((lastType === 0 || lastType === 0x53 || lastType === 0x51) && !db.isInTransaction()) {
          holding = false;
          lock.release(me);
        }
      }
    } catch (err) {
      parentPort?.postMessage({ type: 'error', message: String(err) });
      socket.destroy();
    } finally {
      running = false;
      if (closed) await hangUp();
    }
  };

  /** A client gone mid-turn: end its extended-protocol exchange and roll back its transaction. */
  const hangUp = async () => {
    closed = true;
    pending.length = 0;
    if (running) return;
    if (holding) {
      holding = false;
      try {
        await exec(SYNC, () => {});
        if (db.isInTransaction()) await db.exec('ROLLBACK');
      } finally {
        lock.release(me);
      }
    } else lock.release(me);
  };

  socket.on('data', (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    frame();
    void pump();
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    void hangUp();
  });
}

rmSync(options.socketPath, { force: true });
const server = createServer(serve);
await new Promise((resolve) => server.listen(options.socketPath, () => resolve(undefined)));

parentPort?.on('message', async (message) => {
  if (message?.type === 'waits') {
    parentPort?.postMessage({ type: 'waits', waits: lock.takeWaits() });
    return;
  }
  if (message?.type !== 'close') return;
  server.close();
  // Waits for the statement in flight (PGlite's mutex), then flushes and closes the files.
  await db.close();
  rmSync(options.socketPath, { force: true });
  parentPort?.postMessage({ type: 'closed' });
});
parentPort?.postMessage({ type: 'ready' });
