import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { logInToDashboard, newPage } from './helpers.ts';

const QUANTITIES = ['heat-energy', 'hca', 'hot-water-volume', 'cold-water-volume', 'electricity-energy'];

/** Every axe violation (any impact) as readable lines. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Waits until the page's islands have drawn their data: a chart or a "no data" box, and no spinner. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('.consumption-page:not(.skeleton)').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.spinner-inline, .chart-skeleton, .placeholder')).toHaveCount(0, {
    timeout: 30_000,
  });
}

/** No element makes the page wider than the window. */
async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test.describe
  .serial('consumption pages', () => {
    let page: Page;
    let home: string;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInToDashboard(page, 'tenant@demo.test');
      home = page.url();
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('shows one card per quantity of the tenancy, with a total, a small graph and a link, plus rating and CO₂', async () => {
      await settle(page);
      for (const q of QUANTITIES) {
        const card = page.getByTestId(`card-${q}`);
        await expect(card.locator('.kpi-value')).toHaveText(/\d/);
        await expect(card.locator('.compact-graph-svg')).toHaveCount(1);
        await expect(card.locator(`a[href$="/consumption/${q}"]`).first()).toBeAttached();
      }
      await expect(page.getByTestId('co2-total')).toHaveText(/[\d,.]+ k?g CO₂/);
      await expect(page.locator('.fun-facts li')).toHaveCount(1);
      // The menu links every consumption page of the tenancy.
      await expect(page.locator('.nav-sublink')).toHaveCount(QUANTITIES.length + 1);
      expect(await axeViolations(page)).toEqual([]);
    });

    test('steps the period back and forward by keyboard, and keeps it across pages (SPEC storage keys)', async () => {
      await page.goto(`${home}consumption/heat-energy`);
      await settle(page);
      const label = page.getByTestId('period-label');
      await expect(label).toHaveText('Last 30 days');
      await expect(page.getByTestId('period-next')).toBeDisabled();

      await page.getByLabel('Period', { exact: true }).selectOption('last_month');
      await expect(label).toHaveText(/^[A-Z][a-z]+ \d{4}$/);
      const month = (await label.textContent())!;
      await page.getByTestId('period-previous').focus();
      await page.keyboard.press('Enter');
      await expect(label).not.toHaveText(month);
      const earlier = await label.textContent();
      await page.getByTestId('period-next').focus();
      await page.keyboard.press('Enter');
      await expect(label).toHaveText(month);
      await settle(page);

      const stored = await page.evaluate(() => ({
        period: JSON.parse(localStorage.getItem('selectedPeriod') ?? 'null'),
        span: localStorage.getItem('selectedSpanType'),
      }));
      expect(stored.period.startDate).toMatch(/^\d{4}-\d{2}-01$/);
      expect(stored.span).toBe('day');
      // A daily graph of a calendar month has one bar per day.
      const days = Number(stored.period.endDate.slice(8, 10));
      await expect(page.locator('[data-testid="quantity-graph"] .apexcharts-svg')).toBeVisible();
      await expect(page.locator('[data-testid="quantity-graph"] .apexcharts-bar-area')).toHaveCount(days);
      expect(earlier).not.toBe(month);

      // Another page starts on the stored period.
      await page.goto(`${home}consumption/cold-water-volume`);
      await settle(page);
      await expect(page.getByTestId('period-label')).toHaveText(month);
    });

    test('switches the comparison between the property and the previous period', async () => {
      await page.goto(`${home}consumption/heat-energy`);
      await settle(page);
      // A week whose previous week has data in the short e2e demo history.
      await page.getByLabel('Period', { exact: true }).selectOption('last_7_days');
      await settle(page);
      const compare = page.getByLabel('Compare with');
      await compare.selectOption('property');
      await settle(page);
      const legend = page.locator('[data-testid="quantity-graph"] .apexcharts-legend');
      await expect(legend).toContainText('Property average for your area');
      await compare.selectOption('last_period');
      await settle(page);
      await expect(legend).toContainText('Previous period');
      expect(await page.evaluate(() => localStorage.getItem('selectedComparison'))).toBe('last_period');
      // The chart takes focus and its points are stepped with the arrow keys; each step shows the point's values.
      const chart = page.locator('[data-testid="quantity-graph"] svg[tabindex="0"]');
      // Its name says what and when: the quantity, then the period as the period bar shows it.
      const period = (await page.getByTestId('period-label').textContent())?.trim();
      await expect(chart).toHaveAttribute('aria-label', `Heat energy, ${period}`);
      await chart.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect(
        page.locator('[data-testid="quantity-graph"] .apexcharts-tooltip.apexcharts-active'),
      ).toHaveText(/Your consumption: [\d,]+ kWh/);
      const table = page.getByTestId('meter-table');
      await expect(table.locator('thead')).toContainText('Previous period');
    });

    test('downloads the graph as CSV: a header in the language, one row per bucket, local timestamps, shown values', async () => {
      await page.goto(`${home}consumption/heat-energy`);
      await settle(page);
      await page.getByLabel('Period', { exact: true }).selectOption('last_7_days');
      await settle(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page
          .locator('[data-testid="quantity-graph"]')
          .getByRole('button', { name: /Download CSV/ })
          .click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^heat-energy_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
      const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = text.trimEnd().split('\r\n');
      expect(lines[0]).toMatch(/^Time,Your consumption \(kWh\),/);
      expect(lines).toHaveLength(8);
      for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d{2}-\d{2} 00:00,(\d+)?,/);
      // The values are those of the table alternative, as shown (whole kWh for heat).
      await page.locator('[data-testid="quantity-graph"] summary').click();
      const firstShown = await page
        .locator('[data-testid="quantity-graph"] .data-table tbody tr')
        .first()
        .locator('td')
        .first()
        .textContent();
      expect(firstShown?.replace(/[^\d]/g, '')).toBe(lines[1]!.split(',')[1]);
    });

    test('opens the price, room, meter and indoor-climate pages, each with data and no axe violations', async () => {
      await page.goto(`${home}consumption/heat-energy`);
      await settle(page);
      const meterLink = page.getByTestId('meter-table').locator('tbody a').first();
      await expect(meterLink).toHaveAttribute('href', /\/consumption\/heat-energy\/meter\/\d+$/);
      const meterHref = await meterLink.getAttribute('href');
      expect(await axeViolations(page)).toEqual([]);

      await page.goto(`${home}consumption/heat-energy/price`);
      await settle(page);
      await expect(page.getByTestId('cost-total')).toHaveText(/DKK\s[\d,.]+/);
      await expect(page.locator('[data-testid="cost-graph"] .apexcharts-svg')).toHaveCount(1);
      await expect(page.getByTestId('projection-month')).toHaveText(/this month ends near/);
      expect(await axeViolations(page)).toEqual([]);

      await page.goto(`${home}consumption/hca`);
      await settle(page);
      const roomLink = page.getByTestId('meter-table').locator('tbody td a').first();
      // The KPI's rooms, each linking to the same room pages.
      await expect(page.getByTestId('room-table').locator('tbody a').first()).toHaveAttribute(
        'href',
        /\/consumption\/hca\/room\/[a-z-]+$/,
      );
      await expect(roomLink).toHaveAttribute('href', /\/consumption\/hca\/room\/[a-z-]+$/);
      await page.goto((await roomLink.getAttribute('href'))!);
      await settle(page);
      // Room pages compare with the previous period by default (SPEC §3).
      await expect(page.getByLabel('Compare with')).toHaveValue('last_period');
      await expect(page.getByTestId('kpi-total')).toHaveText(/\d+ units?/);
      await expect(page.locator('.breadcrumbs li')).toHaveCount(3);
      expect(await axeViolations(page)).toEqual([]);

      await page.goto(meterHref!);
      await settle(page);
      await expect(page.getByTestId('meter-number')).toHaveText(/EN-/);
      await expect(page.locator('section[aria-labelledby="readout-title"] .kpi-grid')).toContainText(
        'First in the period',
      );
      expect(await axeViolations(page)).toEqual([]);

      await page.goto(`${home}consumption/indoor-climate`);
      await settle(page);
      const rooms = page.getByTestId('room-climate').locator('li');
      await expect(rooms.nth(1)).toBeVisible();
      await expect(rooms.first().locator('svg.face')).toHaveCount(2);
      expect(await axeViolations(page)).toEqual([]);
    });

    test('shows the CO₂ view with fun facts, the weather-corrected heat comparison and the hca kWh estimate', async () => {
      await page.goto(`${home}consumption/heat-energy`);
      await settle(page);
      await page.getByLabel('CO₂').check();
      await settle(page);
      await expect(page.getByTestId('kpi-total')).toHaveText(/[\d,.]+ k?g CO₂/);
      await expect(page.locator('.fun-facts li')).toHaveCount(4);
      await page.getByLabel('Consumption', { exact: true }).check();
      await page.getByLabel('Correct for the weather (degree days)').check();
      await settle(page);
      await expect(page.getByTestId('climate-note')).toHaveText(/degree days|weather correction/);

      // Heat-cost allocator units, on request also as estimated kWh with the method named.
      await page.goto(`${home}consumption/hca`);
      await settle(page);
      await page.getByLabel('Also show an estimate in kWh').check();
      await settle(page);
      await expect(page.getByTestId('kpi-kwh-estimate')).toHaveText(/≈ [\d,]+ kWh/);
      await expect(page.getByTestId('kwh-method')).toHaveText(/How the estimate is made: \S/);
    });

    test('sends an unknown quantity to login (SPEC §2)', async () => {
      const response = await page.request.get(`${home}consumption/not-a-quantity`, { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers().location).toBe('/login');
    });
  });

test.describe
  .serial('consumption pages on a phone', () => {
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('fits every consumption route into 390 px without sideways scrolling', async () => {
      const home = page.url();
      for (const path of [
        '',
        'consumption/heat-energy',
        'consumption/heat-energy/price',
        'consumption/hca/room/living-room',
        'consumption/indoor-climate',
      ]) {
        await page.goto(`${home}${path}`);
        await settle(page);
        await page
          .locator('details summary')
          .first()
          .click()
          .catch(() => {});
        expect({ path, overflow: await sidewaysScroll(page) }).toEqual({ path, overflow: 0 });
      }
    });
  });
