/**
 * Loose ends of issues 9 and 10 in Chromium:
 *  - the Notifications menu entry of a property without settings entries: it shows with the unread count, and the
 *    count follows marking read and unread; on the demo property (it has a settings entry, so SPEC §6 hides the
 *    entry) it never appears during a page load, not even for a frame;
 *  - SPEC §2 load errors: an island whose code cannot be fetched reloads the page; one whose code fails to start
 *    goes to login;
 *  - an unknown alarm or notification id shows the kind "not found" state and keeps the session.
 *
 * The demo has one property, and it has a settings entry (HOURLY_VALUES). The badge test therefore removes the
 * settings entries from the tenant backend's answers in the browser (page.route), which is how the shell sees
 * a property without them; the notifications, their counts and the mark-read calls are the real backend's.
 */
import { expect, type Page, type Route, test } from '@playwright/test';
import { logInToDashboard, seriousA11yViolations } from './helpers.ts';

/** Sets every property's `settings` in a GraphQL answer to an empty list. */
function withoutSettings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSettings);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = k === 'settings' && Array.isArray(v) ? [] : withoutSettings(v);
    return out;
  }
  return value;
}

async function stripSettings(route: Route): Promise<void> {
  const response = await route.fetch();
  const body = await response.text();
  if (!body.includes('"settings"')) return route.fulfill({ response });
  return route.fulfill({ response, body: JSON.stringify(withoutSettings(JSON.parse(body))) });
}

/**
 * Records, from the first paint on, every moment a Notifications link in the side menu is rendered visible:
 * `window.__menuNotifications` is a list of 'shown' / 'hidden' transitions.
 */
async function watchMenuEntry(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __menuNotifications: string[] };
    w.__menuNotifications = [];
    let shown = false;
    const check = () => {
      const link = document.querySelector<HTMLElement>('#app-menu a[href$="/notifications"]');
      const visible =
        !!link &&
        link.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
        !link.closest('[aria-hidden="true"]');
      if (visible !== shown) {
        shown = visible;
        w.__menuNotifications.push(visible ? 'shown' : 'hidden');
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    const frame = () => {
      check();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

const transitions = (page: Page) =>
  page.evaluate(() => (window as unknown as { __menuNotifications: string[] }).__menuNotifications);

test.describe('notifications menu entry', () => {
  test('hidden without a flash on the demo property, which has a settings entry', async ({ page }) => {
    await watchMenuEntry(page);
    const tenancy = await logInToDashboard(page, 'tenant@demo.test');
    for (const path of ['', 'alarms', 'settings']) {
      await page.goto(`/t/${tenancy}/${path}`);
      await expect(page.locator('#app-menu a[href$="/alarms"]')).toBeVisible();
      // Give the unit query time to answer, then look back at every frame since the first paint.
      await page.waitForLoadState('networkidle');
      expect(await transitions(page), path).toEqual([]);
    }
  });

  test('a property without settings entries: the entry and its unread count show and follow mark-read', async ({
    page,
  }) => {
    await page.route('**/api/tenant/graphql', stripSettings);
    await watchMenuEntry(page);
    const tenancy = await logInToDashboard(page, 'tenant@demo.test');
    const entry = page.locator('#app-menu a[href$="/notifications"]');
    const badge = entry.getByTestId('notification-badge');
    const list = `/t/${tenancy}/notifications`;

    // Make sure there is something unread: open the newest notification (that reads it) and mark it unread.
    await page.goto(list);
    await page.locator('.notification-item').first().getByRole('link').click();
    await page.waitForURL(/\/notifications\/\d+$/);
    await expect(page.getByTestId('notification-read')).toHaveText('Read');
    await page.getByRole('button', { name: 'Mark as unread' }).click();
    await expect(page.getByTestId('notification-read')).toHaveText('Unread');
    const detail = page.url();

    await page.goto(list);
    await expect(page.getByTestId('unread-count')).toHaveText(/^[1-9]\d* unread$/);
    const before = Number((await page.getByTestId('unread-count').textContent())?.match(/\d+/)?.[0]);
    await expect(entry).toBeVisible();
    await expect(badge).toHaveText(`${before} unread`);
    // Shown once, from the first frame it could be, and never hidden again (no flash either way).
    expect(await transitions(page)).toEqual(['shown']);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Reading it (opening it marks it read) takes one off the badge, in the same page's menu.
    await page.goto(detail);
    await expect(page.getByTestId('notification-read')).toHaveText('Read');
    if (before > 1) await expect(badge).toHaveText(`${before - 1} unread`);
    else await expect(badge).toHaveCount(0);
    // And marking it unread again puts it back.
    await page.getByRole('button', { name: 'Mark as unread' }).click();
    await expect(badge).toHaveText(`${before} unread`);
    // Mark all read on the list: no badge, the entry stays.
    await page.goto(list);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(badge).toHaveCount(0);
    await expect(entry).toBeVisible();
  });
});

test.describe('load errors (SPEC §2)', () => {
  const ISLAND = /\/_astro\/AlarmList[^/]*\.js(\?.*)?$/;

  test('an island whose code cannot be fetched reloads the page, which then works', async ({ page }) => {
    const tenancy = await logInToDashboard(page, 'tenant@demo.test');
    const url = `/t/${tenancy}/alarms`;
    let failing = true;
    let aborted = 0;
    await page.route(ISLAND, (route) => {
      if (!failing) return route.continue();
      aborted++;
      return route.abort('connectionreset');
    });
    // The reload finds the chunk again (as after a deploy: the new page names the new chunk).
    let loads = 0;
    const documents: string[] = [];
    page.on('request', (r) => {
      if (!r.isNavigationRequest()) return;
      documents.push(new URL(r.url()).pathname);
      if (new URL(r.url()).pathname === `/t/${tenancy}/alarms` && ++loads === 2) failing = false;
    });
    await page.goto(url);
    await expect.poll(() => loads, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(aborted).toBeGreaterThan(0);
    await expect(page.locator('.alarm-item').first()).toBeVisible({ timeout: 30_000 });
    // Reloaded, not sent to login.
    expect(documents).toEqual([`/t/${tenancy}/alarms`, `/t/${tenancy}/alarms`]);
    expect(new URL(page.url()).pathname).toBe(`/t/${tenancy}/alarms`);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('an island whose code loads but fails to start goes to login', async ({ page }) => {
    const tenancy = await logInToDashboard(page, 'tenant@demo.test');
    await page.route(ISLAND, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/javascript',
        body: 'throw new Error("this island is broken");\nexport default function Broken() {}\n',
      }),
    );
    const toLogin = page.waitForRequest(
      (r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/login',
      {
        timeout: 30_000,
      },
    );
    await page.goto(`/t/${tenancy}/alarms`);
    await toLogin;
    // A route handler still in flight when the context closes kept its teardown waiting past the test's timeout
    // once in CI (run of b1db695); drop the routes first.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});

test.describe('unknown ids', () => {
  test('an unknown alarm or notification id shows "not found" and keeps the session', async ({ page }) => {
    const tenancy = await logInToDashboard(page, 'tenant@demo.test');
    await page.goto(`/t/${tenancy}/alarms/999999`);
    await expect(page.getByRole('alert')).toContainText('could not find this alarm');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`/t/${tenancy}/notifications/999999`);
    await expect(page.getByRole('alert')).toContainText('could not find this notification');
    // Still logged in: the menu is there and the URL stayed.
    expect(new URL(page.url()).pathname).toBe(`/t/${tenancy}/notifications/999999`);
    await expect(page.locator('#app-menu a[href$="/alarms"]')).toBeVisible();
  });
});
