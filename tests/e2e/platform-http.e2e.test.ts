/**
 * The built app behind its own HTTP server: pages carry Astro's CSP (script hashes) as a header with the
 * hardening directives, nothing on the way from login to the dashboard's chart is blocked by it, pages and
 * JS come compressed, and the API answers before Astro.
 */
import { brotliDecompressSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { logInToDashboard, newPage } from './helpers.ts';

test.describe
  .serial('HTTP hardening and compression on the built app', () => {
    let page: Page;
    const violations: string[] = [];

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      page.on('console', (m) => {
        if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('pages send a strict CSP header with hashes and the hardening headers', async ({ baseURL }) => {
      const res = await fetch(`${baseURL}/login/email`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc).toMatch(/'sha256-/);
      expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
      expect(res.headers.get('content-encoding')).toBe('br');
    });

    test('help and the policies are prerendered per language: cached, with their CSP hashes; /help redirects', async ({
      baseURL,
    }) => {
      for (const path of ['/help', '/data-policy', '/cookie-policy']) {
        const byCookie = await fetch(`${baseURL}${path}`, {
          redirect: 'manual',
          headers: { cookie: 'lang=nb' },
        });
        expect(byCookie.status, path).toBe(302);
        expect(byCookie.headers.get('location'), path).toBe(`${path}/nb`);
        expect(byCookie.headers.get('vary'), path).toMatch(/Cookie/);
        expect(byCookie.headers.get('cache-control'), path).toMatch(/private/);
        const byHeader = await fetch(`${baseURL}${path}`, {
          redirect: 'manual',
          headers: { 'accept-language': 'fr, da-DK;q=0.9, en;q=0.5' },
        });
        expect(byHeader.headers.get('location'), path).toBe(`${path}/da`);
        expect(byHeader.headers.get('vary'), path).toMatch(/Accept-Language/);

        const res = await fetch(`${baseURL}${path}/da`, { headers: { 'accept-encoding': 'br' } });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control'), path).toBe('public, max-age=3600');
        expect(res.headers.get('vary') ?? '', path).not.toMatch(/Cookie/);
        const scriptSrc =
          /script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
        expect(scriptSrc, path).toMatch(/'sha256-/);
        expect(scriptSrc, path).not.toMatch(/unsafe-inline|unsafe-eval/);
        expect(await res.text(), path).toContain('<html lang="da"');
        const etag = res.headers.get('etag');
        expect(etag, path).toBeTruthy();
        // fetch adds `Cache-Control: no-cache` to a conditional request unless it has one, which forbids a 304.
        const again = await fetch(`${baseURL}${path}/da`, {
          headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' },
        });
        expect(again.status, path).toBe(304);
      }
      // A page rendered per request says it depends on the cookies.
      const login = await fetch(`${baseURL}/login/email`);
      expect(login.headers.get('vary')).toMatch(/Cookie/);
    });

    test('logs in and draws the dashboard and a chart page with no CSP violation', async () => {
      await logInToDashboard(page, 'tenant@demo.test');
      await expect(page.locator('.compact-graph-svg').first()).toBeVisible({ timeout: 30_000 });
      // The dashboard's cards draw plain SVG; ApexCharts (inline styles, its own stylesheet) draws a quantity page.
      await page.goto(`${page.url()}consumption/heat-energy`);
      await expect(page.locator('.apexcharts-svg').first()).toBeVisible({ timeout: 30_000 });
      expect(violations).toEqual([]);
    });

    test("the page's JS is sent precompressed with brotli, and decodes to the same file", async ({
      baseURL,
    }) => {
      const html = await (await fetch(`${baseURL}/login/email`)).text();
      const src =
        /<script[^>]+src="(\/_astro\/[^"]+\.js)"/.exec(html)?.[1] ??
        /"(\/_astro\/[^"]+\.js)"/.exec(html)?.[1];
      expect(src).toBeTruthy();
      const plain = await (
        await fetch(`${baseURL}${src}`, { headers: { 'accept-encoding': 'identity' } })
      ).text();
      // node:http keeps the body as sent; fetch would decode it.
      const { request } = await import('node:http');
      const encoded = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
        request(`${baseURL}${src}`, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
          );
        })
          .on('error', reject)
          .end();
      });
      expect(encoded.encoding).toBe('br');
      expect(brotliDecompressSync(encoded.body).toString()).toBe(plain);
    });

    test('introspection is off in the production app', async ({ baseURL }) => {
      const res = await fetch(`${baseURL}/api/tenant/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
      });
      const body = (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
      expect(body.errors?.[0]?.extensions?.code).toBe('INTROSPECTION_DISABLED');
    });
  });
