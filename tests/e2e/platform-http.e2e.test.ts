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
