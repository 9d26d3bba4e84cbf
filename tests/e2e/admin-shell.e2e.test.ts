/**
 * The operator console's shell: the guard, the login with a second factor (TOTP, first-login setup with
 * recovery codes, a recovery code), the navigation at 1400 and 390 px and by keyboard, logout, and axe on every
 * console page in en, da and nb.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  adminApi,
  fillPassword,
  freshTotp,
  logInAsOrgAdmin,
  logInToConsole,
  MANAGER,
  ORG_ADMIN,
  operatorToken,
} from './admin-helpers.ts';
import { newPage, PASSWORD, seriousA11yViolations } from './helpers.ts';

const PAGES = [
  '/admin',
  '/admin/properties',
  '/admin/tenancies',
  '/admin/invitations',
  '/admin/data-quality',
  '/admin/api-keys',
  '/admin/support',
  '/admin/audit',
  '/admin/prices',
  '/admin/report-texts',
  '/admin/statements',
];

test.describe
  .serial('the operator console shell', () => {
    test('sends a visitor without a session to the login, and back to the page after it', async ({
      page,
    }) => {
      await page.goto('/admin/audit');
      await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Faudit/);
      await fillPassword(page, ORG_ADMIN);
      await page.getByLabel('Code', { exact: true }).fill('000000');
      await page.getByLabel('Code', { exact: true }).press('Enter');
      await expect(page.getByRole('alert')).toHaveText('The code is not correct.');
      await page.getByLabel('Code', { exact: true }).fill(await freshTotp(ORG_ADMIN));
      await page.getByLabel('Code', { exact: true }).press('Enter');
      await expect(page).toHaveURL(/\/admin\/audit$/);
      await expect(page.getByTestId('operator-email')).toHaveText(ORG_ADMIN);
      // The tokens are the console's own: the tenant app's keys stay empty.
      const keys = await page.evaluate(() => Object.keys(localStorage).sort());
      expect(keys).toEqual(expect.arrayContaining(['adminRefreshToken', 'adminToken']));
      expect(keys).not.toContain('token');
    });

    test('refuses a wrong password with a message, and a tenant in the console', async ({ page }) => {
      await page.goto('/admin/login');
      await page.getByLabel('Email').fill(ORG_ADMIN);
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert')).toHaveText('Email or password is not correct.');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Email').fill('tenant@demo.test');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert')).toHaveText('Email or password is not correct.');
    });

    test('navigates at 1400 px with the keyboard, and logs out', async ({ page }) => {
      await logInAsOrgAdmin(page);
      await page.screenshot({ path: 'test-results/admin-portfolio-1400.png' });
      // After the login's soft navigation focus is on the page's heading; a fresh load starts at the top, where the
      // skip link comes first, then the menu's entries in order.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
      const nav = page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'Support' }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/admin\/support$/);
      await expect(nav.getByRole('link', { name: 'Support' })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support');

      await page.getByRole('button', { name: 'Log out' }).click();
      await expect(page).toHaveURL(/\/admin\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('adminRefreshToken'))).toBeNull();
      await page.goto('/admin');
      await expect(page).toHaveURL(/\/admin\/login/);
    });

    test('opens and closes the menu drawer at 390 px, by keyboard too', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await logInAsOrgAdmin(page);
      const open = page.getByRole('button', { name: 'Open menu' });
      await expect(open).toBeVisible();
      await expect(page.getByRole('link', { name: 'Audit log' })).toBeHidden();
      await page.screenshot({ path: 'test-results/admin-portfolio-390.png' });
      await open.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('button', { name: 'Close menu' })).toBeFocused();
      await expect(page.getByRole('link', { name: 'Audit log' })).toBeVisible();
      await page.screenshot({ path: 'test-results/admin-menu-390.png' });
      await page.keyboard.press('Escape');
      await expect(open).toBeFocused();
      await open.click();
      await page.getByRole('link', { name: 'Data quality' }).click();
      await expect(page).toHaveURL(/\/admin\/data-quality$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data quality');
    });

    test('sets up the second factor at a first login, shows the recovery codes once, and takes one', async ({
      page,
      request,
    }) => {
      const token = await operatorToken(request);
      const email = `console-${Date.now()}@operators.test`;
      const { createOperator } = await adminApi<{ createOperator: { initialPassword: string } }>(
        request,
        `mutation($input: CreateOperatorInput!) { createOperator(input: $input) { initialPassword } }`,
        { input: { email, role: 'ORG_ADMIN' } },
        token,
      );
      await page.goto('/admin/login');
      await fillPassword(page, email, createOperator.initialPassword);
      await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      await page.screenshot({ path: 'test-results/admin-totp-setup-1400.png' });
      const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
      await page.getByLabel('Code', { exact: true }).fill(await freshTotp(email, secret));
      await page.getByLabel('Code', { exact: true }).press('Enter');
      const codes = page.getByTestId('recovery-codes').locator('code');
      await expect(codes).toHaveCount(10);
      const recovery = (await codes.first().textContent()) ?? '';
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await expect(page).toHaveURL(/\/admin$/);

      await page.getByRole('button', { name: 'Log out' }).click();
      await expect(page).toHaveURL(/\/admin\/login$/);
      await fillPassword(page, email, createOperator.initialPassword);
      await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
      await page.getByLabel('Code', { exact: true }).fill(recovery);
      await page.getByLabel('Code', { exact: true }).press('Enter');
      await expect(page).toHaveURL(/\/admin$/);
    });
  });

test.describe
  .serial('the operator console passes axe', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToConsole(page, MANAGER);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    for (const lang of ['en', 'da', 'nb']) {
      test(`on every console page in ${lang}`, async ({ baseURL }) => {
        test.setTimeout(300_000);
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const path of PAGES) {
          await page.goto(path);
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await expect(page.getByTestId('operator-email')).toHaveText(MANAGER);
          expect(await seriousA11yViolations(page), `${lang} ${path}`).toEqual([]);
        }
        if (lang !== 'en') await page.screenshot({ path: `test-results/admin-portfolio-${lang}-1400.png` });
        // The login page, without a session.
        const login = await newPage(page.context().browser()!);
        await login.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await login.goto('/admin/login');
        await expect(login.locator('[data-step="credentials"]')).toBeVisible();
        expect(await seriousA11yViolations(login), `${lang} /admin/login`).toEqual([]);
        await login.context().close();
      });
    }

    test('fits every console page into 390 px without sideways scrolling', async () => {
      // In the last language tried (nb), whose words are the longest. Tables scroll inside their own wrapper.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of PAGES) {
        await page.goto(path);
        await expect(page.getByTestId('operator-email')).toBeAttached();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
          390,
        );
      }
      await page.setViewportSize({ width: 1400, height: 900 });
    });
  });
