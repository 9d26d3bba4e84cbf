/**
 * The console's settings pages (issue 21), by the demo organisation admin: change a price (see the preview, save,
 * find it in the audit log), correct it with the keyboard only, add a CO₂ factor period, a backdated change that needs a confirmation,
 * the report texts (a field error, a save, the bodies the report names), a statement upload with field errors.
 * Changes stay in 2099 or are undone, so the demo's figures are the same for the other tests. Screenshots at 1400
 * and 390 px; axe on each page in en, da and nb.
 */
import { expect, type Page, test } from '@playwright/test';
import { logInAsOrgAdmin } from './admin-helpers.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

const PAGES = ['/admin/prices', '/admin/report-texts', '/admin/statements'];

test.describe
  .serial('operator settings', () => {
    let page: Page;
    /** The organisation admin who logged in: the audit log's actor. */
    let admin = '';

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      admin = await logInAsOrgAdmin(page);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    const shoot = async (name: string) => {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.screenshot({ path: `test-results/admin-settings-${name}-1400.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `test-results/admin-settings-${name}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1400, height: 900 });
    };
    const chooseProperty = async () => {
      const select = page.getByLabel('Property');
      await expect(select.locator('option')).not.toHaveCount(1);
      await select.selectOption({ index: 1 });
    };

    test('changes a price: the preview, the save, the audit log', async () => {
      await page.goto('/admin/prices');
      await chooseProperty();
      await expect(page.getByTestId('prices-table')).toBeVisible();
      await page.getByRole('button', { name: 'New price period' }).click();
      const form = page.getByTestId('change-form');
      await form.getByLabel('Quantity').selectOption('heat-energy');
      await form.getByLabel('Price per unit').fill('1.50');
      await form.getByLabel('Valid from').fill('2099-01-01');
      await form.getByRole('button', { name: 'Show what changes' }).click();
      const impact = page.getByTestId('impact');
      await expect(impact).toContainText('No month shown so far changes.');
      await expect(impact).toContainText('Later months use the new figure too.');
      await expect(impact).toContainText(/tenanc(y|ies) (is|are) affected/);
      await shoot('prices-preview');
      // An edit takes the form back to the preview step.
      await form.getByLabel('Price per unit').fill('1.55');
      await expect(impact).toHaveCount(0);
      await form.getByRole('button', { name: 'Show what changes' }).click();
      await expect(impact).toBeVisible();
      await form.getByRole('button', { name: 'Save the change' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      const row = page.getByTestId('prices-table').getByRole('row').filter({ hasText: 'from 2099-01-01' });
      await expect(row).toContainText('1.55 DKK');
      await shoot('prices');

      await page.goto('/admin/audit');
      const entry = page.getByTestId('audit-entry').filter({ hasText: 'New price period' }).first();
      await expect(entry).toBeVisible();
      await expect(entry).toContainText(admin);
      await expect(entry).toContainText('1.55');
    });

    test('corrects the new period with the keyboard only', async () => {
      await page.goto('/admin/prices');
      await chooseProperty();
      const correct = page.getByRole('button', { name: /^Correct Heat energy from 2099-01-01/ });
      await correct.focus();
      await page.keyboard.press('Enter');
      const form = page.getByTestId('change-form');
      // The form takes the focus to its title; Tab reaches the amount.
      await expect(form.getByRole('heading')).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(form.getByLabel('Price per unit')).toBeFocused();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('1.60');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('impact')).toBeVisible();
      const save = form.getByRole('button', { name: 'Save the change' });
      await expect(save).toBeDisabled();
      await page.keyboard.press('Tab');
      await expect(form.getByLabel('I confirm that past figures change')).toBeFocused();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await expect(form.getByLabel('Reason')).toBeFocused();
      await page.keyboard.type('Typo in the 2099 price');
      await page.keyboard.press('Tab');
      await expect(save).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await expect(
        page.getByTestId('prices-table').getByRole('row').filter({ hasText: 'from 2099-01-01' }),
      ).toContainText('1.60 DKK');
    });

    test('adds a CO₂ factor period from a date through the same form; the factor from before ends there', async () => {
      await page.goto('/admin/prices');
      await chooseProperty();
      const table = page.getByTestId('co2-table');
      await expect(table.getByRole('row').filter({ hasText: 'from the beginning' }).first()).toBeVisible();
      await page.getByRole('button', { name: 'New CO₂ factor period' }).click();
      const form = page.getByTestId('change-form');
      await expect(form.getByLabel('Currency')).toHaveCount(0);
      await form.getByLabel('Quantity').selectOption('heat-energy');
      await form.getByLabel('Grams of CO₂ per unit').fill('55');
      await form.getByLabel('Valid from').fill('2099-01-01');
      await form.getByRole('button', { name: 'Show what changes' }).click();
      await expect(page.getByTestId('impact')).toContainText('No month shown so far changes.');
      await shoot('co2-preview');
      await form.getByRole('button', { name: 'Save the change' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await expect(table.getByRole('row').filter({ hasText: 'from 2099-01-01' })).toContainText('55');
      await expect(
        table.getByRole('row').filter({ hasText: 'from the beginning to 2099-01-01 (exclusive)' }),
      ).toHaveCount(1);
      await page.goto('/admin/audit');
      const entry = page.getByTestId('audit-entry').filter({ hasText: 'New CO₂ factor period' }).first();
      await expect(entry).toBeVisible();
      await expect(entry).toContainText('55');
    });

    test('a backdated change shows the months and tenancies and waits for a confirmation; an earlier start is refused', async () => {
      await page.goto('/admin/prices');
      await chooseProperty();
      await page.getByRole('button', { name: 'New fixed charge period' }).click();
      const form = page.getByTestId('change-form');
      // A charge of its own, from the first of last month: always before today, and after no existing period.
      await form.getByLabel('Kind of charge').fill('e2e-service');
      await form.getByLabel('Amount per year').fill('300');
      // The server counts months in Europe/Copenhagen.
      const current = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' })
        .format(new Date())
        .slice(0, 7);
      const [y, m] = current.split('-').map(Number) as [number, number];
      const last = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
      await form.getByLabel('Valid from').fill(`${last}-01`);
      await form.getByRole('button', { name: 'Show what changes' }).click();
      const impact = page.getByTestId('impact');
      await expect(impact).toContainText(`The figures of 2 months change: ${last} – ${current}.`);
      await expect(impact.getByRole('listitem').first()).toBeVisible();
      await expect(form.getByRole('paragraph').filter({ hasText: 'already seen' })).toBeVisible();
      await expect(form.getByRole('button', { name: 'Save the change' })).toBeDisabled();
      await shoot('prices-backdated');
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(form).toHaveCount(0);

      await page.getByRole('button', { name: 'New price period' }).click();
      await form.getByLabel('Quantity').selectOption('heat-energy');
      await form.getByLabel('Price per unit').fill('1.00');
      await form.getByLabel('Valid from').fill('2098-01-01');
      await form.getByRole('button', { name: 'Show what changes' }).click();
      await expect(form.getByRole('alert')).toContainText('A period already starts on or after that date.');
    });

    test('report texts: a field error saves nothing; a change shows in what the report names, and is undone', async () => {
      await page.goto('/admin/report-texts');
      await chooseProperty();
      const url = page.getByLabel('Consumer organisation, web address');
      await page.getByLabel('Consumer organisation, name').fill('Lejernes Landsorganisation');
      await url.fill('http://lln.example');
      await page.getByRole('button', { name: 'Save the texts' }).click();
      await expect(page.getByRole('alert')).toContainText('Please correct these fields:');
      await expect(url).toHaveAttribute('aria-invalid', 'true');
      await url.fill('https://www.lejerneslo.dk');
      await page.getByRole('button', { name: 'Save the texts' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await expect(page.getByTestId('effective-bodies')).toContainText('Lejernes Landsorganisation');
      await shoot('report-texts');
      await page.getByLabel('Consumer organisation, name').fill('');
      await url.fill('');
      await page.getByRole('button', { name: 'Save the texts' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await expect(page.getByTestId('effective-bodies')).not.toContainText('Lejernes Landsorganisation');
    });

    test('statements: a bad file is refused with its fields, all or nothing; the tenancies are listed', async () => {
      await page.goto('/admin/statements');
      await chooseProperty();
      const coverage = page.getByTestId('coverage-table');
      await expect(coverage.getByRole('row').nth(1)).toBeVisible();
      const reference = (await coverage.getByRole('rowheader').first().textContent())!.trim();
      const bad = {
        tenancy: reference,
        periodStart: '2030-06-01',
        periodEnd: '2030-05-31',
        currency: 'DKK',
        fixedSharePercent: 40,
        variableSharePercent: 60,
        area: { tenantM2: 50, propertyM2: 200 },
        consumption: { unit: 'hca-unit', tenant: 300, property: 1000 },
        expenses: [
          { type: 'heating', propertyTotal: '100.00', tenantFixed: '10.00', tenantVariable: '18.00' },
        ],
        advancePayments: '0',
        degreeDays: { period: 2754, normalYear: 2906 },
        objectionDeadline: '2030-10-15',
      };
      await page.getByLabel('Statement files (JSON)').setInputFiles([
        { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) },
        { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ "tenancy": ') },
      ]);
      await expect(page.getByText('2 files chosen')).toBeVisible();
      await page.getByRole('button', { name: 'Check the files' }).click();
      const problems = page.getByTestId('problems-table');
      await expect(problems).toContainText('periodEnd');
      await expect(problems.getByRole('row').filter({ hasText: 'broken.json' })).toContainText(
        'not valid JSON',
      );
      await expect(page.getByRole('alert')).toContainText('Nothing was imported.');
      await shoot('statements');
    });

    for (const lang of ['en', 'da', 'nb']) {
      test(`passes axe on each page in ${lang}`, async ({ baseURL }) => {
        test.setTimeout(300_000);
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const path of PAGES) {
          await page.goto(path);
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await page.locator('#ops-property').selectOption({ index: 1 });
          await expect(page.locator('.admin-main table, .admin-main fieldset').first()).toBeVisible();
          expect(await seriousA11yViolations(page), `${lang} ${path}`).toEqual([]);
        }
        if (lang !== 'en')
          await page.screenshot({ path: `test-results/admin-settings-statements-${lang}-1400.png` });
      });
    }
  });
