/** The island-free auth pages: the plain language form (with and without scripts) and the login form's states. */

import { expect, test } from '@playwright/test';
import type { Page } from 'playwright-core';
import { baseUrlOf, launchBrowser, logIn } from './browser.ts';

const baseUrl = baseUrlOf();

test.describe
  .serial('auth pages without a framework', () => {
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;

    test.beforeAll(async () => {
      browser = await launchBrowser({ width: 390, height: 844 });
      page = await browser.context.newPage();
    });
    test.afterAll(async () => {
      await browser?.close();
    });

    test('switches the language from the plain picker, saved in storage and cookie', async () => {
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel('Language').selectOption('da');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log ind');
      expect(await page.locator('html').getAttribute('lang')).toBe('da');
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('da');
      const cookies = await browser.context.cookies(baseUrl);
      expect(cookies.find((c) => c.name === 'lang')?.value).toBe('da');
      // The next page is rendered in Danish by the server, before any script runs.
      const html = await (await page.request.get(`${baseUrl}/login/email`)).text();
      expect(html).toContain('<html lang="da"');
      expect(html).toContain('Log ind med e-mail');

      await page.getByLabel('Sprog').selectOption('en');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in');
    });

    test('lets the stored choice win when the cookie is gone', async () => {
      await page.evaluate(() => localStorage.setItem('language', 'nb'));
      await browser.context.clearCookies();
      await page.goto(`${baseUrl}/login`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Logg inn');
      await page.getByLabel('Språk').selectOption('en');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in');
    });

    test('works without scripts: the form posts the language and comes back, never to another site', async () => {
      const post = (back: string) =>
        page.request.post(`${baseUrl}/language`, {
          form: { lang: 'nb', back },
          headers: { origin: baseUrl },
          maxRedirects: 0,
        });
      const ok = await post('/login/email');
      expect(ok.status()).toBe(303);
      expect(ok.headers().location).toBe('/login/email');
      expect(ok.headers()['set-cookie']).toMatch(/^lang=nb;/);
      for (const offsite of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
        expect((await post(offsite)).headers().location).toBe('/login');
      }
      const unknown = await page.request.post(`${baseUrl}/language`, {
        form: { lang: 'xx', back: '/login' },
        headers: { origin: baseUrl },
        maxRedirects: 0,
      });
      expect(unknown.headers()['set-cookie']).toBeUndefined();
      await browser.context.clearCookies();
    });

    test('shows the email error on the field, focused and described, and clears it on typing', async () => {
      await logIn(page, baseUrl, 'not-an-email', 'whatever');
      const email = page.getByLabel('Email');
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
      expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
      const describedBy = await email.getAttribute('aria-describedby');
      expect(await page.locator(`#${describedBy}`).textContent()).toBe(
        'The entered email-address is invalid',
      );
      await email.fill('tenant@demo.test');
      await expect.poll(() => email.getAttribute('aria-invalid')).toBeNull();
      expect(await page.locator('.field-error').count()).toBe(0);
    });

    test('shows the busy label while logging in', async () => {
      // Both backends answer late, so the form stays busy long enough to be seen.
      await page.route('**/api/*/graphql', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.fallback();
      });
      try {
        await logIn(page, baseUrl, 'tenant@demo.test', 'Wrong#Password1');
        const button = page.locator('form[data-login-form] button[type="submit"]');
        await expect.poll(() => button.textContent()).toBe('Logging in…');
        expect(await button.isDisabled()).toBe(true);
        await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toBeTruthy();
        expect(await button.textContent()).toBe('Log in');
      } finally {
        await page.unroute('**/api/*/graphql');
      }
    });
  });
