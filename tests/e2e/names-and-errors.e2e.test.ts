/**
 * Issue 25, names and errors in Chromium: the alarm, notification and wizard pages have titles of their own,
 * and the profile's refused fields carry their message, tied to the field and announced, with focus on the first.
 */
import { expect, type Page, test } from '@playwright/test';
import { logInToDashboard, newPage } from './helpers.ts';

test.describe
  .serial('page titles and form errors', () => {
    let page: Page;
    let tenancy: string;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      tenancy = await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('an alarm, a notification and each wizard step have a title of their own', async () => {
      await page.goto(`/t/${tenancy}/alarms`);
      await page.locator('.alarm-item').first().getByRole('link').first().click();
      await expect(page).toHaveTitle(/^Alarm: .+ · .+ · /);

      await page.goto(`/t/${tenancy}/notifications`);
      await page.locator('.notification-item').first().getByRole('link').click();
      await expect(page).toHaveTitle(/^Notification: .*\d.* · /);

      await page.goto(`/t/${tenancy}/alarms/new-alarm?step=1`);
      await expect(page).toHaveTitle(/^New alarm, step 1 of \d+: .+ · /);
    });

    test('the profile ties each refused field to its message, announces it and focuses the first', async () => {
      await page.goto(`/t/${tenancy}/profile`);
      const passwordForm = page.locator('form', { has: page.getByLabel('Current password') });
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      const current = page.getByLabel('Current password');
      await expect(current).toHaveAttribute('aria-invalid', 'true');
      await expect(current).toHaveAccessibleDescription('Please enter your password');
      await expect(current).toBeFocused();
      await expect(passwordForm.getByRole('alert').first()).toHaveText('Please enter your password');
      // The checklist says which rules are met.
      await page.getByLabel('New password', { exact: true }).fill('abcdefghijkl');
      await expect(passwordForm.locator('.password-rules li').first()).toContainText('(met)');
      await expect(passwordForm.locator('.password-rules li', { hasText: 'capital' })).toContainText(
        '(not met yet)',
      );

      const emailForm = page.locator('form', { has: page.getByLabel('New email') });
      await page.getByLabel('New email').fill('someone@example.test');
      await emailForm.getByRole('button').last().click();
      const password = emailForm.getByLabel(/password/i);
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      await expect(password).toHaveAccessibleDescription('Please enter your password');
      await expect(password).toBeFocused();
    });
  });
