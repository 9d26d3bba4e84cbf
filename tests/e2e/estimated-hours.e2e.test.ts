/**
 * Issue 19 §4 in Chromium: an estimated bucket is drawn and explained on a consumption page. The demo's
 * apartment 1 (tenant@demo.test) misses five electricity readings the day before its history ends (a radio
 * outage), so the six hours between the readings around it are estimated.
 */
import { expect, test } from '@playwright/test';
import { logInToDashboard, newPage } from './helpers.ts';

// ApexCharts writes a bar's fill as rgba() of its colour: ESTIMATED_FILL is #78716c.
const ESTIMATED = 'rgba(120,113,108,';

/** A Copenhagen calendar date, `days` before now. */
function copenhagenDate(daysBack: number): string {
  const at = new Date(Date.now() - daysBack * 86_400_000);
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' }).format(at);
}

test('the electricity page draws the outage estimated hours grey, explains them and marks the KPI and table', async ({
  browser,
}) => {
  const page = await newPage(browser);
  try {
    await logInToDashboard(page, 'tenant@demo.test');
    const home = page.url();
    await page.goto(
      `${home}consumption/electricity-energy?startDate=${copenhagenDate(3)}&endDate=${copenhagenDate(0)}`,
    );
    const graph = page.getByTestId('quantity-graph');
    await expect(graph.locator('path.apexcharts-bar-area').first()).toBeVisible({ timeout: 30_000 });
    const fills = await graph
      .locator('path.apexcharts-bar-area')
      .evaluateAll((bars) => bars.map((b) => (b.getAttribute('fill') ?? '').replace(/\s/g, '')));
    expect(fills.filter((f) => f.startsWith(ESTIMATED)).length).toBeGreaterThan(0);
    expect(fills.filter((f) => !f.startsWith(ESTIMATED)).length).toBeGreaterThan(0);
    await expect(page.getByTestId('estimated-legend')).toContainText('estimated hours');
    await expect(page.getByTestId('kpi-estimated')).toHaveText('Includes 6 estimated hours');

    await graph.getByText('Show the numbers as a table').click();
    const table = graph.locator('table.data-table');
    await expect(table.locator('thead th', { hasText: 'Estimated' })).toHaveCount(1);
    await expect(table.locator('tbody td', { hasText: /^yes$/ }).first()).toBeVisible();
  } finally {
    await page.context().close();
  }
});
