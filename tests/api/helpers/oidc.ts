/**
 * A local OpenID Connect provider made by the test: its own RS256 key, a JWKS endpoint and an authorization
 * endpoint that "signs the user in" at once and redirects back to the app with a signed ID token, in the
 * fragment or by form_post (an auto-submitted HTML form), as the request's response_mode asks. The app is
 * configured to use it through GOOGLE_/APPLE_ AUTHORIZE_URL, ISSUER and JWKS_URL; production code has no fake.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface TestOidc {
  issuer: string;
  /** Every authorization request received (its query parameters). */
  requests: URLSearchParams[];
  /** The email the next sign-in is for. */
  setEmail(email: string): void;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Starts the provider on `port` (0: any free port). */
export async function startTestOidc(port = 0): Promise<TestOidc> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const requests: URLSearchParams[] = [];
  let email = 'social.user@demo.test';
  let issuer = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/jwks') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: [jwk] }));
        return;
      }
      if (url.pathname !== '/authorize') {
        res.writeHead(404).end();
        return;
      }
      const q = url.searchParams;
      requests.push(q);
      const redirect = q.get('redirect_uri') ?? '';
      const idToken = await new SignJWT({ email, email_verified: true, nonce: q.get('nonce') ?? undefined })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(issuer)
        .setAudience(q.get('client_id') ?? '')
        .setSubject(`sub-${email}`)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      const answer = new URLSearchParams({ id_token: idToken, state: q.get('state') ?? '' });
      if (q.get('response_mode') === 'form_post') {
        const inputs = [...answer]
          .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
          .join('');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><title>Test provider</title><form method="post" action="${escapeHtml(redirect)}">${inputs}</form><script>document.forms[0].submit()</script>`,
        );
        return;
      }
      res.writeHead(302, { location: `${redirect}#${answer}` }).end();
    })().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    requests,
    setEmail: (next) => {
      email = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
