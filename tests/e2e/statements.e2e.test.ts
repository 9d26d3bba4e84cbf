/**
 * Allocation statements end to end in Chromium (split from reports.e2e.test.ts): the list from the menu, a
 * statement's PDF read back against the account API, axe in en, da and nb, and the phone drawer's focus.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import {
  chooseHeaderLanguage,
  logInToDashboard,
  newPage,
  PASSWORD,
  seriousA11yViolations,
} from './helpers.ts';

const LANGUAGES = ['en', 'da', 'nb'] as const;

test.describe
  .serial('allocation statements', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('lists the statements from the menu and downloads one as a PDF', async () => {
      const link = page.getByRole('link', { name: 'Allocation statements' });
      await link.click();
      await expect(page).toHaveURL(/\/statements$/);
      const rows = page.getByTestId('statement-row');
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText(/Heating, Meter rental and reading, Administration/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        rows
          .first()
          .getByRole('button', { name: /^Download PDF \(\d/ })
          .click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^statement-T-.+\.pdf$/);
      const bytes = readFileSync((await download.path())!);
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
      expect(text).toContain('Heating cost statement');
      expect(text).toContain('7. Your right to object');
      // Read back against the numbers: the balance and the meter readings the account API gives for it.
      const login = await page.request.post('/api/account/graphql', {
        data: {
          query: `mutation { tokenAuth(email: "tenant@demo.test", password: "${PASSWORD}") { token } }`,
        },
      });
      const token = ((await login.json()) as { data: { tokenAuth: { token: string } } }).data.tokenAuth.token;
      const tenancy = /\/t\/(\d+)\//.exec(page.url())![1];
      const answer = await page.request.post('/api/account/graphql', {
        headers: { authorization: `Bearer ${token}` },
        data: {
          query: `{ allocationStatements(tenancyId: "${tenancy}") { balance currency
            meterReadings { meterNumber startValue endValue consumption } } }`,
        },
      });
      const [statement] = (
        (await answer.json()) as {
          data: {
            allocationStatements: {
              balance: string;
              currency: string;
              meterReadings: { meterNumber: string; startValue: number | null; endValue: number | null }[];
            }[];
          };
        }
      ).data.allocationStatements;
      const flat = text.replace(/\s+/g, ' ');
      const currency = new Intl.NumberFormat('en-GB', { style: 'currency', currency: statement!.currency });
      // Intl puts a no-break space after the currency code; the PDF's Helvetica text has a plain one.
      const money = { format: (x: number) => currency.format(x).replace(/\u00a0/g, ' ') };
      const balance = Number(statement!.balance);
      expect(flat).toContain(
        balance >= 0
          ? `You pay in addition: ${money.format(balance)}`
          : `You get back: ${money.format(-balance)}`,
      );
      expect(flat).toContain('12. Meter readings');
      const n = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 3 });
      for (const m of statement!.meterReadings.filter((r) => r.startValue !== null && r.endValue !== null))
        expect(flat).toContain(`${m.meterNumber} ${n.format(m.startValue!)} ${n.format(m.endValue!)}`);
      // The PDF URL alone, without the bearer token, gives nothing.
      const href = (await page.request.get('/api/statements/1/pdf')).status();
      expect(href).toBe(401);
    });

    test('passes axe on the statements and help pages in en, da and nb', async () => {
      for (const lang of LANGUAGES) {
        await chooseHeaderLanguage(page, lang);
        await page.reload();
        await expect(page.getByTestId('statement-row').first()).toBeVisible();
        expect(await seriousA11yViolations(page), `statements ${lang}`).toEqual([]);
      }
      await chooseHeaderLanguage(page, 'en');
      const help = page.getByRole('link', { name: 'Help' });
      await help.click();
      await expect(page).toHaveURL(/\/help$/);
      await expect(page.getByRole('heading', { name: 'Climate correction' })).toHaveCount(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('moves focus into the phone drawer and back to the menu button, with long labels whole', async () => {
      await page.setViewportSize({ width: 390, height: 800 });
      await chooseHeaderLanguage(page, 'da');
      const open = page.getByRole('button', { name: 'Åbn menu' });
      await open.click();
      await expect(page.locator('#app-menu :focus')).toHaveCount(1);
      const label = page
        .locator('#app-menu .nav-link', { hasText: 'Alarmindstillinger' })
        .locator('span')
        .first();
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      // One line: the word is whole, not broken into "Alarmindstill" + "inger".
      expect(await label.evaluate((el) => el.getClientRects().length)).toBe(1);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Åbn menu' })).toBeFocused();
      await chooseHeaderLanguage(page, 'en');
      await page.setViewportSize({ width: 1400, height: 900 });
    });
  });
