/**
 * The console's Support page (issue 21), by keyboard: the demo organisation admin finds the demo tenant, asks for
 * an impersonation link with a reason, and the link opens the tenant app as the tenant with the impersonation
 * bar; the entry is in the audit log. Deactivation is opened and cancelled here (the API test deactivates).
 * Screenshots at 1400 and 390 px; axe in en, da and nb.
 */
import { expect, type Page, test } from '@playwright/test';
import { logInAsOrgAdmin } from './admin-helpers.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

const REASON = `e2e support ticket ${Date.now()}`;

test.describe
  .serial('support', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInAsOrgAdmin(page);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('finds a tenant, makes an impersonation link with a reason, and the link opens the app as them', async ({
      browser,
    }) => {
      await page.goto('/admin/support');
      const query = page.getByLabel('Email, name, flat, address or tenancy');
      await query.fill('tenant@demo');
      await query.press('Enter');
      await expect(page).toHaveURL(/\?q=tenant%40demo$/);
      const card = page.getByTestId('tenant-tenant@demo.test');
      await expect(card).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: /tenants? found/ })).toBeVisible();

      // Deactivation opens with its own question; Cancel closes it untouched.
      await card.getByRole('button', { name: 'Deactivate account…' }).focus();
      await page.keyboard.press('Enter');
      await expect(card.getByLabel('Why is the account being deactivated?')).toBeFocused();
      await card.getByRole('button', { name: 'Cancel' }).focus();
      await page.keyboard.press('Enter');

      await card.getByRole('button', { name: 'Open as this tenant…' }).focus();
      await page.keyboard.press('Enter');
      const reason = card.getByLabel('Why do you need to see the app as this tenant?');
      await expect(reason).toBeFocused();
      await page.keyboard.type('abc');
      await expect(card.getByRole('button', { name: 'Create link' })).toBeDisabled();
      await reason.fill(REASON);
      await page.keyboard.press('Tab');
      await expect(card.getByRole('button', { name: 'Create link' })).toBeFocused();
      await page.keyboard.press('Enter');
      const ready = card.getByTestId('impersonation-link');
      await expect(ready).toContainText('within 10 minutes');
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.screenshot({ path: `test-results/admin-support-${width}.png`, fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      await page.setViewportSize({ width: 1400, height: 900 });
      const link = await ready.getByRole('link', { name: 'Open the app as the tenant' }).getAttribute('href');
      expect(new URL(link!).pathname).toMatch(/^\/impersonate\/[\w-]{43}$/);

      // The link, opened by someone with no session, is a session as the tenant.
      const tenantPage = await newPage(browser);
      await tenantPage.goto(new URL(link!).pathname);
      await expect(tenantPage.getByTestId('impersonation-bar')).toContainText('tenant@demo.test');
      await tenantPage.context().close();

      await page.goto('/admin/audit');
      await expect(page.getByTestId('audit-entry').filter({ hasText: REASON })).toBeVisible();
    });

    for (const lang of ['en', 'da', 'nb'] as const) {
      test(`passes axe in ${lang}, with results and an open reason form`, async ({ baseURL }) => {
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        await page.goto('/admin/support?q=demo.test');
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        const card = page.getByTestId('tenant-tenant@demo.test');
        await expect(card).toBeVisible();
        await card.getByRole('button').first().click();
        await expect(card.locator('textarea')).toBeFocused();
        expect(await seriousA11yViolations(page), lang).toEqual([]);
        if (lang !== 'en') await page.screenshot({ path: `test-results/admin-support-${lang}-1400.png` });
      });
    }
  });
