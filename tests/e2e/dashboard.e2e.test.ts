import { expect, type Page, test } from '@playwright/test';
import { DASHBOARD, logIn, logInToDashboard, newPage, seriousA11yViolations } from './helpers.ts';

test.describe
  .serial('walking skeleton: a tenant sees their heat consumption', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('answers the health check with the database engine', async () => {
      const response = await page.request.get('/api/health');
      expect(response.status()).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', database: 'pglite' });
    });

    test('ships the production build of React (development React logs a DevTools hint)', async () => {
      const messages: string[] = [];
      const listener = (m: { text: () => string }) => messages.push(m.text());
      page.on('console', listener);
      // /login/email has no island any more; the signup form is one.
      await page.goto('/signup/email');
      await expect(page.locator('astro-island:not([ssr])').first()).toBeAttached();
      page.off('console', listener);
      expect(messages.filter((m) => m.includes('React DevTools'))).toEqual([]);
    });

    test('sends a visitor without a session from the root to /login', async () => {
      await page.goto('/');
      await expect(page).toHaveURL('/login');
      await page.goto('/no/such/page');
      await expect(page).toHaveURL('/login');
    });

    test('checks the email on the client before anything is sent', async () => {
      await logIn(page, 'not-an-email', 'whatever');
      await expect(page.getByText('The entered email-address is invalid')).toBeVisible();
      await expect(page).toHaveURL('/login/email');
    });

    test('shows SPEC §8 text for a wrong password and stays on the form', async () => {
      await logIn(page, 'tenant@demo.test', 'Wrong#Password1');
      await expect(page.getByRole('alert')).toHaveText('Invalid login credentials. Please try again.');
      await expect(page).toHaveURL('/login/email');
    });

    test('shows SPEC §8 "Invalid user response" when the login works but the user query returns nothing', async () => {
      const userQuery = '**/api/account/graphql';
      await page.route(userQuery, async (route) => {
        if (!route.request().postData()?.includes('UserQuery')) return route.fallback();
        await route.fulfill({ json: { data: { me: null, allTenanciesForCurrentUser: [] } } });
      });
      try {
        await logIn(page, 'tenant@demo.test');
        await expect(page.getByRole('alert')).toHaveText('Invalid user response');
        await expect(page).toHaveURL('/login/email');
        expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      } finally {
        await page.unroute(userQuery);
      }
    });

    test('logs in, shows the graph with its points and total, survives a reload, and logs out', async () => {
      await logInToDashboard(page, 'tenant@demo.test');
      const dashboardUrl = page.url();

      // The heat card: its small daily graph of the last 30 days, and its total.
      const bars = page.getByTestId('card-heat-energy').locator('.compact-graph-svg .compact-bar');
      await expect(bars.first()).toBeVisible({ timeout: 30_000 });
      expect(await bars.count()).toBeGreaterThanOrEqual(28);
      const heatTotal = page.getByTestId('heat-total').locator('.kpi-value');
      await expect(heatTotal).toHaveText(/^[\d,]+ kWh$/);
      // Heat in a Danish autumn/winter month is well above zero.
      const total = Number((await heatTotal.textContent())?.replace(/[^\d]/g, ''));
      expect(total).toBeGreaterThan(0);
      await expect(page.locator('.app-header')).toContainText('Consumption');

      // Issue 6 §3: after the session's user query, the dashboard's data come in one request, with the
      // menu's units in it (no TenantUnits request first).
      const operations: string[] = [];
      const record = (request: { url(): string; postData(): string | null }) => {
        // The API's path, not a JS chunk whose name has "graphql" in it.
        if (!new URL(request.url()).pathname.endsWith('/graphql')) return;
        const name = /\b(?:query|mutation)\s+(\w+)/.exec(request.postData() ?? '')?.[1];
        operations.push(name ?? 'anonymous');
      };
      page.on('request', record);
      await page.reload();
      await expect(bars.first()).toBeVisible({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      page.off('request', record);
      expect(page.url()).toBe(dashboardUrl);
      expect(
        operations.filter((name) => name === 'TenancyDashboard'),
        operations.join(', '),
      ).toHaveLength(1);
      expect(operations, operations.join(', ')).not.toContain('TenantUnits');
      // Besides them only the indoor-climate card's latest values (one small graph request, ClimateNow.tsx).
      expect(operations.filter((name) => name !== 'Notifications').sort()).toEqual([
        'TenancyDashboard',
        'TenantGraph',
        'UserQuery',
      ]);

      await page.getByRole('button', { name: 'Log out' }).click();
      await expect(page).toHaveURL('/login');
      const stored = await page.evaluate(() => ({
        token: localStorage.getItem('token'),
        tenant: localStorage.getItem('tenantToken'),
      }));
      expect(stored).toEqual({ token: null, tenant: null });

      // The session is really gone: the dashboard now sends the browser back to login.
      await page.goto(dashboardUrl);
      await expect(page).toHaveURL('/login');
    });

    test('has no serious or critical accessibility violations on /login/email and the dashboard', async () => {
      await page.goto('/login/email');
      await expect(page.locator('form[data-ready]')).toBeAttached();
      expect(await seriousA11yViolations(page)).toEqual([]);

      await logIn(page, 'tenant@demo.test');
      await expect(page).toHaveURL(DASHBOARD, { timeout: 30_000 });
      await expect(page.locator('.compact-graph-svg').first()).toBeVisible({ timeout: 30_000 });
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  });
