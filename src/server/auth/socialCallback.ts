/**
 * The social-login redirect URI when a provider answers by `form_post` (Apple): a cross-site POST that Astro's
 * origin check refuses, so the Node server takes it before Astro. Only `id_token`, `state` and `error` are
 * kept, and the browser is sent on with a 303 to the same path with them in the fragment, where the page's
 * script checks the state it stored and calls socialAuth (one client path for every provider). Nothing is
 * verified or stored here; the fragment never reaches a server again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SOCIAL_CALLBACK_PATH } from './social.ts';

/** More than any ID token (a few KB); a larger body is refused unread. */
const MAX_BODY_BYTES = 32_768;

const KEPT = ['id_token', 'state', 'error'] as const;

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Answer at once; the rest is read and dropped, and the connection closes after the answer.
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers a provider's form_post to SOCIAL_CALLBACK_PATH. */
export async function handleSocialFormPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const type = req.headers['content-type'] ?? '';
  const body = type.startsWith('application/x-www-form-urlencoded') ? await readBody(req) : null;
  const form = new URLSearchParams(body ?? '');
  const fragment = new URLSearchParams();
  for (const key of KEPT) {
    const value = form.get(key);
    if (value) fragment.set(key, value);
  }
  if (body === null) fragment.set('error', 'invalid_request');
  res.writeHead(303, {
    location: `${SOCIAL_CALLBACK_PATH}#${fragment.toString()}`,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    ...(body === null ? { connection: 'close' } : {}),
  });
  res.end();
}
