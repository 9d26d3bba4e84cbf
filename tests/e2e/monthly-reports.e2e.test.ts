/**
 * Tenants find their monthly reports (issue 22): the "Monthly reports" menu entry lists the tenancy's reports,
 * each opens the public report, which links its PDF; axe in en, da and nb; 390 and 1400 px without sideways
 * scrolling, with screenshots (REPORTS_SCREENSHOT_DIR, else the test's output folder).
 */
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { chooseHeaderLanguage, logInToDashboard, newPage, seriousA11yViolations } from './helpers.ts';

const LANGUAGES = ['en', 'da', 'nb'] as const;

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe
  .serial('monthly reports from the app', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser, { viewport: { width: 1400, height: 900 } });
      await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('lists the reports from the menu; a report opens and links its PDF', async () => {
      await page.getByRole('link', { name: 'Monthly reports' }).click();
      await expect(page).toHaveURL(/\/t\/[^/]+\/reports$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Monthly reports' })).toBeVisible();
      const rows = page.getByTestId('monthly-report-row');
      await expect(rows.first()).toBeVisible();
      const open = rows.first().getByRole('link', { name: /^Open the report for / });
      const month = ((await open.textContent()) ?? '').replace('Open the report for ', '');
      expect(month).toMatch(/^[A-Z][a-z]+ \d{4}$/);
      const href = await open.getAttribute('href');
      expect(href).toMatch(/^\/report\/[A-Za-z0-9_-]{43}\?lang=en$/);
      const pdfHref = await rows
        .first()
        .getByRole('link', { name: /as PDF$/ })
        .getAttribute('href');
      expect(pdfHref).toBe(href!.replace('?lang=en', '.pdf?lang=en'));

      await open.click();
      // The prerendered shell in the link's language, with the code as the fragment.
      await expect(page).toHaveURL(/\/report\/shell\/en#[A-Za-z0-9_-]{43}$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const pdfLink = page.getByTestId('report-pdf');
      await expect(pdfLink).toBeVisible();
      const response = await page.request.get((await pdfLink.getAttribute('href'))!);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toContain('application/pdf');
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.body())), {
        mergePages: true,
      });
      // The PDF is the same report: the row's month is in it.
      expect(text).toContain(month);
      await page.goBack();
      await expect(page).toHaveURL(/\/reports$/);
    });

    test('passes axe in en, da and nb, and fits 390 and 1400 px', async () => {
      const dir = process.env.REPORTS_SCREENSHOT_DIR ?? test.info().outputDir;
      for (const lang of LANGUAGES) {
        await chooseHeaderLanguage(page, lang);
        await page.reload();
        await expect(page.getByTestId('monthly-report-row').first()).toBeVisible();
        expect(await seriousA11yViolations(page), `monthly reports ${lang}`).toEqual([]);
      }
      for (const width of [390, 1400]) {
        await page.setViewportSize({ width, height: 900 });
        await page.reload();
        await expect(page.getByTestId('monthly-report-row').first()).toBeVisible();
        await noSidewaysScroll(page);
        await page.screenshot({ path: join(dir, `monthly-reports-nb-${width}.png`), fullPage: true });
      }
      await chooseHeaderLanguage(page, 'en');
    });
  });
