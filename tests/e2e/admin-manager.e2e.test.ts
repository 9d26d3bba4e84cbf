/**
 * The console as a property manager (issue 21): the demo manager (manager@demo.test, Solgården only) logs in with
 * the password and TOTP and sees only Solgården everywhere (portfolio, properties, audit log, support), while the
 * organisation admin onboards a second property beside it; that property's id gives the manager nothing. The
 * organisation admin then adds a flat, a measurement point and a meter to the new property in the forms, by
 * keyboard only, and sorts the portfolio table by keyboard. Screenshots at 1400 and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, logInToConsole, MANAGER, ORG_ADMIN, operatorToken } from './admin-helpers.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

const SUFFIX = String(Date.now() % 1_000_000);
const FOREIGN = `MGR-${SUFFIX}`;
const csv = `property,ignored,${FOREIGN},Nabohuset ${SUFFIX},Nabovej 4,8000,Aarhus C
apartment,UM-${SUFFIX}-1,1. tv,"Nabovej 4, 1. tv",8000,Aarhus C,61,2
tenancy,UM-${SUFFIX}-1,TM-${SUFFIX}-1,Ida Holm,2025-04-01
`;
const IMPORT = `mutation ($c: String!) { importPropertyFile(format: CSV, content: $c) { propertyId } }`;
const FLAT = `mutation ($i: NewApartmentInput!) { createApartment(input: $i) { id } }`;

test.describe
  .serial('a property manager', () => {
    let page: Page;
    const foreign = { id: '' };
    const own = { id: '', number: '1001' };

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToConsole(page, MANAGER);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    const fits = async (name: string) => {
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `test-results/admin-manager-${name}-${width}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 1400, height: 900 });
    };

    test('the organisation admin onboards a second property with a flat of its own', async ({ request }) => {
      const token = await operatorToken(request, ORG_ADMIN);
      const made = await adminApi<{ importPropertyFile: { propertyId: string } }>(
        request,
        IMPORT,
        { c: csv },
        token,
      );
      foreign.id = made.importPropertyFile.propertyId;
      await adminApi(
        request,
        FLAT,
        {
          i: {
            propertyId: foreign.id,
            uniqueId: `UM-${SUFFIX}-2`,
            apartment: '1. th',
            address: `Nabovej 4, 1. th ${SUFFIX}`,
            zipcode: '8000',
            city: 'Aarhus C',
            areaM2: '58',
            rooms: 2,
          },
        },
        token,
      );
    });

    test('portfolio and properties list Solgården only', async () => {
      await page.goto('/admin');
      const table = page.getByTestId('portfolio-table');
      await expect(table).toContainText(`${own.number} · Solgården`);
      await expect(table).not.toContainText(FOREIGN);
      await expect(table.locator('tbody tr')).toHaveCount(1);
      await fits('portfolio');

      await page.goto('/admin/properties');
      const link = page.getByRole('link', { name: `Open property ${own.number}` });
      await expect(link).toBeVisible();
      await expect(page.getByRole('link', { name: `Open property ${FOREIGN}` })).toHaveCount(0);
      await expect(page.locator('main table tbody tr')).toHaveCount(1);
      own.id = new URL((await link.getAttribute('href'))!, 'http://x').searchParams.get('id')!;
    });

    test('the other property’s id gives nothing, its own opens', async () => {
      await page.goto(`/admin/property?id=${foreign.id}`);
      await expect(page.getByRole('alert')).toHaveText('You do not have access to this.');
      await expect(page.getByTestId('property-heading')).toHaveCount(0);
      await expect(page.locator('main')).not.toContainText('Nabovej');
      await page.goto(`/admin/property?id=${own.id}`);
      await expect(page.getByTestId('property-heading')).toContainText(`Property ${own.number}`);
    });

    test('the audit log and support show Solgården’s entries and tenants only', async () => {
      await page.goto('/admin/audit');
      await expect(page.getByTestId('audit-table').or(page.getByTestId('audit-empty'))).toBeVisible();
      await expect(page.locator('main')).not.toContainText(`UM-${SUFFIX}-2`);
      const property = page.getByLabel('Property', { exact: true });
      await expect(property.locator('option', { hasText: FOREIGN })).toHaveCount(0);
      // Every listed entry is of Solgården or of no property (the manager's own logins).
      for (const cell of await page.getByTestId('audit-entry').locator('td:nth-child(4)').allTextContents()) {
        expect(['1001', '—']).toContain(cell.trim());
      }

      await page.goto('/admin/support');
      const query = page.getByLabel('Email, name, flat, address or tenancy');
      await query.fill('tenant@demo');
      await query.press('Enter');
      await expect(page.getByTestId('tenant-tenant@demo.test')).toBeVisible();
      await query.fill(`Nabovej 4`);
      await query.press('Enter');
      await expect(page.getByRole('heading', { level: 2, name: '0 tenants found' })).toBeVisible();
      await fits('support');
    });
  });

test.describe
  .serial('the create forms', () => {
    let page: Page;
    let propertyId = '';

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToConsole(page, ORG_ADMIN);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('sorts the portfolio table by keyboard, both ways, keeping the focus', async () => {
      await page.goto('/admin');
      const header = page.getByRole('columnheader', { name: /Open data issues/ });
      await header.getByRole('button').focus();
      await page.keyboard.press('Enter');
      await expect(header).toHaveAttribute('aria-sort', /^(ascending|descending)$/);
      const first = await header.getAttribute('aria-sort');
      await expect(header.getByRole('button')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(header).toHaveAttribute('aria-sort', first === 'ascending' ? 'descending' : 'ascending');
      await expect(header.getByRole('button')).toBeFocused();
    });

    test('add a flat, a point and a meter with the keyboard only', async ({ request }) => {
      const token = await operatorToken(request, ORG_ADMIN);
      const made = await adminApi<{ importPropertyFile: { propertyId: string } }>(
        request,
        IMPORT,
        { c: csv.replaceAll(SUFFIX, `${SUFFIX}F`) },
        token,
      );
      propertyId = made.importPropertyFile.propertyId;
      await page.goto(`/admin/property?id=${propertyId}`);
      await expect(page.getByTestId('property-heading')).toBeVisible();

      await page.getByRole('button', { name: 'Add a flat' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByLabel('Unit id')).toBeFocused();
      expect(await seriousA11yViolations(page), 'the new-flat form').toEqual([]);
      // A taken unit id: refused with its reason, nothing written.
      for (const value of [`UM-${SUFFIX}F-1`, '2. tv', 'Nabovej 4, 2. tv', '8000', 'Aarhus C', '72,5', '3']) {
        await page.keyboard.type(value);
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert')).toHaveText('Another flat already has that unit id.');
      await page.getByLabel('Unit id').fill(`UM-${SUFFIX}F-9`);
      await page.getByLabel('Unit id').press('Enter');
      const flat = page.getByTestId(`flat-UM-${SUFFIX}F-9`);
      await expect(flat).toContainText('72.5 m²');
      await expect(page.getByRole('button', { name: 'Add a flat' })).toBeFocused();

      await flat.getByRole('button', { name: 'Add a measurement point to Nabovej 4, 2. tv' }).focus();
      await page.keyboard.press('Enter');
      await expect(flat.getByLabel('Quantity')).toBeFocused();
      await page.keyboard.press('Tab');
      await page.keyboard.type('Heat');
      await page.keyboard.press('Enter');
      await expect(flat.getByRole('row', { name: /Heat/ })).toBeVisible();

      await flat.getByRole('button', { name: 'Add a meter to Heat' }).focus();
      await page.keyboard.press('Enter');
      await expect(flat.getByLabel('Meter number')).toBeFocused();
      await page.keyboard.type(`HM-${SUFFIX}`);
      await page.keyboard.press('Tab');
      await expect(flat.getByLabel('Installed at')).toBeFocused();
      await flat.getByLabel('Installed at').fill('2025-01-01T00:00');
      await page.keyboard.press('Enter');
      await expect(flat.getByRole('link', { name: `HM-${SUFFIX}` })).toBeVisible();

      // A point of the property (outdoor temperature by default): its quantity has no meter kind of its own, so
      // the meter form asks for one.
      await page.getByRole('button', { name: 'Add a point of the property' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Outdoor');
      await page.getByLabel('Name', { exact: true }).press('Enter');
      await page.getByRole('button', { name: 'Add a meter to Outdoor' }).click();
      await page.getByLabel('Meter number').fill(`OT-${SUFFIX}`);
      await page.getByLabel('Installed at').fill('2025-01-01T00:00');
      await page.getByLabel('Meter kind').selectOption('temperature');
      await page.getByLabel('Meter number').press('Enter');
      await expect(page.getByRole('link', { name: `OT-${SUFFIX}` })).toBeVisible();
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `test-results/admin-create-${width}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 1400, height: 900 });

      await page.goto('/admin/audit');
      await expect(
        page
          .getByTestId('audit-entry')
          .filter({ hasText: `HM-${SUFFIX}` })
          .first(),
      ).toBeVisible();
    });
  });
