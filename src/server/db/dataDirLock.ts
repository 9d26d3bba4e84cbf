/**
 * One process at a time on an embedded database folder. PGlite's files must never be opened by two processes:
 * a second one (the CLI beside `npm start`) corrupts them. The process that opens the folder binds a Unix socket
 * named after the folder's real path; binding is atomic, and the kernel releases it when the process ends,
 * however it ends (no stale lock file to clean up after a crash or `kill -9`). Another process that tries the
 * same folder finds the address taken, and asks the holder who it is: its pid and the socket on which its PGlite
 * worker serves the wire protocol (pglite-worker.mjs), so the CLI can work through the running server.
 *
 * On Linux the lock is in the abstract socket namespace (no file at all). Elsewhere it is a socket file beside
 * the folder; a leftover file from a crash is detected (nobody answers on it) and replaced.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';

/** Who holds a folder: its process and the socket its PGlite worker serves. */
export interface DataDirOwner {
  pid: number;
  socketPath: string;
  /** The server's public origin once it listens (APP_URL, or its real address), for links the CLI prints. */
  origin?: string;
}

const ORIGIN_KEY = Symbol.for('tenant-app.advertised-origin');
type Holder = { [ORIGIN_KEY]?: string };

/** Tells other processes that ask the lock where this server is reached (start.ts, once listening). */
export function advertiseOrigin(origin: string): void {
  (globalThis as Holder)[ORIGIN_KEY] = origin;
}

/** The folder is open in another process. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: DataDirOwner,
  ) {
    super(
      `The embedded database in ${dataDir} is open in another process (pid ${owner.pid}, e.g. npm start). ` +
        'Two processes must never open it at once: stop that process first, or use PostgreSQL (DATABASE_URL).',
    );
  }
}

/** The lock's socket address for a folder (which must exist). */
function lockAddress(dataDir: string): string {
  const real = realpathSync(dataDir);
  if (process.platform === 'linux') {
    const hash = createHash('sha256').update(real).digest('hex').slice(0, 32);
    return `\0tenant-app-pglite-${hash}`;
  }
  return join(dirname(real), `.${real.split(/[\\/]/).pop()}.lock.sock`);
}

/** Asks the holder of a lock address who it is; null when nobody holds it. */
function askOwner(address: string): Promise<DataDirOwner | null> {
  return new Promise((resolve) => {
    const socket = connect(address);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as DataDirOwner);
      } catch {
        // Someone holds the address but did not say who: still taken.
        resolve({ pid: 0, socketPath: '' });
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? null : { pid: 0, socketPath: '' });
    });
  });
}

function listen(server: Server, address: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    server.listen(address, () => resolve(null));
  });
}

/** The folder's holder, if any (without taking the lock). */
export async function dataDirOwner(dataDir: string): Promise<DataDirOwner | null> {
  if (!existsSync(dataDir)) return null;
  return askOwner(lockAddress(dataDir));
}

/**
 * Takes the folder's lock for this process (creating the folder), or throws DataDirBusyError with the holder.
 * `owner()` is what the lock answers to others; call `release()` after the database is closed.
 */
export async function lockDataDir(
  dataDir: string,
  owner: () => DataDirOwner,
): Promise<{ release(): Promise<void> }> {
  mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(dataDir);
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    const origin = (globalThis as Holder)[ORIGIN_KEY];
    socket.end(JSON.stringify({ ...owner(), ...(origin ? { origin } : {}) }));
  });
  for (let attempt = 0; ; attempt++) {
    const err = await listen(server, address);
    if (!err) break;
    if (err.code !== 'EADDRINUSE') throw err;
    const holder = await askOwner(address);
    if (holder) throw new DataDirBusyError(dataDir, holder);
    // A socket file left by a process that died (not on Linux, whose abstract sockets vanish with it).
    if (attempt > 0 || address.startsWith('\0'))
      throw new DataDirBusyError(dataDir, { pid: 0, socketPath: '' });
    rmSync(address, { force: true });
  }
  // The lock must not keep a finished process alive.
  server.unref();
  return {
    release: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (!address.startsWith('\0')) rmSync(address, { force: true });
      }),
  };
}
