/** The client build's files, and the pages Astro prerendered into it, as the Node server sends them. */
import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sep } from 'node:path';
import sirv from 'sirv';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The client build's files through sirv: indexed once at start, sent with their precompressed `.br`/`.gz` sibling
 * when the browser takes it, with ETag (304 on If-None-Match) and byte ranges. Hashed `/_astro/` files are
 * immutable for a year, the rest (favicon, brand logos) are cached for an hour. Anything not in the build (every
 * page) goes on to `next`.
 */
export function staticFiles(clientDir: string): Middleware {
  const serve = sirv(clientDir, {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    // Pages are Astro's: a URL is never looked up as `.html` or as a folder's index here.
    extensions: [],
    setHeaders: (res, pathname) =>
      res.setHeader(
        'Cache-Control',
        pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      ),
  }) as Middleware;
  return (req, res, next) => {
    // sirv looks for "br" and "gzip" anywhere in the header; an encoding refused with q=0 must not be sent.
    req.headers['accept-encoding'] = acceptedEncodings(req).join(', ');
    serve(req, res, next);
  };
}

/** The encodings the request accepts (those with q=0 left out). */
function acceptedEncodings(req: IncomingMessage): string[] {
  const accepted: string[] = [];
  for (const part of (req.headers['accept-encoding'] ?? '').toString().split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.push(name);
  }
  return accepted;
}

/** How long browsers and shared caches keep a prerendered page before asking again (with its ETag). */
export const PRERENDERED_CACHE_CONTROL = 'public, max-age=3600';

/**
 * The URL paths of the pages Astro prerendered into the client build (`/help/en` for `help/en/index.html`),
 * read once at start. Astro's own handler sends them (with their CSP header, ETag, 304 and ranges, through
 * `send`); the server adds their Cache-Control. Every other page is rendered per request and varies by Cookie.
 */
export function prerenderedPages(clientDir: string): Set<string> {
  const pages = new Set<string>();
  for (const entry of readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
    const file = entry.split(sep).join('/');
    if (file === 'index.html') pages.add('/');
    else if (file.endsWith('/index.html') && !file.startsWith('_astro/')) pages.add(`/${file.slice(0, -11)}`);
  }
  return pages;
}
