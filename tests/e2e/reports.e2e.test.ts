/**
 * The public pages, the monthly report and the consent banner, end to end in Chromium, with axe in en, da and nb.
 * Allocation statements are in statements.e2e.test.ts, the brands in brands.e2e.test.ts.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { PASSWORD, seriousA11yViolations } from './helpers.ts';

const LANGUAGES = ['en', 'da', 'nb'] as const;
const STATIC_PAGES = ['/help', '/data-policy', '/cookie-policy'];

/** Logs in over the account backend and returns the user's newest monthly report path. */
async function demoReportPath(page: Page): Promise<string> {
  const post = async (query: string, token?: string) => {
    const response = await page.request.post('/api/account/graphql', {
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      data: { query },
    });
    // biome-ignore lint/suspicious/noExplicitAny: a test's view of three known GraphQL answers
    return (await response.json()) as { data: Record<string, any> };
  };
  const login = await post(
    `mutation { tokenAuth(email: "tenant@demo.test", password: "${PASSWORD}") { token } }`,
  );
  const token = login.data.tokenAuth.token as string;
  const tenancies = await post('{ allTenanciesForCurrentUser { id } }', token);
  const id = tenancies.data.allTenanciesForCurrentUser[0].id as string;
  const reports = await post(`{ monthlyReports(tenancyId: "${id}") { url } }`, token);
  return reports.data.monthlyReports[0].url as string;
}

/** The JS files a page loads, with their sizes. */
async function scriptsOf(context: BrowserContext, url: string): Promise<{ url: string; bytes: number }[]> {
  const page = await context.newPage();
  const scripts: { url: string; bytes: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push({ url: response.url(), bytes: (await response.body()).byteLength });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await expect(page.locator('astro-island')).toHaveCount(0);
  await page.close();
  return scripts;
}

test.describe
  .serial('public pages and the consent banner', () => {
    let context: BrowserContext;
    let reportPath: string;

    test.beforeAll(async ({ browser }) => {
      context = await browser.newContext();
      reportPath = await demoReportPath(await context.newPage());
    });
    test.afterAll(async () => {
      await context?.close();
    });

    test('ships no framework JS on the static pages and the report: only the consent banner script', async () => {
      for (const path of [...STATIC_PAGES, reportPath, '/report/unknown-code']) {
        const scripts = await scriptsOf(context, path);
        // Only the banner with its machine and Base.astro's small language-choice script (and the storage helper
        // it shares): nothing of React or the island renderer.
        expect(scripts.length, path).toBeGreaterThan(0);
        expect(
          scripts.some((s) => /react|client\.|Providers|ClientRouter/i.test(s.url)),
          path,
        ).toBe(false);
        // The banner, its machine and the language-choice script, raw bytes; well under the app's islands.
        expect(
          scripts.reduce((sum, s) => sum + s.bytes, 0),
          path,
        ).toBeLessThan(50_000);
      }
    });

    test('answers an unknown report code with SPEC §8 and a 404, in every language', async () => {
      const page = await context.newPage();
      const unknown = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      const content = page.waitForResponse((r) => r.url().includes(`/report/${unknown}/content`));
      await page.goto(`/report/${unknown}`);
      expect((await content).status()).toBe(404);
      await expect(page.locator('main')).toContainText(
        'This report is no longer available; contact landlord.',
      );
      await page.goto(`/report/${unknown}?lang=da`);
      await expect(page).toHaveURL(`/report/shell/da#${unknown}`);
      await expect(page.locator('main')).toContainText(
        'Rapporten er ikke længere tilgængelig. Kontakt din udlejer.',
      );
      // A shell without a code says the same, without asking the server.
      await page.goto('/report/shell/en');
      await expect(page.getByTestId('report-no-code')).toBeVisible();
      await expect(page.getByTestId('report-no-code')).toContainText(
        'This report is no longer available; contact landlord.',
      );
      await page.close();
    });

    test('serves the report shell prerendered and cacheable; the report itself comes by its code, never cached', async ({
      baseURL,
    }) => {
      const code = reportPath.replace('/report/', '');
      const redirect = await fetch(`${baseURL}${reportPath}`, {
        redirect: 'manual',
        headers: { cookie: 'lang=nb' },
      });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(`/report/shell/nb#${code}`);
      expect(redirect.headers.get('referrer-policy')).toBe('no-referrer');
      expect(redirect.headers.get('cache-control')).toMatch(/private/);
      const shell = await fetch(`${baseURL}/report/shell/nb`);
      expect(shell.status).toBe(200);
      expect(shell.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(shell.headers.get('vary') ?? '').not.toMatch(/Cookie/);
      const html = await shell.text();
      expect(html).toContain('<html lang="nb"');
      // The same shell for every report: no report data in it.
      expect(html).not.toContain(code);
      expect(html).not.toContain('<table');
      const content = await fetch(`${baseURL}/report/${code}/content?lang=nb`);
      expect(content.status).toBe(200);
      expect(content.headers.get('cache-control')).toBe('private, no-store');
      expect(content.headers.get('referrer-policy')).toBe('no-referrer');
      const part = await content.text();
      expect(part).not.toContain('<html');
      expect(part).toContain('report-table');
    });

    test('shows the demo report and prints it to A4', async () => {
      const page = await context.newPage();
      const response = await page.goto(`${reportPath}?lang=en`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Your consumption in /);
      await expect(page.locator('tr[data-quantity="heat-energy"]')).toHaveCount(1);
      await expect(page.locator('figure.month-bars svg[role="img"]').first()).toBeVisible();
      for (const heading of [
        'Corrected for the weather',
        'Cost so far',
        'Your heat supply',
        'Contact your landlord',
        'Energy advice',
        'Complaints',
      ])
        await expect(page.getByRole('heading', { name: heading, exact: true }), heading).toHaveCount(1);
      const pdf = await page.pdf({ format: 'A4', printBackground: true });
      const doc = await getDocumentProxy(new Uint8Array(pdf));
      const first = await doc.getPage(1);
      const [, , width, height] = first.view;
      // A4 is 595 × 842 pt; Chromium rounds the inches up a little.
      expect(Math.abs(width! - 595)).toBeLessThan(2);
      expect(Math.abs(height! - 842)).toBeLessThan(2);
      const { text } = await extractText(doc, { mergePages: true });
      expect(text).toContain('Your consumption in');
      expect(text).toContain('Contact your landlord');
      // The banner and the language picker are not printed.
      expect(text).not.toContain('Read more.');
      await page.close();
    });

    for (const answer of ['accept', 'reject'] as const) {
      test(`stores "${answer}" in cookieAccepted for a year, SameSite=None; Secure, and pushes cookieConsent`, async ({
        browser,
      }) => {
        const fresh = await browser.newContext({ viewport: { width: 390, height: 800 } });
        try {
          const page = await fresh.newPage();
          await page.goto('/help');
          const banner = page.getByRole('region', { name: 'Cookie consent' });
          await expect(banner).toBeVisible();
          await expect(banner.getByRole('link', { name: 'Read more.' })).toHaveAttribute(
            'href',
            '/cookie-policy',
          );
          // On a phone the page scrolls its last content above the banner: nothing stays hidden under it.
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          const last = await page.locator('.public-footer > :last-child').boundingBox();
          const bannerBox = await banner.locator('.cookie-consent-inner').boundingBox();
          expect(last!.y + last!.height).toBeLessThanOrEqual(bannerBox!.y);
          const before = Date.now() / 1000;
          await banner.getByRole('button', { name: answer === 'accept' ? 'Accept' : 'Reject' }).click();
          await expect(banner).toBeHidden();
          const cookie = (await fresh.cookies()).find((c) => c.name === 'cookieAccepted');
          expect(cookie).toMatchObject({
            value: String(answer === 'accept'),
            sameSite: 'None',
            secure: true,
            path: '/',
          });
          expect(cookie!.expires - before).toBeGreaterThan(31_536_000 - 60);
          expect(cookie!.expires - before).toBeLessThan(31_536_000 + 60);
          const dataLayer = await page.evaluate(
            () => (window as unknown as { dataLayer?: unknown[] }).dataLayer,
          );
          expect(dataLayer).toContainEqual({ event: 'cookieConsent', hasAccepted: answer === 'accept' });
          // No tag manager is configured in this build, so nothing was loaded from it.
          await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(0);
          // Answered: the next page has no banner and none of its script; only the few-KB language-choice
          // script of every page remains (Base.astro, with whatever small chunks the bundler splits out of it:
          // their names change with the code, so the test names what must be absent, and the bytes).
          const scripts = await scriptsOf(fresh, '/cookie-policy');
          // Base.astro's script reads the stored answer itself (src/lib/consentCookie.ts, which the bundler may
          // split into a chunk of its own): a prerendered page cannot be told it by the server.
          for (const script of scripts)
            expect(script.url).not.toMatch(/ConsentBanner|consentBanner|cookieConsent/i);
          // 7.5 KB raw since the policies are prerendered: the page itself reads the stored answer and would load
          // the banner by a dynamic import, which brings Vite's preload helper (1.7 KB); it was under 6 KB before.
          expect(scripts.reduce((sum, s) => sum + s.bytes, 0)).toBeLessThan(8_000);
        } finally {
          await fresh.close();
        }
      });
    }

    test('passes axe on every public page in en, da and nb, at 390 and 1400 px', async () => {
      // Twenty axe runs: minutes on a busy 2-core machine.
      test.slow();
      const page = await context.newPage();
      for (const width of [390, 1400]) {
        await page.setViewportSize({ width, height: 900 });
        // Every language at full width; the phone width once, in the language with the longest words.
        for (const lang of width === 390 ? (['da'] as const) : LANGUAGES) {
          for (const path of [...STATIC_PAGES, reportPath, '/report/unknown-code']) {
            await page.goto(`${path}?lang=${lang}`);
            await expect(page.locator('html')).toHaveAttribute('lang', lang);
            // The report's shell shows its content once fetched.
            if (path.startsWith('/report/'))
              await expect(page.locator('#report-root')).not.toHaveAttribute('aria-busy');
            expect(await seriousA11yViolations(page), `${path} ${lang} ${width}`).toEqual([]);
            expect(
              await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
              `${path} ${width}`,
            ).toBe(true);
          }
        }
      }
      await page.close();
    });
  });
