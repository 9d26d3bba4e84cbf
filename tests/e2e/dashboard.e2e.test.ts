import { expect, test } from '@playwright/test';
import type { Page } from 'playwright-core';
import { baseUrlOf, launchBrowser, logIn, seriousA11yViolations } from './browser.ts';

const baseUrl = baseUrlOf();
const PASSWORD = 'Demo#Tenant2026';
const DASHBOARD = /\/t\/[^/]+\/$/;

test.describe
  .serial('walking skeleton: a tenant sees their heat consumption', () => {
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;

    test.beforeAll(async () => {
      browser = await launchBrowser();
      page = await browser.context.newPage();
    });
    test.afterAll(async () => {
      await browser?.close();
    });

    test('answers the health check with the database engine', async () => {
      const response = await page.request.get(`${baseUrl}/api/health`);
      expect(response.status()).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', database: 'pglite' });
    });

    test('ships the production build of React (development React logs a DevTools hint)', async () => {
      const messages: string[] = [];
      const listener = (m: { text: () => string }) => messages.push(m.text());
      page.on('console', listener);
      // /login/email has no island any more; the signup form is one.
      await page.goto(`${baseUrl}/signup/email`);
      await page.waitForSelector('astro-island:not([ssr])');
      page.off('console', listener);
      expect(messages.filter((m) => m.includes('React DevTools'))).toEqual([]);
    });

    test('sends a visitor without a session from the root to /login', async () => {
      await page.goto(`${baseUrl}/`);
      await page.waitForURL(`${baseUrl}/login`);
      await page.goto(`${baseUrl}/no/such/page`);
      await page.waitForURL(`${baseUrl}/login`);
    });

    test('checks the email on the client before anything is sent', async () => {
      await logIn(page, baseUrl, 'not-an-email', 'whatever');
      await expect.poll(() => page.getByText('The entered email-address is invalid').isVisible()).toBe(true);
      expect(page.url()).toBe(`${baseUrl}/login/email`);
    });

    test('shows SPEC §8 text for a wrong password and stays on the form', async () => {
      await logIn(page, baseUrl, 'tenant@demo.test', 'Wrong#Password1');
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
        .toBe('Invalid login credentials. Please try again.');
      expect(page.url()).toBe(`${baseUrl}/login/email`);
    });

    test('shows SPEC §8 "Invalid user response" when the login works but the user query returns nothing', async () => {
      const userQuery = '**/api/account/graphql';
      await page.route(userQuery, async (route) => {
        if (!route.request().postData()?.includes('UserQuery')) return route.fallback();
        await route.fulfill({ json: { data: { me: null, allTenanciesForCurrentUser: [] } } });
      });
      try {
        await logIn(page, baseUrl, 'tenant@demo.test', PASSWORD);
        await expect
          .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
          .toBe('Invalid user response');
        expect(page.url()).toBe(`${baseUrl}/login/email`);
        expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      } finally {
        await page.unroute(userQuery);
      }
    });

    test('logs in, shows the graph with its points and total, survives a reload, and logs out', async () => {
      await logIn(page, baseUrl, 'tenant@demo.test', PASSWORD);
      await page.waitForURL(DASHBOARD, { timeout: 30_000 });
      const dashboardUrl = page.url();

      // The heat card: its small daily graph of the last 30 days, and its total.
      const bars = page.getByTestId('card-heat-energy').locator('.compact-graph-svg .compact-bar');
      await bars.first().waitFor({ timeout: 30_000 });
      expect(await bars.count()).toBeGreaterThanOrEqual(28);
      const heatTotal = page.getByTestId('heat-total');
      await expect.poll(() => heatTotal.locator('.kpi-value').textContent()).toMatch(/^[\d,]+ kWh$/);
      // Heat in a Danish autumn/winter month is well above zero.
      const total = Number((await heatTotal.locator('.kpi-value').textContent())?.replace(/[^\d]/g, ''));
      expect(total).toBeGreaterThan(0);
      await expect.poll(() => page.locator('.app-header').textContent()).toContain('Consumption');

      // Issue 6 §3: after the session's user query, the dashboard's data come in one request, with the
      // menu's units in it (no TenantUnits request first).
      const operations: string[] = [];
      const record = (request: { url(): string; postData(): string | null }) => {
        if (!request.url().includes('/graphql')) return;
        const name = /\b(?:query|mutation)\s+(\w+)/.exec(request.postData() ?? '')?.[1];
        operations.push(name ?? 'anonymous');
      };
      page.on('request', record);
      await page.reload();
      await bars.first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      page.off('request', record);
      expect(page.url()).toBe(dashboardUrl);
      expect(
        operations.filter((name) => name === 'TenancyDashboard'),
        operations.join(', '),
      ).toHaveLength(1);
      expect(operations, operations.join(', ')).not.toContain('TenantUnits');
      expect(operations.filter((name) => name !== 'Notifications').sort()).toEqual([
        'TenancyDashboard',
        'UserQuery',
      ]);

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${baseUrl}/login`, { timeout: 15_000 });
      const stored = await page.evaluate(() => ({
        token: localStorage.getItem('token'),
        tenant: localStorage.getItem('tenantToken'),
      }));
      expect(stored).toEqual({ token: null, tenant: null });

      // The session is really gone: the dashboard now sends the browser back to login.
      await page.goto(dashboardUrl);
      await page.waitForURL(`${baseUrl}/login`, { timeout: 15_000 });
    });

    test('has no serious or critical accessibility violations on /login/email and the dashboard', async () => {
      await page.goto(`${baseUrl}/login/email`);
      await page.waitForSelector('form[data-ready]');
      expect(await seriousA11yViolations(page)).toEqual([]);

      await logIn(page, baseUrl, 'tenant@demo.test', PASSWORD);
      await page.waitForURL(DASHBOARD, { timeout: 30_000 });
      await page.locator('.compact-graph-svg').first().waitFor({ timeout: 30_000 });
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  });
