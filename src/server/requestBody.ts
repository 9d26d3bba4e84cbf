/** The body of a GraphQL POST, read once before Yoga sees the request. */
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Reads a POST body (its size already checked against API_MAX_BODY_BYTES through Content-Length) and hands
 * the request on with `req.body` set, as body-parser would. Yoga's server adapter takes a body that is
 * already read instead of reading the request through a stream pipeline of its own, which cost about a
 * sixth of the HTTP thread's CPU per small GraphQL request (docs/notes/perf-api.md, round 5). A JSON object
 * goes on parsed; anything else (another content type, invalid JSON, a JSON array or scalar) goes on as the
 * bytes, so Yoga answers it exactly as before.
 */
export function withBody(req: IncomingMessage, res: ServerResponse, next: Handler): void {
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
