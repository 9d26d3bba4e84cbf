import { expect, test } from '@playwright/test';
import type { Page } from 'playwright-core';
import { baseUrlOf, launchBrowser, logIn } from './browser.ts';

const baseUrl = baseUrlOf();
const PASSWORD = 'Demo#Tenant2026';
const DASHBOARD = /\/t\/([^/]+)\/$/;

const tenancyInUrl = (page: Page) =>
  decodeURIComponent(DASHBOARD.exec(new URL(page.url()).pathname)?.[1] ?? '');

test.describe
  .serial('the app shell: tenancies, the URL guard and the language', () => {
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;

    test.beforeAll(async () => {
      browser = await launchBrowser();
      page = await browser.context.newPage();
      await logIn(page, baseUrl, 'multi@demo.test', PASSWORD);
      await page.waitForURL(DASHBOARD, { timeout: 30_000 });
    });
    test.afterAll(async () => {
      await browser?.close();
    });

    test('lets a member of two tenancies switch between them, each with its own graph', async () => {
      const first = tenancyInUrl(page);
      const picker = page.getByLabel('Choose tenancy');
      await picker.waitFor();
      const options = await picker
        .locator('option')
        .evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
      expect(options).toHaveLength(2);
      const other = options.find((id) => id !== first)!;
      const firstTotal = await page.getByTestId('heat-total').textContent();

      await picker.selectOption(other);
      await page.waitForURL(`${baseUrl}/t/${encodeURIComponent(other)}/`, { timeout: 15_000 });
      await page.locator('.compact-graph-svg').first().waitFor({ timeout: 30_000 });
      // Another apartment, another total.
      await expect.poll(() => page.getByTestId('heat-total').textContent()).not.toBe(firstTotal);
    });

    test('sends a tenancy id that is not the selected one to the selected tenancy', async () => {
      const selected = tenancyInUrl(page);
      await page.goto(`${baseUrl}/t/NOT-MINE/`);
      await page.waitForURL(`${baseUrl}/t/${encodeURIComponent(selected)}/`, { timeout: 15_000 });
    });

    test('switches the language from the header, and keeps it across a reload from the first paint', async () => {
      await page.getByLabel('Language').selectOption('da');
      await expect.poll(() => page.locator('.app-header').textContent()).toContain('Forbrug');
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('da');

      // The server renders the shell in Danish (cookie), before any script runs.
      const response = await page.request.get(page.url());
      expect(await response.text()).toContain('<html lang="da"');
      await page.reload();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Forbrug');

      await page.getByLabel('Sprog').selectOption('en');
      await expect.poll(() => page.locator('.app-header').textContent()).toContain('Consumption');
    });

    test('fits a phone without sideways scrolling, and opens the menu as a drawer that Escape closes', async () => {
      await page.setViewportSize({ width: 390, height: 800 });
      // Header with both pickers fits: no sideways scrolling.
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
        .toBe(true);
      const open = page.getByRole('button', { name: 'Open menu' });
      await open.click();
      await expect.poll(() => open.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => page.locator('#app-menu').getAttribute('class')).toContain('open');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('#app-menu').getAttribute('class')).not.toContain('open');
      await page.setViewportSize({ width: 1400, height: 900 });
    });
  });
