/**
 * Accounts end to end: signup from an activation link, forgot password with the mail read from a real SMTP
 * server, inviting a co-tenant who joins, the impersonation bar ending after 60 minutes on a fake clock,
 * and axe on every new page in en, da and nb.
 */

import { expect } from '@playwright/test';
import { startTestOidc, type TestOidc } from '../api/helpers/oidc.ts';
import { startTestSmtp, type TestSmtp } from '../api/helpers/smtp.ts';
import { firstRun, hydrated, inviteAsAdmin, person, signUp, snap, test } from './accounts-helpers.ts';
import { freshActivationCodes } from './admin-helpers.ts';
import { DASHBOARD, logIn, logInToDashboard, oidcUrl, seriousA11yViolations, smtpUrl } from './helpers.ts';

let smtp: TestSmtp | null = null;
let oidc: TestOidc | null = null;

test.beforeAll(async () => {
  if (smtpUrl) smtp = await startTestSmtp(Number(new URL(smtpUrl).port));
  if (oidcUrl) oidc = await startTestOidc(Number(new URL(oidcUrl).port));
});
test.afterAll(async () => {
  await smtp?.close();
  await oidc?.close();
});

test.describe
  .serial('accounts', () => {
    test("signs up from an activation link and lands on the new tenancy's dashboard", async ({
      page,
      browser,
    }) => {
      // The demo's published code works once: a retry (or repeat) of the group signs up with a fresh code instead.
      const code = firstRun() ? 'DEMOACTIVATE' : (await freshActivationCodes(browser, 1))[0]!;
      const grouped = code.match(/.{4}/g)!.join('-');
      await page.goto(`/signup?activationCode=${grouped}`);
      await expect(page.getByTestId('pending-code')).toContainText(grouped);
      await signUp(page, person('new.tenant'));
      // The code is spent and forgotten.
      expect(await page.evaluate(() => localStorage.getItem('unusedActivationCode'))).toBeNull();
      // A signed-in user who opens /signup or /login goes to the dashboard.
      await page.goto('/signup');
      await expect(page).toHaveURL(DASHBOARD);
      await page.goto('/login');
      await expect(page).toHaveURL(DASHBOARD);
    });

    test('resets a forgotten password with the link from the mail', async ({ page }) => {
      test.skip(!smtp, 'needs the test SMTP server');
      await page.goto('/login/email/forgot-password');
      await hydrated(page);
      await page.getByLabel('Email').fill(person('new.tenant'));
      await page.getByRole('button', { name: 'Send link' }).click();
      await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
      const mail = await smtp!.waitFor(
        (m) => m.to.includes(person('new.tenant')) && m.subject === 'Reset your password',
        15_000,
      );
      const link = new URL(/https?:\/\/\S+\/reset-password\S+/.exec(mail.text)![0]);
      await page.goto(`${link.pathname}${link.search}`);
      await hydrated(page);
      await page.getByLabel('Password', { exact: true }).fill('Brand-New-Pass-77');
      await page.getByLabel('Repeat password').fill('Brand-New-Pass-77');
      await page.getByRole('button', { name: 'Save password' }).click();
      await expect(page.getByRole('heading', { name: 'Your password has been changed' })).toBeVisible();
      // The link works once.
      await page.goto(`${link.pathname}${link.search}`);
      await hydrated(page);
      await page.getByLabel('Password', { exact: true }).fill('Another-Pass-88x');
      await page.getByLabel('Repeat password').fill('Another-Pass-88x');
      await page.getByRole('button', { name: 'Save password' }).click();
      await expect(page.getByRole('alert')).toHaveText('Password update failed. Please try again.');
      await logInToDashboard(page, person('new.tenant'), 'Brand-New-Pass-77');
    });

    test('lets a tenancy admin invite a co-tenant, who signs up with the mailed link and joins', async ({
      page,
      visitor,
    }) => {
      test.skip(!smtp, 'needs the test SMTP server');
      // Two people on two devices, each with a cold page: minutes on a busy 2-core machine.
      test.slow();
      const { dashboard, link } = await inviteAsAdmin(page, smtp!, person('co.tenant'));
      await expect(page.getByTestId('invitations')).toContainText(person('co.tenant'));

      const invitee = await visitor();
      await invitee.goto(`${link.pathname}${link.search}`);
      await signUp(invitee, person('co.tenant'));
      await expect(invitee).toHaveURL(dashboard);

      const admin = await visitor();
      await logInToDashboard(admin, 'admin@demo.test');
      await admin.goto(`${dashboard}settings`);
      await expect(admin.getByTestId('members')).toContainText(person('co.tenant'), { timeout: 30_000 });
    });

    test('ends an impersonation session after 60 minutes (fake clock) and shows who is being viewed', async ({
      page,
    }) => {
      // The test's own context: Playwright's clock belongs to the whole context and stays an hour ahead.
      await page.clock.install();
      await logInToDashboard(page, 'multi@demo.test');
      // The tab becomes an impersonation session: the same tokens, moved to sessionStorage with a 60-minute end
      // (the /impersonate/{token} exchange itself is covered by the API tests; the CLI cannot open the
      // e2e server's embedded database while it runs).
      await page.evaluate(() => {
        const keys = [
          'token',
          'refreshToken',
          'refreshExpiresIn',
          'tenantToken',
          'tenantRefreshToken',
          'selectedTenancy',
        ];
        for (const key of keys) {
          const value = localStorage.getItem(key);
          if (value !== null) sessionStorage.setItem(key, value);
          localStorage.removeItem(key);
        }
        sessionStorage.setItem(
          'impersonation',
          JSON.stringify({ email: 'multi@demo.test', endsAt: Date.now() + 60 * 60_000 }),
        );
      });
      await page.reload();
      const bar = page.getByTestId('impersonation-bar');
      await expect(bar).toContainText('Viewing as multi@demo.test', { timeout: 30_000 });
      // Not early: four minutes on (before the access tokens' own refresh is due) nothing has ended.
      await page.clock.fastForward('04:00');
      await expect(page).toHaveURL(DASHBOARD);
      expect(await page.evaluate(() => sessionStorage.getItem('impersonation'))).not.toBeNull();
      // Past the hour the session machine's delayed transition logs out, says why, and returns the tab to its
      // ordinary storage (only the logout removes the key).
      await page.clock.fastForward('56:30');
      await page.waitForURL(/\/login/, { timeout: 30_000 });
      await expect(page.getByRole('status')).toContainText('The support session ended after 60 minutes.');
      expect(await page.evaluate(() => sessionStorage.getItem('impersonation'))).toBeNull();
      expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
    });

    test('signs in with a social provider answering in the fragment (local OIDC provider as Google)', async ({
      page,
      baseURL,
    }) => {
      test.skip(!oidc, 'needs the local OIDC provider');
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Continue with Apple' })).toBeVisible();
      // Facebook has no client id in this run: no button.
      await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toHaveCount(0);
      await snap(page, 'login-social');
      oidc!.setEmail('tenant@demo.test');
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await page.waitForURL(DASHBOARD, { timeout: 30_000 });
      const asked = oidc!.requests.at(-1)!;
      expect(asked.get('client_id')).toBe('e2e-google');
      expect(asked.get('response_type')).toBe('id_token');
      expect(asked.get('redirect_uri')).toBe(`${baseURL}/login/social`);
      expect(asked.get('state')).toMatch(/^[\w-]{43}$/);
      expect(asked.get('nonce')).toMatch(/^[\w-]{43}$/);
      expect(await page.evaluate(() => sessionStorage.getItem('socialLogin'))).toBeNull();
      expect(await page.evaluate(() => localStorage.getItem('tenantToken'))).toBeTruthy();
    });

    test('refuses a social answer whose state this tab did not start', async ({ page }) => {
      await page.goto('/login');
      await page.evaluate(() =>
        sessionStorage.setItem(
          'socialLogin',
          JSON.stringify({ provider: 'google', state: 'mine', nonce: 'n' }),
        ),
      );
      await page.goto('/login/social#id_token=abc&state=theirs');
      await expect(page.getByRole('alert')).toHaveText(
        'The sign-in could not be completed. Please try again.',
      );
      await snap(page, 'login-social-refused');
      // The token left the address bar, and nobody was signed in.
      expect(new URL(page.url()).hash).toBe('');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    });

    test('signs up by Apple (form_post answer) from an invitation link and joins the tenancy', async ({
      page,
      visitor,
    }) => {
      test.skip(!smtp || !oidc, 'needs the test SMTP server and the local OIDC provider');
      // Two people on two devices, each with a cold page: minutes on a busy 2-core machine.
      test.slow();
      const { dashboard, link } = await inviteAsAdmin(page, smtp!, person('social.joiner'));

      const joiner = await visitor();
      await joiner.goto(`${link.pathname}${link.search}`);
      await expect(joiner.getByTestId('pending-code')).toContainText(
        link.searchParams.get('activationCode')!.match(/.{4}/g)!.join('-'),
      );
      await snap(joiner, 'signup-social');
      oidc!.setEmail(person('social.joiner'));
      await joiner.getByRole('button', { name: 'Continue with Apple' }).click();
      await joiner.waitForURL(DASHBOARD, { timeout: 30_000 });
      await expect(joiner).toHaveURL(dashboard);
      expect(oidc!.requests.at(-1)!.get('response_mode')).toBe('form_post');
      // The code was applied and forgotten.
      expect(await joiner.evaluate(() => localStorage.getItem('unusedActivationCode'))).toBeNull();
      expect(await joiner.evaluate(() => localStorage.getItem('unvalidatedActivationCode'))).toBeNull();
    });

    test('modals: pending code, leave tenancy and delete account trap focus, close by Escape and return focus', async ({
      page,
    }) => {
      await logInToDashboard(page, 'multi@demo.test');
      const dashboard = new URL(page.url()).pathname;
      const failures: string[] = [];

      // A logged-in user with tenancies and a pending code gets the additional-tenancy modal.
      await page.evaluate(() => localStorage.setItem('unusedActivationCode', 'ABCDEFGHIJKL'));
      await page.reload();
      const pending = page.getByRole('dialog', { name: 'Add another tenancy' });
      await expect(pending).toBeVisible({ timeout: 30_000 });
      for (const v of await seriousA11yViolations(page)) failures.push(`pending-code modal: ${v}`);
      await snap(page, 'modal-pending-code');
      await page.keyboard.press('Escape');
      await expect(pending).toBeHidden();
      // The dialog hides at once; its close event, which forgets the code, is dispatched a task later.
      await expect.poll(() => page.evaluate(() => localStorage.getItem('unusedActivationCode'))).toBeNull();

      await page.goto(`${dashboard}profile`);
      const leave = page.getByRole('button', { name: 'Leave tenancy' }).first();
      await leave.click({ timeout: 30_000 });
      const dialog = page.getByRole('dialog', { name: 'Leave tenancy' });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator(':focus')).toHaveCount(1);
      // Tab cycles inside the dialog (a modal <dialog> makes the page behind it inert).
      for (let i = 0; i < 5; i += 1) {
        await page.keyboard.press('Tab');
        expect(
          await page.evaluate(
            () => !!document.activeElement?.closest('dialog') || document.activeElement === document.body,
          ),
        ).toBe(true);
      }
      await expect(dialog).toHaveCSS('max-width', '484px');
      for (const v of await seriousA11yViolations(page)) failures.push(`leave modal: ${v}`);
      await snap(page, 'modal-leave');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(leave).toBeFocused();

      const del = page.getByRole('button', { name: 'Delete my account' });
      await del.click();
      const delDialog = page.getByRole('dialog', { name: 'Delete account' });
      await expect(delDialog).toBeVisible();
      await expect(delDialog).toHaveCSS('max-width', '706px');
      for (const v of await seriousA11yViolations(page)) failures.push(`delete modal: ${v}`);
      await snap(page, 'modal-delete');
      await delDialog.getByRole('button', { name: 'Close' }).click();
      await expect(delDialog).toBeHidden();
      await expect(del).toBeFocused();
      expect(failures).toEqual([]);
    });

    test('shows the throttle answer with its wait in minutes, and the expired-session message', async ({
      page,
    }) => {
      await page.goto('/login/email');
      await expect(page.locator('form[data-ready]')).toBeAttached();
      await page.getByLabel('Email').fill('guesser@demo.test');
      const alert = page.getByRole('alert');
      for (let i = 0; i < 11; i += 1) {
        await page.getByLabel('Password').fill(`wrong-guess-${i}`);
        await page.getByRole('button', { name: 'Log in' }).click();
        await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
        await expect(alert).toBeVisible();
        if ((await alert.textContent())?.startsWith('Too many')) break;
      }
      await expect(alert).toHaveText(/^Too many attempts\. Try again in (1 minute|\d+ minutes)\.$/);
      await page.goto('/login?expired=1');
      await expect(page.getByRole('alert')).toHaveText('Your log in expired. Please log in again.');
    });

    test('passes axe on every new page, in en, da and nb', async ({ page, visitor, baseURL }) => {
      // 12 public pages and 2 signed-in ones, in three languages: about 2 minutes on a loaded 2-core machine.
      test.setTimeout(360_000);
      await page.goto('/login');
      const failures: string[] = [];
      const publicPages = [
        '/signup',
        '/signup/email',
        '/signup/enter-code',
        '/signup/account-created',
        '/login/email/forgot-password',
        '/reset-password?email=a%40b.test&token=x',
        '/confirm-email?token=x',
        '/impersonate/not-a-token',
        '/login',
        '/login/social',
      ];
      for (const lang of ['en', 'da', 'nb']) {
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const path of publicPages) {
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          for (const v of await seriousA11yViolations(page)) failures.push(`${lang} ${path}: ${v}`);
        }
        await page.evaluate(() => sessionStorage.setItem('signupEmail', 'someone@demo.test'));
        await page.goto('/signup/set-password');
        await hydrated(page);
        for (const v of await seriousA11yViolations(page)) failures.push(`${lang} set-password: ${v}`);
      }
      const signedIn = await visitor();
      await logIn(signedIn, 'admin@demo.test');
      await signedIn.waitForURL(DASHBOARD, { timeout: 30_000 }).catch(async (err: unknown) => {
        const alert = await signedIn.locator('[role=alert]').allTextContents();
        throw new Error(
          `login did not reach the dashboard: at ${signedIn.url()}, alerts ${JSON.stringify(alert)}: ${err}`,
        );
      });
      const dashboard = new URL(signedIn.url()).pathname;
      for (const lang of ['en', 'da', 'nb']) {
        await signedIn.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await signedIn.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const path of ['profile', 'settings']) {
          await signedIn.goto(`${dashboard}${path}`);
          await expect(signedIn.locator('.card').first()).toBeVisible({ timeout: 30_000 });
          for (const v of await seriousA11yViolations(signedIn)) failures.push(`${lang} ${path}: ${v}`);
        }
      }
      expect(failures).toEqual([]);
    });
  });
