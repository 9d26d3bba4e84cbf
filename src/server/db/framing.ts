/**
 * A guard on the app's connection to the embedded database (the PGlite worker's socket): it follows the
 * PostgreSQL wire protocol's framing of what the server sends and, at the first message that cannot be one (an
 * unknown type, an impossible length) or a message that stops arriving halfway, destroys the socket.
 *
 * Why: postgres.js reads a garbled stream as best it can and then waits for a message that never ends, so its
 * one shared connection hung, every request with it, and `/api/health` answered 503 until a restart (issue 24).
 * Destroyed, the connection fails the statements in flight with a connection error and postgres.js opens a new
 * one for the next statement (a new connection prepares its statements again, under new names).
 */
import { connect, type Socket } from 'node:net';

/** The backend message types postgres.js knows (its connection.js `handle`). */
const TYPES = new Set([...'DdASZC21tTRnKEs3GNHcIVvW'].map((c) => c.charCodeAt(0)));
/** Messages whose length is fixed: ReadyForQuery, BackendKeyData, and the ones without a body. */
const FIXED = new Map<number, number>([
  ['Z'.charCodeAt(0), 5],
  ['K'.charCodeAt(0), 12],
  ...[...'123nsIc'].map((c) => [c.charCodeAt(0), 4] as [number, number]),
]);
/** PostgreSQL's own limit on a message (1 GiB). */
const MAX_LENGTH = 0x40000000;

/** Options of the guard. */
export interface FramingOptions {
  /** How long a message may stay half-received with nothing more arriving (ms). */
  stallMs?: number;
}

/**
 * Watches a socket's incoming bytes as backend messages. A chunk that holds a message that cannot be one is not
 * passed on to the socket's readers at all (postgres.js would have read a garbled ReadyForQuery as the end of a
 * statement with no rows); the socket is destroyed with an error that says why. Returns the socket.
 */
function guardFraming(socket: Socket, options: FramingOptions = {}): Socket {
  const stallMs = options.stallMs ?? 30_000;
  const header = Buffer.alloc(5);
  let headerBytes = 0;
  let remaining = 0;
  let stall: ReturnType<typeof setTimeout> | null = null;

  const fail = (reason: string) => {
    if (stall) clearTimeout(stall);
    stall = null;
    socket.destroy(new Error(`database connection: protocol error (${reason}); the connection is replaced`));
  };

  /** The reason the chunk breaks the framing, or null when it does not. */
  const check = (chunk: Buffer): string | null => {
    let at = 0;
    while (at < chunk.length) {
      if (remaining > 0) {
        const take = Math.min(remaining, chunk.length - at);
        remaining -= take;
        at += take;
        continue;
      }
      const take = Math.min(5 - headerBytes, chunk.length - at);
      chunk.copy(header, headerBytes, at, at + take);
      headerBytes += take;
      at += take;
      if (headerBytes < 5) break;
      headerBytes = 0;
      const type = header[0]!;
      const length = header.readInt32BE(1);
      const fixed = FIXED.get(type);
      if (!TYPES.has(type)) return `unknown message type ${type}`;
      if (length < 4 || length > MAX_LENGTH || (fixed !== undefined && length !== fixed))
        return `message ${String.fromCharCode(type)} of length ${length}`;
      remaining = length - 4;
    }
    return null;
  };

  const emit = socket.emit.bind(socket);
  socket.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'data') return emit(event, ...args);
    if (socket.destroyed) return false;
    const broken = check(args[0] as Buffer);
    if (broken) {
      fail(broken);
      return false;
    }
    if (stall) clearTimeout(stall);
    stall =
      remaining > 0 || headerBytes > 0
        ? setTimeout(() => fail(`a message stopped arriving for ${stallMs} ms`), stallMs).unref()
        : null;
    return emit(event, ...args);
  }) as Socket['emit'];
  socket.on('close', () => {
    if (stall) clearTimeout(stall);
  });
  return socket;
}

/** A guarded connection to a Unix socket, as postgres.js's `socket` option wants it. */
export function framedSocket(path: string, options?: FramingOptions): Socket {
  return guardFraming(connect(path), options);
}
