/**
 * Issue 25's minor items in Chromium: the account's language at login, the app's modal (never confirm()) before
 * removing a user or dropping your own admin flag, messages that go once their field is edited, the same password
 * refused, the success toast's check, the CO₂ switch only where a factor exists, and alarm limits read and bounded
 * in Danish.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { logIn, logInToDashboard, newPage, PASSWORD } from './helpers.ts';

test.describe
  .serial('what a new user trips over', () => {
    let page: Page;
    let tenancy: string;
    const dialogs: string[] = [];

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      tenancy = await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('a login opens the app in the language saved to the account', async ({ browser }) => {
      const email = `dansk.${Date.now()}@demo.test`;
      const created = await page.request.post('/api/account/graphql', {
        data: {
          query:
            'mutation ($e: String!, $p: String!) { createEmailPasswordUser(email: $e, password: $p, language: "da") { token } }',
          variables: { e: email, p: PASSWORD },
        },
      });
      expect((await created.json()).errors).toBeUndefined();
      const fresh = await newPage(browser);
      try {
        await logIn(fresh, email);
        await fresh.waitForURL(/\/no-tenancies$/, { timeout: 30_000 });
        await expect(fresh.locator('html')).toHaveAttribute('lang', 'da');
      } finally {
        await fresh.context().close();
      }
    });

    test("removing a user and dropping one's own admin flag ask in the app's modal, not confirm()", async ({
      browser,
    }) => {
      const admin = await newPage(browser);
      admin.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      try {
        await logInToDashboard(admin, 'admin@demo.test');
        await admin.goto(`${new URL(admin.url()).pathname}settings`);
        const members = admin.getByTestId('members');
        // Exactly this address: other files add members such as co-tenant@demo.test to the same tenancy.
        const tenant = members
          .locator('li')
          .filter({ has: admin.getByText('tenant@demo.test', { exact: true }) });
        await tenant.getByRole('button', { name: 'Remove', exact: true }).click();
        const dialog = admin.getByRole('dialog', { name: 'Remove user' });
        await expect(dialog).toContainText('Remove tenant@demo.test from the tenancy?');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await expect(dialog).toBeHidden();
        await expect(tenant).toBeVisible();

        const me = members.locator('li', { hasText: '(you)' });
        await me.getByRole('button', { name: 'Remove admin' }).click();
        const self = admin.getByRole('dialog', { name: 'Remove your admin rights' });
        await expect(self).toContainText('only another admin can give them back');
        await self.getByRole('button', { name: 'Cancel' }).click();
        await expect(me.getByText('Admin', { exact: true })).toBeVisible();
        expect(dialogs).toEqual([]);
      } finally {
        await admin.context().close();
      }
    });

    test('the same password is refused, and the message goes once a field is edited', async () => {
      await page.goto(`/t/${tenancy}/profile`);
      const form = page.locator('form', { has: page.getByLabel('Current password') });
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Repeat new password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      const alert = form.getByRole('alert').filter({ hasText: 'same as the current one' });
      await expect(alert).toBeVisible();
      await page.getByLabel('New password', { exact: true }).fill(`${PASSWORD}x`);
      await expect(alert).toHaveCount(0);

      const emailForm = page.locator('form', { has: page.getByLabel('New email') });
      await emailForm.getByRole('button', { name: 'Send confirmation' }).click();
      const invalid = emailForm.locator('.field-error').first();
      await expect(invalid).toBeVisible();
      await page.getByLabel('New email').fill('someone.else@demo.test');
      await expect(emailForm.locator('.field-error', { hasText: /email/i })).toHaveCount(0);
    });

    test('a success toast shows its check at once, with no loading ring', async () => {
      await page.goto(`/t/${tenancy}/profile`);
      const notify = page.getByRole('switch');
      await notify.click();
      const toast = page.locator('[role="status"]', { hasText: 'Saved.' }).first();
      await expect(toast).toBeVisible();
      await expect(page.getByTestId('toast-check').first()).toBeVisible();
      await notify.click();
    });

    test('a refused custom period loses its message when a date changes', async () => {
      await page.goto(`/t/${tenancy}/consumption/heat-energy`);
      await page.getByLabel('Period', { exact: true }).selectOption('custom');
      const start = page.getByLabel('Start date');
      const end = page.getByLabel('End date');
      const endValue = await end.inputValue();
      const startValue = await start.inputValue();
      await start.fill(endValue);
      await end.fill(startValue);
      await page.getByRole('button', { name: 'Show period' }).click();
      const error = page.locator('.custom-range .field-error');
      await expect(error).toBeVisible();
      await expect(start).toHaveAttribute('aria-invalid', 'true');
      await end.fill(endValue);
      await expect(error).toHaveCount(0);
      await expect(start).not.toHaveAttribute('aria-invalid', 'true');
    });

    test('CO₂ is offered only where the property has a factor: heat yes, allocator units no', async () => {
      await page.goto(`/t/${tenancy}/consumption/heat-energy`);
      await expect(page.getByLabel('CO₂')).toBeVisible({ timeout: 30_000 });
      await page.goto(`/t/${tenancy}/consumption/hca`);
      await expect(page.getByLabel('Same period last year')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByLabel('CO₂')).toHaveCount(0);
    });

    test('in Danish, "12,5" is read as 12.5 and shown so; a humidity over 100 % is refused', async () => {
      await page.context().addCookies([{ name: 'lang', value: 'da', url: new URL(page.url()).origin }]);
      await page.evaluate(() => localStorage.setItem('language', 'da'));
      try {
        await page.goto(`/t/${tenancy}/alarms/new-alarm?step=1`);
        await expect(page.locator('html')).toHaveAttribute('lang', 'da');
        await page.locator('input[value="indoor_climate"]').check();
        await page.getByRole('button', { name: 'Næste' }).click();
        await page.locator('input[value="indoor-relative-humidity"]').check();
        await page.getByRole('button', { name: 'Næste' }).click();
        await page.locator('input[value="day"]').check();
        await page.getByRole('button', { name: 'Næste' }).click();
        const maximum = page.getByLabel(/^Maksimum/);
        await maximum.fill('150');
        await page.getByRole('button', { name: 'Næste' }).click();
        await expect(page.getByRole('alert').filter({ hasText: 'fra 0 til 100' })).toBeVisible();
        await maximum.fill('62,5');
        await expect(page.getByTestId('limit-read-as')).toHaveText('Gemmes som 62,5');
        await page.getByRole('button', { name: 'Næste' }).click();
        await expect(page.getByText(/62,5/).first()).toBeVisible();
      } finally {
        await page.evaluate(() => localStorage.setItem('language', 'en'));
        await page.context().addCookies([{ name: 'lang', value: 'en', url: new URL(page.url()).origin }]);
      }
    });
    test('a dashboard sparkline reads its buckets out to the keyboard and writes its scale with the unit', async () => {
      await page.goto(`/t/${tenancy}/`);
      const graph = page.locator('.compact-graph').first();
      await expect(graph).toBeVisible({ timeout: 30_000 });
      await expect(graph.locator('.compact-graph-top')).toHaveText(/\d.*kWh/);
      // The scale's label sits between the card's total and the bars, covering neither (it once hid the total's
      // thousands comma, so 1,111 read as 1.111).
      const card = page.getByTestId('heat-total');
      const [total, top, bars] = await Promise.all([
        card.locator('.kpi-value').boundingBox(),
        graph.locator('.compact-graph-top').boundingBox(),
        graph.locator('.compact-graph-svg').boundingBox(),
      ]);
      expect(top!.y).toBeGreaterThanOrEqual(total!.y + total!.height);
      expect(top!.y + top!.height).toBeLessThanOrEqual(bars!.y + 0.5);
      await graph.focus();
      const last = await graph.getAttribute('aria-valuetext');
      // Today's bucket, not over yet: in the first hour of a Copenhagen day it has no hour yet and reads "–" (CI
      // run 20 ran then); the day before always has a value.
      expect(last).toMatch(/: (.*\d.*|–)$/);
      await expect(graph.locator('.compact-graph-tip')).toHaveText(last ?? '');
      await page.keyboard.press('ArrowLeft');
      await expect(graph).not.toHaveAttribute('aria-valuetext', last ?? '');
      expect(await graph.getAttribute('aria-valuetext')).toMatch(/: .*\d/);
      await page.keyboard.press('Home');
      await expect(graph).toHaveAttribute('aria-valuenow', '0');
    });

    test('the unread count is in the header, and "Mark as unread" stays unread', async () => {
      await page.goto(`/t/${tenancy}/notifications`);
      const item = page.locator('.notification-item').first();
      await item.getByRole('link').click();
      const state = page.getByTestId('notification-read');
      await expect(state).toHaveText('Read');
      await page.getByRole('button', { name: 'Mark as unread' }).click();
      await expect(state).toHaveText('Unread');
      await page.waitForTimeout(1500);
      await expect(state).toHaveText('Unread');
      const header = page.getByTestId('header-unread');
      await expect(header).toBeVisible();
      await expect(header).toHaveAccessibleName(/^Notifications \(\d+ unread\)$/);
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(header).toBeVisible();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: 'Mark as read' }).click();
      await expect(state).toHaveText('Read');
    });

    test('the policy pages lead back into the app', async () => {
      await page.goto('/data-policy');
      await page.getByTestId('open-app').click();
      await expect(page).toHaveURL(new RegExp(`/t/${tenancy}/$`), { timeout: 30_000 });
    });

    test("a statement's download button's name starts with its visible text", async () => {
      await page.goto(`/t/${tenancy}/statements`);
      const button = page.getByTestId('statement-row').first().getByRole('button');
      await expect(button).toHaveText(/^Download PDF/);
      await expect(button).toHaveAccessibleName(/^Download PDF \(\d/);
    });

    test('no two landmarks of the public report share a name', async () => {
      const login = await page.request.post('/api/account/graphql', {
        data: {
          query: `mutation { tokenAuth(email: "tenant@demo.test", password: "${PASSWORD}") { token } }`,
        },
      });
      const token = (await login.json()).data.tokenAuth.token as string;
      const answer = await page.request.post('/api/account/graphql', {
        headers: { authorization: `Bearer ${token}` },
        data: { query: `{ monthlyReports(tenancyId: "${tenancy}") { url } }` },
      });
      const url = (await answer.json()).data.monthlyReports[0].url as string;
      await page.goto(url);
      const result = await new AxeBuilder({ page }).withRules(['landmark-unique']).analyze();
      expect(result.violations.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
    });
    test('an email change is confirmed by a click on the page, not by opening the link', async ({
      browser,
    }) => {
      const visitor = await newPage(browser);
      try {
        await visitor.goto('/confirm-email?token=not-a-real-token');
        const button = visitor.getByTestId('confirm-email');
        await expect(button).toBeEnabled();
        await visitor.waitForTimeout(1500);
        await expect(visitor.getByRole('alert')).toHaveCount(0);
        await button.click();
        await expect(visitor.getByRole('alert')).toContainText('Password update failed');
      } finally {
        await visitor.context().close();
      }
    });
  });

/** Screenshots of the changed pages at 390 and 1400 px in en, da and nb, when E2E_SCREENSHOTS names a folder. */
test('screenshots of the pages issue 25 changed', async ({ browser, baseURL }) => {
  const shots = process.env.E2E_SCREENSHOTS;
  test.skip(!shots, 'only when E2E_SCREENSHOTS names a folder');
  test.setTimeout(300_000);
  const page = await newPage(browser);
  try {
    const tenancy = await logInToDashboard(page, 'tenant@demo.test');
    const accept = page.getByRole('button', { name: 'Accept' });
    if (await accept.isVisible()) await accept.click();
    const snap = async (name: string, lang: string) => {
      await page.evaluate(() => window.scrollTo(0, 0));
      for (const width of [390, 1400]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${shots}/${name}-${lang}-${width}.png` });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    };
    const nextName = { en: 'Next', da: 'Næste', nb: 'Neste' } as const;
    for (const lang of ['en', 'da', 'nb'] as const) {
      const next = () => page.getByRole('button', { name: nextName[lang], exact: true }).click();
      await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.goto(`/t/${tenancy}/profile`);
      await page.locator('input[type=password]').first().fill(PASSWORD);
      await page.locator('input[type=password]').nth(1).fill(PASSWORD);
      await page.locator('input[type=password]').nth(2).fill(PASSWORD);
      await page.locator('form').first().locator('button[type=submit]').click();
      await expect(page.locator('form').first().getByRole('alert').first()).toBeVisible();
      await snap('profile-same-password', lang);
      await page.goto(`/t/${tenancy}/alarms/new-alarm?step=1`);
      await page.locator('input[value="indoor_climate"]').check();
      await next();
      await page.locator('input[value="indoor-relative-humidity"]').check();
      await next();
      await page.locator('input[value="day"]').check();
      await next();
      await page.locator('input[inputmode=decimal]').last().fill('150');
      await next();
      await page
        .locator('input[inputmode=decimal]')
        .first()
        .fill(lang === 'en' ? '30.5' : '30,5');
      await snap('wizard-limits', lang);
      await page.goto(`/t/${tenancy}/notifications`);
      await page.locator('.notification-item').first().getByRole('link').click();
      await expect(page.getByTestId('notification-read')).toBeVisible();
      await snap('notification', lang);
      await page.goto(`/t/${tenancy}/consumption/hca`);
      await page.waitForTimeout(2500);
      await snap('hca', lang);
      await page.goto(`/t/${tenancy}/statements`);
      await page.waitForTimeout(1500);
      await snap('statements', lang);
      await page.goto(`/data-policy?lang=${lang}`);
      await snap('data-policy', lang);
      await page.goto(`/confirm-email?token=x&lang=${lang}`);
      await page.waitForTimeout(800);
      await snap('confirm-email', lang);
    }
  } finally {
    await page.context().close();
  }
});
