/**
 * The public pages, the monthly report, allocation statements, the consent banner and the brands,
 * end to end in Chromium, with axe in en, da and nb.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { DEMO_PLACEHOLDER_STORE_LINKS } from '../../src/lib/brands.ts';
import {
  chooseHeaderLanguage,
  logInToDashboard,
  newPage,
  PASSWORD,
  seriousA11yViolations,
} from './helpers.ts';

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
        'Denne rapport er ikke længere tilgængelig; kontakt udlejer.',
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

test.describe
  .serial('allocation statements', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('lists the statements from the menu and downloads one as a PDF', async () => {
      const link = page.getByRole('link', { name: 'Allocation statements' });
      await link.click();
      await expect(page).toHaveURL(/\/statements$/);
      const rows = page.getByTestId('statement-row');
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText(/Heating, Meter rental and reading, Administration/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        rows
          .first()
          .getByRole('button', { name: /^Download PDF \(\d/ })
          .click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^statement-T-.+\.pdf$/);
      const bytes = readFileSync((await download.path())!);
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
      expect(text).toContain('Heating cost statement');
      expect(text).toContain('7. Your right to object');
      // Read back against the numbers: the balance and the meter readings the account API gives for it.
      const login = await page.request.post('/api/account/graphql', {
        data: {
          query: `mutation { tokenAuth(email: "tenant@demo.test", password: "${PASSWORD}") { token } }`,
        },
      });
      const token = ((await login.json()) as { data: { tokenAuth: { token: string } } }).data.tokenAuth.token;
      const tenancy = /\/t\/(\d+)\//.exec(page.url())![1];
      const answer = await page.request.post('/api/account/graphql', {
        headers: { authorization: `Bearer ${token}` },
        data: {
          query: `{ allocationStatements(tenancyId: "${tenancy}") { balance currency
            meterReadings { meterNumber startValue endValue consumption } } }`,
        },
      });
      const [statement] = (
        (await answer.json()) as {
          data: {
            allocationStatements: {
              balance: string;
              currency: string;
              meterReadings: { meterNumber: string; startValue: number | null; endValue: number | null }[];
            }[];
          };
        }
      ).data.allocationStatements;
      const flat = text.replace(/\s+/g, ' ');
      const currency = new Intl.NumberFormat('en-GB', { style: 'currency', currency: statement!.currency });
      // Intl puts a no-break space after the currency code; the PDF's Helvetica text has a plain one.
      const money = { format: (x: number) => currency.format(x).replace(/\u00a0/g, ' ') };
      const balance = Number(statement!.balance);
      expect(flat).toContain(
        balance >= 0
          ? `You pay in addition: ${money.format(balance)}`
          : `You get back: ${money.format(-balance)}`,
      );
      expect(flat).toContain('12. Meter readings');
      const n = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 3 });
      for (const m of statement!.meterReadings.filter((r) => r.startValue !== null && r.endValue !== null))
        expect(flat).toContain(`${m.meterNumber} ${n.format(m.startValue!)} ${n.format(m.endValue!)}`);
      // The PDF URL alone, without the bearer token, gives nothing.
      const href = (await page.request.get('/api/statements/1/pdf')).status();
      expect(href).toBe(401);
    });

    test('passes axe on the statements and help pages in en, da and nb', async () => {
      for (const lang of LANGUAGES) {
        await chooseHeaderLanguage(page, lang);
        await page.reload();
        await expect(page.getByTestId('statement-row').first()).toBeVisible();
        expect(await seriousA11yViolations(page), `statements ${lang}`).toEqual([]);
      }
      await chooseHeaderLanguage(page, 'en');
      const help = page.getByRole('link', { name: 'Help' });
      await help.click();
      await expect(page).toHaveURL(/\/help$/);
      await expect(page.getByRole('heading', { name: 'Climate correction' })).toHaveCount(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('moves focus into the phone drawer and back to the menu button, with long labels whole', async () => {
      await page.setViewportSize({ width: 390, height: 800 });
      await chooseHeaderLanguage(page, 'da');
      const open = page.getByRole('button', { name: 'Åbn menu' });
      await open.click();
      await expect(page.locator('#app-menu :focus')).toHaveCount(1);
      const label = page
        .locator('#app-menu .nav-link', { hasText: 'Alarmindstillinger' })
        .locator('span')
        .first();
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      // One line: the word is whole, not broken into "Alarmindstill" + "inger".
      expect(await label.evaluate((el) => el.getClientRects().length)).toBe(1);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Åbn menu' })).toBeFocused();
      await chooseHeaderLanguage(page, 'en');
      await page.setViewportSize({ width: 1400, height: 900 });
    });
  });

test.describe
  .serial('the three brands', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const brands = [
      { id: 'varmeblik', name: 'HeatView', colour: 'rgb(194, 65, 12)', stores: true },
      { id: 'nordmaaler', name: 'Nordic Meter', colour: 'rgb(15, 118, 110)', stores: true },
      { id: 'solgaarden', name: 'Solgården Home', colour: 'rgb(67, 56, 202)', stores: false },
    ] as const;
    const shots = process.env.BRAND_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'brand-shots-'));

    for (const brand of brands) {
      test(`builds and themes ${brand.id} from PUBLIC_BRAND`, async ({ browser }) => {
        test.setTimeout(240_000);
        // Inside the project (node_modules/.cache), so the built server resolves its packages.
        const out = join(root, 'node_modules/.cache/brand-builds', brand.id);
        const data = mkdtempSync(join(tmpdir(), `brand-data-${brand.id}-`));
        const build = spawnSync('npx', ['astro', 'build', '--outDir', out], {
          cwd: root,
          // Store links are per brand build: two brands get the demo placeholders, the third none (hidden).
          env: {
            ...process.env,
            NODE_ENV: 'production',
            PUBLIC_BRAND: brand.id,
            PUBLIC_APP_STORE_URL: brand.stores ? DEMO_PLACEHOLDER_STORE_LINKS[brand.id].appStore : '',
            PUBLIC_PLAY_STORE_URL: brand.stores ? DEMO_PLACEHOLDER_STORE_LINKS[brand.id].playStore : '',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        expect(build.status).toBe(0);
        // A free port, so a server left by an earlier run cannot answer in this build's place.
        const port = await new Promise<number>((resolve, reject) => {
          const probe = createServer();
          probe.once('error', reject);
          probe.listen(0, '127.0.0.1', () => {
            const address = probe.address();
            probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
          });
        });
        const server = spawn(join(root, 'node_modules/.bin/node'), [join(out, 'server/entry.mjs')], {
          cwd: root,
          env: {
            ...process.env,
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            DATA_DIR: data,
          },
          stdio: 'ignore',
        });
        const page = await newPage(browser);
        try {
          // The built server needs a moment to listen.
          await expect(async () => {
            expect((await page.goto(`http://127.0.0.1:${port}/help`))?.ok()).toBe(true);
          }).toPass({ timeout: 30_000 });
          await expect(page.locator('html')).toHaveAttribute('data-brand', brand.id);
          await expect(page.locator('.public-header .brand')).toContainText(brand.name);
          await expect(page.locator('.public-header .brand img')).toHaveAttribute(
            'src',
            `/brand/${brand.id}/logo.svg`,
          );
          const colour = await page.evaluate(
            () => getComputedStyle(document.querySelector('.public-languages a[aria-current]')!).color,
          );
          expect(colour).not.toBe('');
          await expect(page.locator('.cookie-consent .button.primary')).toHaveCSS(
            'background-color',
            brand.colour,
          );
          if (brand.stores) {
            const links = page.locator('.store-links a');
            expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
              DEMO_PLACEHOLDER_STORE_LINKS[brand.id].appStore,
              DEMO_PLACEHOLDER_STORE_LINKS[brand.id].playStore,
            ]);
          } else await expect(page.locator('.store-links')).toHaveCount(0);
          await page.screenshot({ path: join(shots, `${brand.id}-help.png`) });
          await page.goto(`http://127.0.0.1:${port}/login?lang=da`);
          await page.goto(`http://127.0.0.1:${port}/login`);
          await page.screenshot({ path: join(shots, `${brand.id}-login.png`) });
          expect(await seriousA11yViolations(page)).toEqual([]);
        } finally {
          await page.context().close();
          server.kill('SIGTERM');
          rmSync(out, { recursive: true, force: true });
          rmSync(data, { recursive: true, force: true });
        }
      });
    }
  });
