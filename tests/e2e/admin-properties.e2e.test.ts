/**
 * The console's property and meter pages (issue 21), by the demo organisation admin: onboard a property from a
 * CSV file (a bad file first: its lines are listed and nothing is written), edit a flat and a meter's settings
 * with the keyboard only, swap the meter with its end and start readings. Screenshots at 1400 and 390 px; axe on
 * each new page in en, da and nb.
 */
import { expect, type Page, test } from '@playwright/test';
import { logInAsOrgAdmin } from './admin-helpers.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

const SUFFIX = String(Date.now() % 1_000_000);
const NUMBER = `E2E-${SUFFIX}`;
const HEAT = `H-${SUFFIX}`;
const csv = (area: string) => `# property,account,number,name,address,zipcode,city
property,ignored,${NUMBER},Fjordhuset ${SUFFIX},Fjordvej 2,8000,Aarhus C
apartment,U-${SUFFIX}-1,st. tv,"Fjordvej 2, st. tv",8000,Aarhus C,${area},3
apartment,U-${SUFFIX}-2,st. th,"Fjordvej 2, st. th",8000,Aarhus C,54,2
point,U-${SUFFIX}-1,heat-energy,Heat
meter,U-${SUFFIX}-1,Heat,${HEAT},2024-01-01T00:00:00Z
tenancy,U-${SUFFIX}-1,T-${SUFFIX}-1,Jens Hansen,2025-04-01
`;

test.describe
  .serial('properties and meters', () => {
    let page: Page;
    const urls = { property: '', meter: '' };

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInAsOrgAdmin(page);
      const reject = page.getByRole('button', { name: 'Reject' });
      if (await reject.isVisible()) await reject.click();
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    const shoot = async (name: string) => {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.screenshot({ path: `test-results/admin-props-${name}-1400.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      // The side menu slides away when the page narrows: shoot once it has.
      await expect(page.locator('#admin-menu')).not.toBeInViewport();
      // Nothing wider than the phone: the page does not scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `test-results/admin-props-${name}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1400, height: 900 });
    };

    test('onboards a property from CSV; a bad file lists its lines and writes nothing', async () => {
      await page.goto('/admin/properties');
      await expect(page.getByTestId('properties-table')).toBeVisible();
      await page.getByLabel('File', { exact: true }).setInputFiles({
        name: 'bad.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv('0')),
      });
      await expect(page.getByLabel('Contents')).toHaveValue(csv('0'));
      await page.getByRole('button', { name: 'Check and import' }).click();
      await expect(page.getByRole('alert')).toContainText('nothing was written');
      await expect(page.getByTestId('upload-problems')).toHaveText(
        'line 3 (apartments.0.areaM2): Too small: expected number to be >0',
      );
      await expect(page.getByTestId('properties-table')).not.toContainText(NUMBER);
      await shoot('upload-refused');

      await page.getByLabel('File', { exact: true }).setInputFiles({
        name: 'good.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv('72.5')),
      });
      await page.getByRole('button', { name: 'Check and import' }).click();
      await expect(page.getByRole('status')).toContainText(
        'Property imported: 2 flats, 1 measurement points, 1 meters, 1 tenancies.',
      );
      await expect(page.getByTestId('properties-table')).toContainText(NUMBER);
      await shoot('properties');
      await page.getByRole('link', { name: 'Open the new property' }).click();
      await expect(page.getByTestId('property-heading')).toContainText(`Property ${NUMBER}`);
      urls.property = page.url();
      await expect(page.getByTestId(`flat-U-${SUFFIX}-1`)).toContainText('72.5 m²');
    });

    test('edits a flat with the keyboard only', async () => {
      await page.goto(urls.property);
      const flat = page.getByTestId(`flat-U-${SUFFIX}-1`);
      await flat.getByRole('button', { name: /^Edit flat/ }).focus();
      await page.keyboard.press('Enter');
      // The form opens with the focus on its first field; Tab walks the fields in order.
      await expect(flat.getByLabel('Floor and side')).toBeFocused();
      for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
      await expect(flat.getByLabel('Area (m²)')).toBeFocused();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('80,5');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('4');
      await page.keyboard.press('Enter');
      await expect(flat).toContainText('80.5 m²');
      await expect(flat.locator('dd').nth(3)).toHaveText('4');
      await shoot('property');
    });

    test('sets the meter’s radio id and billing date with the keyboard only', async () => {
      await page.goto(urls.property);
      await page.getByRole('link', { name: HEAT }).click();
      await expect(page.getByTestId('meter-heading')).toHaveText(`Meter ${HEAT}`);
      urls.meter = page.url();
      await page.getByLabel('Radio id').focus();
      await page.keyboard.type(`R-${SUFFIX}`);
      await page.keyboard.press('Tab');
      await page.keyboard.type('5');
      await page.keyboard.press('Tab');
      await page.keyboard.type('06-01');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status')).toHaveText('Settings saved.');
      await page.reload();
      await expect(page.getByLabel('Radio id')).toHaveValue(`R-${SUFFIX}`);
      await expect(page.getByLabel('Allocator billing date')).toHaveValue('06-01');
      // 02-29 is refused with a clear text and nothing is saved.
      await page.getByLabel('Allocator billing date').fill('02-29');
      await page.getByLabel('Allocator billing date').press('Enter');
      await expect(page.getByRole('alert')).toHaveText(
        'Some fields are not valid. Check them and save again.',
      );
      await page.reload();
      await expect(page.getByLabel('Allocator billing date')).toHaveValue('06-01');
    });

    test('swaps the meter with end and start readings, keyboard only', async () => {
      await page.goto(urls.meter);
      await page.getByRole('button', { name: 'Record a swap' }).focus();
      await page.keyboard.press('Enter');
      const at = page.getByLabel('Time of the swap');
      await expect(at).toBeFocused();
      // Before the installation: refused in the form, nothing sent.
      await at.fill('2023-06-01T12:00');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert')).toContainText('after the meter was installed');
      await at.fill('2025-06-01T12:00');
      // Tab leaves the date and time field after its own parts (day, month, year, hours, minutes).
      const end = page.getByLabel('Old meter’s end reading');
      for (let i = 0; i < 10 && !(await end.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press('Tab');
      }
      await expect(end).toBeFocused();
      await page.keyboard.type('1234,5');
      await page.keyboard.press('Tab');
      await page.keyboard.type(`${HEAT}-NEW`);
      await page.keyboard.press('Tab');
      await page.keyboard.type('0.25');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('swap-summary')).toContainText('1234,5');
      await expect(page.getByTestId('swap-summary')).toContainText(`${HEAT}-NEW`);
      await shoot('swap-confirm');
      await page.getByRole('button', { name: 'Record the swap' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('swap-done')).toContainText(`Meter ${HEAT} was swapped for ${HEAT}-NEW.`);
      // The old meter now ends with its end reading; the new one is listed with the point's meters.
      await expect(page.getByTestId('meter-readings')).toContainText('1234.5');
      await expect(page.getByRole('link', { name: `${HEAT}-NEW` })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Record a swap' })).toHaveCount(0);
      await shoot('meter');
      await page.getByRole('link', { name: `${HEAT}-NEW` }).click();
      await expect(page.getByTestId('meter-heading')).toHaveText(`Meter ${HEAT}-NEW`);
      await expect(page.getByTestId('meter-readings')).toContainText('0.25');
    });

    for (const lang of ['en', 'da', 'nb']) {
      test(`passes axe on each new page in ${lang}`, async ({ baseURL }) => {
        test.setTimeout(300_000);
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const path of ['/admin/properties', urls.property, urls.meter]) {
          await page.goto(path);
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await expect(page.locator('.admin-main .card').first()).toBeVisible();
          expect(await seriousA11yViolations(page), `${lang} ${path}`).toEqual([]);
        }
        if (lang !== 'en') await page.screenshot({ path: `test-results/admin-props-meter-${lang}-1400.png` });
      });
    }
  });
