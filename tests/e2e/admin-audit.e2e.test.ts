/**
 * The console's audit log page (issue 21), by the demo organisation admin: an API key created in the console
 * shows up in the log, found by the actor and action filters; the filtered entries download as CSV with a header
 * in the page's language. Screenshots at 1400 and 390 px; axe in en, da and nb.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { logInAsOrgAdmin } from './admin-helpers.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

const KEY = `e2e audit ${Date.now()}`;
const HEADERS = {
  en: 'When,Time (UTC),Who,What',
  da: 'Hvornår;Tidspunkt (UTC);Hvem;Hvad',
  nb: 'Når;Tidspunkt (UTC);Hvem;Hva',
};

test.describe
  .serial('audit log', () => {
    let page: Page;
    /** The organisation admin who logged in, and so made the key. */
    let admin = '';

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      admin = await logInAsOrgAdmin(page);
      // Something to find: an API key created in the console is audited.
      await page.goto('/admin/api-keys');
      await page.getByLabel('Name').fill(KEY);
      await page.getByRole('checkbox').first().check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect(page.getByTestId('new-key')).toBeVisible();
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    /** Downloads the page's CSV and returns its text (without the byte-order mark). */
    const downloadCsv = async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /CSV/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      return (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    };

    test('filters by actor and action, shows the entry, and downloads the filtered CSV', async () => {
      await page.goto('/admin/audit');
      await expect(page.getByTestId('audit-table')).toBeVisible();
      await page.getByLabel('Who').selectOption(admin);
      await page.getByLabel('Action', { exact: true }).selectOption({ label: 'API key created' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const entry = page.getByTestId('audit-entry').filter({ hasText: KEY });
      await expect(entry).toContainText('API key created');
      await expect(entry).toContainText(admin);
      // Every row on the page is what the filter asked for. A web-first count, not a loop over `.all()`: the
      // table keeps the unfiltered rows on screen until the filtered page arrives (a CI run saw the snapshot go
      // stale under it).
      await expect(page.getByTestId('audit-entry').filter({ hasNotText: 'API key created' })).toHaveCount(0);
      const csv = await downloadCsv();
      const lines = csv.trimEnd().split('\r\n');
      expect(lines[0]!.startsWith(HEADERS.en)).toBe(true);
      expect(lines.length).toBe((await page.getByTestId('audit-entry').count()) + 1);
      expect(csv).toContain(KEY);
      expect(lines.slice(1).every((l) => l.includes('api_key.create') && l.includes(admin))).toBe(true);
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.screenshot({ path: `test-results/admin-audit-${width}.png`, fullPage: true });
        // At 390 px the table scrolls sideways: its scroller takes the keyboard's focus (scrollable-region-focusable).
        expect(await seriousA11yViolations(page), `${width} px`).toEqual([]);
      }
      await page.setViewportSize({ width: 1400, height: 900 });
      // A date range that ends before today finds nothing.
      await page.getByLabel(/^To/).fill('2020-01-01');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(page.getByTestId('audit-empty')).toBeVisible();
    });

    for (const lang of ['en', 'da', 'nb'] as const) {
      test(`passes axe in ${lang}; the CSV header is in ${lang}`, async ({ baseURL }) => {
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        await page.goto('/admin/audit');
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByTestId('audit-table')).toBeVisible();
        expect(await seriousA11yViolations(page), lang).toEqual([]);
        expect((await downloadCsv()).startsWith(HEADERS[lang])).toBe(true);
        if (lang !== 'en') await page.screenshot({ path: `test-results/admin-audit-${lang}-1400.png` });
      });
    }
  });
