/** The island-free auth pages: the plain language form (with and without scripts) and the login form's states. */

import { expect, type Page, test } from '@playwright/test';
import { logIn, newPage } from './helpers.ts';

test.describe
  .serial('auth pages without a framework', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('switches the language from the plain picker, saved in storage and cookie', async () => {
      await page.goto('/login');
      await page.getByLabel('Language').selectOption('da');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log ind');
      await expect(page.locator('html')).toHaveAttribute('lang', 'da');
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('da');
      const cookies = await page.context().cookies(page.url());
      expect(cookies.find((c) => c.name === 'lang')?.value).toBe('da');
      // The next page is rendered in Danish by the server, before any script runs.
      const html = await (await page.request.get('/login/email')).text();
      expect(html).toContain('<html lang="da"');
      expect(html).toContain('Log ind med e-mail');

      await page.getByLabel('Sprog').selectOption('en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
    });

    test('lets the stored choice win when the cookie is gone', async () => {
      await page.evaluate(() => localStorage.setItem('language', 'nb'));
      await page.context().clearCookies();
      await page.goto('/login');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Logg inn');
      await page.getByLabel('Språk').selectOption('en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
    });

    test('works without scripts: the form posts the language and comes back, never to another site', async ({
      baseURL,
    }) => {
      const post = (back: string) =>
        page.request.post('/language', {
          form: { lang: 'nb', back },
          headers: { origin: baseURL! },
          maxRedirects: 0,
        });
      const ok = await post('/login/email');
      expect(ok.status()).toBe(303);
      expect(ok.headers().location).toBe('/login/email');
      expect(ok.headers()['set-cookie']).toMatch(/^lang=nb;/);
      for (const offsite of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
        expect((await post(offsite)).headers().location).toBe('/login');
      }
      const unknown = await page.request.post('/language', {
        form: { lang: 'xx', back: '/login' },
        headers: { origin: baseURL! },
        maxRedirects: 0,
      });
      expect(unknown.headers()['set-cookie']).toBeUndefined();
      await page.context().clearCookies();
    });

    test('shows the email error on the field, focused and described, and clears it on typing', async () => {
      await logIn(page, 'not-an-email', 'whatever');
      const email = page.getByLabel('Email');
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toBeFocused();
      const describedBy = await email.getAttribute('aria-describedby');
      await expect(page.locator(`#${describedBy}`)).toHaveText('The entered email-address is invalid');
      await email.fill('tenant@demo.test');
      await expect(email).not.toHaveAttribute('aria-invalid');
      await expect(page.locator('.field-error')).toHaveCount(0);
    });

    test('shows the busy label while logging in', async () => {
      // Both backends answer late, so the form stays busy long enough to be seen.
      await page.route('**/api/*/graphql', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.fallback();
      });
      try {
        await logIn(page, 'tenant@demo.test', 'Wrong#Password1');
        const button = page.locator('form[data-login-form] button[type="submit"]');
        await expect(button).toHaveText('Logging in…');
        await expect(button).toBeDisabled();
        await expect(page.getByRole('alert')).toHaveText(/\S/);
        await expect(button).toHaveText('Log in');
      } finally {
        await page.unroute('**/api/*/graphql');
      }
    });
  });
