/**
 * Issue 25, major items 5, 7 and 9 in Chromium:
 *  - no raw i18n key in the header, the heading or the title over 50 page loads;
 *  - a session the server refuses ends on /login with "Your log in expired. Please log in again.", and the next
 *    login returns to the page the user was on;
 *  - a logged-out user who opens an app page lands on it (with its period) after logging in.
 */
import { expect, type Page, test } from '@playwright/test';
import { DASHBOARD, logIn, logInToDashboard } from './helpers.ts';

// An i18n key left untranslated: "detail.title", "alarms:wizard.title_new", "notifications.detail_title".
const RAW_KEY = /\b[a-z]+:[a-z_.]+\b|\b[a-z]+(?:_[a-z]+)*\.[a-z]+(?:_[a-z]+)*\b/;

/** The header's crumbs, the page title and the heading hold no raw key. */
async function expectNoRawKey(page: Page, what: string): Promise<void> {
  const crumbs = page.locator('.app-header .breadcrumbs');
  await expect(crumbs).not.toBeEmpty();
  const texts = [await crumbs.innerText(), await page.title(), await page.locator('h1').first().innerText()];
  for (const text of texts) expect(text, what).not.toMatch(RAW_KEY);
}

test('no raw i18n key in the header, heading or title over 50 page loads', async ({ page }) => {
  test.setTimeout(1_200_000);
  const tenancy = await logInToDashboard(page, 'tenant@demo.test');
  const base = `/t/${tenancy}`;
  await page.goto(`${base}/notifications`);
  const notification = await page.locator('.notification-item a').first().getAttribute('href');
  await page.goto(`${base}/alarms`);
  const alarm = await page.locator('.alarm-list a[href*="/alarms/"]').first().getAttribute('href');
  const paths = [`${base}/alarms/new-alarm?step=1`, alarm!, notification!, `${base}/consumption/heat-energy`];
  // 25 full page loads, each followed by an in-app navigation (the persisted shell) through its first crumb.
  for (let i = 0; i < 25; i++) {
    const path = paths[i % paths.length]!;
    await page.goto(path);
    await expectNoRawKey(page, `load ${i} of ${path}`);
    const up = page.locator('.app-header .breadcrumbs a').first();
    const href = (await up.getAttribute('href')) ?? '';
    await up.click();
    await expect(page).toHaveURL(href);
    await expectNoRawKey(page, `in-app navigation ${i} to ${href}`);
  }
});

test('a refused session ends on login with the expired message, and the next login returns to the page', async ({
  page,
}) => {
  const tenancy = await logInToDashboard(page, 'tenant@demo.test');
  const target = `/t/${tenancy}/consumption/electricity-energy`;
  await page.goto(target);
  await expect(page.getByTestId('kpi-total')).toContainText(/\d/);
  // The tenant backend now says the login is no longer valid (as for a revoked or expired session).
  await page.route('**/api/tenant/graphql', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        errors: [{ message: 'Login required', extensions: { code: 'UNAUTHENTICATED' } }],
      }),
    }),
  );
  await page.getByTestId('period-previous').click();
  await expect(page).toHaveURL('/login?expired=1');
  await expect(page.getByRole('alert')).toHaveText('Your log in expired. Please log in again.');
  await page.unroute('**/api/tenant/graphql');

  await logIn(page, 'tenant@demo.test');
  await expect(page).toHaveURL(target, { timeout: 30_000 });
  await expect(page.getByTestId('kpi-total')).toContainText(/\d/);
});

test('a logged-out user who opens an app page lands on it, with its period, after logging in', async ({
  page,
}) => {
  const tenancy = await logInToDashboard(page, 'tenant@demo.test');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');

  const path = `/t/${tenancy}/consumption/hot-water-volume`;
  await page.goto(`${path}?startDate=2026-01-05&endDate=2026-01-11`);
  await expect(page).toHaveURL('/login');
  await logIn(page, 'tenant@demo.test');
  await expect(page).toHaveURL(path, { timeout: 30_000 });
  await expect(page.getByTestId('period-label')).toHaveText('5 Jan 2026 - 11 Jan 2026');
  // Taken once: the next login goes to the dashboard again.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');
  await logIn(page, 'tenant@demo.test');
  await expect(page).toHaveURL(DASHBOARD, { timeout: 30_000 });
});
