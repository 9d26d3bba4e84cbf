import { expect, type Page, test } from '@playwright/test';
import { chooseHeaderLanguage, dashboardTenancy, logInToDashboard, newPage } from './helpers.ts';

test.describe
  .serial('the app shell: tenancies, the URL guard and the language', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToDashboard(page, 'multi@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('lets a member of two tenancies switch between them, each with its own graph', async () => {
      const first = await dashboardTenancy(page);
      const picker = page.getByRole('button', { name: /^Choose tenancy: / });
      await picker.click();
      const options = page.getByRole('list', { name: 'Choose tenancy' }).getByRole('button');
      await expect(options).toHaveCount(2);
      const other = options.and(page.locator(':not([aria-current])'));
      const heatTotal = page.getByTestId('heat-total');
      await expect(heatTotal).toHaveText(/\d/);
      const firstTotal = (await heatTotal.textContent()) ?? '';

      await other.click();
      await expect(page).not.toHaveURL(`/t/${encodeURIComponent(first)}/`);
      const otherId = await dashboardTenancy(page);
      expect(otherId).not.toBe(first);
      await expect(page.locator('.compact-graph-svg').first()).toBeVisible({ timeout: 30_000 });
      // Another apartment, another total.
      await expect(heatTotal).not.toHaveText(firstTotal);
    });

    test('sends a tenancy id that is not the selected one to the selected tenancy', async () => {
      const selected = await dashboardTenancy(page);
      await page.goto('/t/NOT-MINE/');
      await expect(page).toHaveURL(`/t/${encodeURIComponent(selected)}/`);
    });

    test('switches the language from the header, and keeps it across a reload from the first paint', async () => {
      await chooseHeaderLanguage(page, 'da');
      await expect(page.locator('.app-header')).toContainText('Forbrug');

      // The server renders the shell in Danish (cookie), before any script runs.
      const response = await page.request.get(page.url());
      expect(await response.text()).toContain('<html lang="da"');
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forbrug');

      await chooseHeaderLanguage(page, 'en');
      await expect(page.locator('.app-header')).toContainText('Consumption');
    });

    test('fits a phone without sideways scrolling, and opens the menu as a drawer that Escape closes', async () => {
      await page.setViewportSize({ width: 390, height: 800 });
      // Header with both pickers fits: no sideways scrolling.
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
        .toBe(true);
      const open = page.getByRole('button', { name: 'Open menu' });
      await open.click();
      await expect(open).toHaveAttribute('aria-expanded', 'true');
      await expect(page.locator('#app-menu')).toHaveClass(/\bopen\b/);
      await page.keyboard.press('Escape');
      await expect(page.locator('#app-menu')).not.toHaveClass(/\bopen\b/);
      await page.setViewportSize({ width: 1400, height: 900 });
    });
  });
