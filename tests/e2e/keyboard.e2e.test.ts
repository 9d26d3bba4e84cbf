/**
 * Issue 25's keyboard journeys in Chromium, asserting where focus is after each step: the phone drawer keeps
 * focus inside while open, the cookie banner never covers the focused control and hands focus on when answered,
 * the tenancy and language pickers act only on an explicit choice, and the period bar and page changes never
 * drop focus to the page body.
 */
import { expect, type Page, test } from '@playwright/test';
import { logInToDashboard, newPage } from './helpers.ts';

const PHONE = { width: 390, height: 844 };

/** A short description of the focused element, and whether it is the page body. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { body: !el || el === document.body, inMenu: !!el?.closest('#app-menu'), tag: el?.tagName ?? '' };
  });

test.describe
  .serial('keyboard journeys on a phone, with the cookie banner unanswered', () => {
    let page: Page;
    let tenancy: string;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser, { viewport: PHONE });
      tenancy = await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('a soft page change with the banner unanswered keeps the page at its top (no jump under the header)', async () => {
      // The banner of the page before a soft navigation is detached; its focus guard measured an all-zero box and
      // scrolled every focused heading out of sight by its own height (and clicks right after landed elsewhere).
      await page.goto(`/t/${tenancy}/alarms`);
      await expect(page.locator('#cookie-consent .cookie-consent-inner')).toBeVisible();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.locator('#app-menu').getByRole('link', { name: 'Help' }).click();
      await expect(page).toHaveURL(/\/help$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });

    test('the cookie banner covers no focused control on the dashboard and a consumption page', async () => {
      for (const path of [`/t/${tenancy}/`, `/t/${tenancy}/consumption/heat-energy`]) {
        await page.goto(path);
        const banner = page.locator('#cookie-consent .cookie-consent-inner');
        await expect(banner).toBeVisible();
        await expect(page.getByTestId('period-label')).toBeVisible();
        const covered: string[] = [];
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press('Tab');
          const hit = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            const inner = document.querySelector('#cookie-consent .cookie-consent-inner');
            if (!el || !inner || inner.contains(el) || el === document.body) return null;
            const box = el.getBoundingClientRect();
            const top = inner.getBoundingClientRect().top;
            // Fixed parts (header, drawer) cannot be scrolled; they sit above the banner anyway.
            return box.bottom > top + 1 && box.top < window.innerHeight
              ? `${el.tagName} ${el.textContent?.trim().slice(0, 30)}`
              : null;
          });
          if (hit) covered.push(hit);
        }
        expect(covered, path).toEqual([]);
      }
    });

    test('the phone drawer keeps Tab inside while open and gives focus back to its button', async () => {
      await page.goto(`/t/${tenancy}/alarms`);
      const open = page.getByRole('button', { name: 'Open menu' });
      await open.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('#app-menu')).toHaveClass(/\bopen\b/);
      expect((await focused(page)).inMenu).toBe(true);
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press('Tab');
        expect((await focused(page)).inMenu, `Tab ${i + 1}`).toBe(true);
      }
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Shift+Tab');
        expect((await focused(page)).inMenu, `Shift+Tab ${i + 1}`).toBe(true);
      }
      // What lies under the drawer is out of reach meanwhile.
      await expect(page.locator('#main')).toHaveJSProperty('inert', true);
      await page.keyboard.press('Escape');
      await expect(open).toBeFocused();
      await expect(page.locator('#main')).toHaveJSProperty('inert', false);
    });

    test('answering the cookie banner by keyboard hands focus to the page heading', async () => {
      const accept = page.getByRole('button', { name: 'Accept' });
      await accept.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('#cookie-consent')).toBeHidden();
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    });

    test('an in-app page change moves focus to the new page heading', async () => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.locator('#app-menu').getByRole('link', { name: 'Help' }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/help$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    });
  });

test.describe
  .serial('keyboard journeys on a wide screen', () => {
    let page: Page;
    let tenancy: string;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await page
        .context()
        .addCookies([{ name: 'cookieAccepted', value: 'true', url: test.info().project.use.baseURL! }]);
      tenancy = await logInToDashboard(page, 'multi@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('arrowing through the tenancy picker switches nothing; Enter on an option does', async () => {
      const picker = page.getByRole('button', { name: /^Choose tenancy: / });
      await picker.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await expect(page).toHaveURL(`/t/${encodeURIComponent(tenancy)}/`);
      await expect(picker).toBeFocused();

      await page.keyboard.press('Enter');
      const list = page.getByRole('list', { name: 'Choose tenancy' });
      await expect(list.locator('[aria-current="true"]')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(page).toHaveURL(`/t/${encodeURIComponent(tenancy)}/`);
      await page.keyboard.press('Escape');
      await expect(list).toBeHidden();
      await expect(picker).toBeFocused();
      await expect(page).toHaveURL(`/t/${encodeURIComponent(tenancy)}/`);

      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(page).not.toHaveURL(`/t/${encodeURIComponent(tenancy)}/`);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
      // Back to the first tenancy for the tests after this one.
      await page.getByRole('button', { name: /^Choose tenancy: / }).click();
      await page
        .getByRole('list', { name: 'Choose tenancy' })
        .getByRole('button')
        .and(page.locator(':not([aria-current])'))
        .click();
      await expect(page).toHaveURL(`/t/${encodeURIComponent(tenancy)}/`);
    });

    test('arrowing through the language picker keeps the language; choosing switches it', async () => {
      const picker = page.getByRole('button', { name: /^Language: / });
      await picker.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await page.keyboard.press('Escape');
      await expect(picker).toBeFocused();

      await page.keyboard.press('Enter');
      await page.getByRole('list', { name: 'Language' }).locator('[lang="da"]').press('Enter');
      await expect(page.locator('html')).toHaveAttribute('lang', 'da');
      await expect(page.getByRole('button', { name: /^Sprog: / })).toBeFocused();
      await page.keyboard.press('Enter');
      await page.getByRole('list', { name: 'Sprog' }).locator('[lang="en"]').press('Enter');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    });

    test('the period bar never drops focus: next turning disabled, and a custom range applied or cancelled', async () => {
      await page.goto(`/t/${tenancy}/consumption/heat-energy`);
      const label = page.getByTestId('period-label');
      await expect(label).toHaveText('Last 30 days');
      const preset = page.getByLabel('Period', { exact: true });
      await page.getByTestId('period-previous').press('Enter');
      await expect(label).not.toHaveText('Last 30 days');
      const next = page.getByTestId('period-next');
      await next.focus();
      await page.keyboard.press('Enter');
      await expect(next).toBeDisabled();
      await expect(preset).toBeFocused();

      await preset.selectOption('custom');
      const start = page.getByLabel('Start date');
      await expect(start).toBeVisible();
      await page.getByRole('button', { name: 'Cancel' }).press('Enter');
      await expect(start).toBeHidden();
      await expect(preset).toBeFocused();

      await preset.selectOption('custom');
      await page.getByRole('button', { name: 'Show period' }).press('Enter');
      await expect(page.getByLabel('Start date')).toBeHidden();
      await expect(preset).toBeFocused();
    });
  });
