/** The headers every response of the Node server carries (security), and its JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ServerConfig } from './config.ts';

/** The CSP of responses that set none (API, static files). Astro's pages send their own, with script hashes. */
const FALLBACK_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Features no page of the app uses. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** Two years, the preload list's minimum is one. */
const HSTS = 'max-age=63072000; includeSubDomains';

/** Whether the browser reached us over TLS: our own TLS socket, or a trusted proxy's X-Forwarded-Proto. */
function isSecureRequest(req: IncomingMessage, config: Pick<ServerConfig, 'TRUST_PROXY'>): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (config.TRUST_PROXY < 1) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, config: ServerConfig): void {
  res.setHeader('Content-Security-Policy', FALLBACK_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  if (isSecureRequest(req, config)) res.setHeader('Strict-Transport-Security', HSTS);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}
