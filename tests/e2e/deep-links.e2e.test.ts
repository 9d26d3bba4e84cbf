/**
 * Issue 25, major items 1 to 3 in Chromium:
 *  - a notification's "See the graph for …" opens that period, not the stored or default one;
 *  - a meter id that is not the tenancy's shows "not found" and keeps the session;
 *  - an alarm's chart colours a period red only when it breaks the rule, with an axis, a unit and the limit line.
 */
import { expect, type Page, test } from '@playwright/test';
import { logInToDashboard } from './helpers.ts';

// ApexCharts writes a bar's fill as rgba() of its colour: #b91c1c (breach) and #2563eb (within the rule).
const BREACH = 'rgba(185,28,28,';
const OK = 'rgba(37,99,235,';

/** A tenant-backend request with the page's own token. */
async function tenantGql<T>(page: Page, query: string, variables: Record<string, unknown>): Promise<T> {
  return page.evaluate(
    async ({ query, variables }) => {
      const response = await fetch('/api/tenant/graphql', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('tenantToken')}`,
        },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data: T; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    },
    { query, variables },
  );
}

/** The fill colours of the chart's bars, in order. */
const barFills = (page: Page) =>
  page
    .getByTestId('alarm-chart')
    .locator('path.apexcharts-bar-area')
    .evaluateAll((bars) => bars.map((b) => (b.getAttribute('fill') ?? '').replace(/\s/g, '')));

test.describe
  .serial('deep links, foreign ids and the alarm chart', () => {
    let page: Page;
    let tenancy: string;

    test.beforeAll(async ({ browser }) => {
      page = await browser.newPage();
      tenancy = await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test("a notification's graph link opens the notification's period", async () => {
      await page.goto(`/t/${tenancy}/notifications`);
      await page.locator('.notification-item').first().getByRole('link').click();
      await expect(page).toHaveURL(/\/notifications\/\d+$/);
      const link = page.getByRole('link', { name: /^See the graph for / });
      const href = new URL((await link.getAttribute('href')) ?? '', page.url());
      const startDate = href.searchParams.get('startDate');
      const endDate = href.searchParams.get('endDate');
      expect(startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      await link.click();
      await expect(page).toHaveURL(/\/consumption\//);
      const label = page.getByTestId('period-label');
      await expect(label).not.toHaveText('Last 30 days');
      const day = Number(startDate!.slice(8, 10));
      await expect(label).toContainText(String(day));
      // The period is the page's own now, and the parameters are gone so a reload keeps what the user picks next.
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('selectedPeriod') ?? 'null'));
      expect(stored).toEqual({ startDate, endDate });
      await expect.poll(() => new URL(page.url()).search).toBe('');
    });

    test('a meter id that is not the tenancy\'s shows "not found" and keeps the session', async () => {
      const path = `/t/${tenancy}/consumption/heat-energy/meter/999999`;
      await page.goto(path);
      await expect(page.getByTestId('scope-not-found')).toContainText('not one of your tenancy');
      await expect(page).toHaveURL(path);
      await expect(page.locator('#app-menu a[href$="/alarms"]')).toBeVisible();
      // Still logged in: the tokens are there and the next page loads its data.
      expect(await page.evaluate(() => localStorage.getItem('tenantRefreshToken'))).toBeTruthy();
      await page.getByRole('link', { name: 'Back to the consumption page' }).click();
      await expect(page.getByTestId('kpi-total')).toContainText(/\d/);
    });

    test("an alarm's chart marks only breaking periods, with an axis, a unit and its limit line", async () => {
      const create = `mutation($tenancyId: ID!, $alarm: AlarmInput!) { createAlarm(tenancyId: $tenancyId, alarm: $alarm) { id } }`;
      const values = `query($input: AlarmValuesInput!) { alarmValues(input: $input) { value } }`;
      // Below 18 °C: the demo's rooms are warmer, so no period breaks it (the old chart drew them all red).
      const below = await tenantGql<{ createAlarm: { id: string } }>(page, create, {
        tenancyId: tenancy,
        alarm: { type: 'INDOOR_CLIMATE', quantity: 'indoor-temperature', frequency: 'DAY', minimum: 18 },
      });
      const temps = await tenantGql<{ alarmValues: { value: number | null }[] }>(page, values, {
        input: {
          tenancyId: tenancy,
          type: 'INDOOR_CLIMATE',
          quantity: 'indoor-temperature',
          frequency: 'DAY',
          count: 14,
        },
      });
      const cold = temps.alarmValues.filter((v) => v.value !== null && v.value < 18).length;
      const known = temps.alarmValues.filter((v) => v.value !== null).length;
      expect(known).toBeGreaterThan(0);

      await page.goto(`/t/${tenancy}/alarms/${below.createAlarm.id}`);
      const chart = page.getByTestId('alarm-chart');
      await expect(chart.locator('.apexcharts-legend')).toContainText('Minimum', { timeout: 60_000 });
      const fills = await barFills(page);
      expect(fills.filter((f) => f.startsWith(BREACH))).toHaveLength(cold);
      expect(fills.filter((f) => f.startsWith(OK))).toHaveLength(known - cold);
      // An axis with the unit.
      await expect(chart.locator('.apexcharts-yaxis-title')).toContainText('°C');

      // A weekly increase of 0 %: every week above the one before breaks it, and the line steps with them.
      const up = await tenantGql<{ createAlarm: { id: string } }>(page, create, {
        tenancyId: tenancy,
        alarm: { type: 'COMPARISON', quantity: 'electricity-energy', frequency: 'WEEK', threshold: 0 },
      });
      const weeks = await tenantGql<{ alarmValues: { value: number | null }[] }>(page, values, {
        input: {
          tenancyId: tenancy,
          type: 'COMPARISON',
          quantity: 'electricity-energy',
          frequency: 'WEEK',
          count: 12,
        },
      });
      const rising = weeks.alarmValues.filter((v, i) => {
        const before = weeks.alarmValues[i - 1]?.value;
        return i > 0 && v.value !== null && before !== null && before !== undefined && v.value > before;
      }).length;
      await page.goto(`/t/${tenancy}/alarms/${up.createAlarm.id}`);
      await expect(chart.locator('.apexcharts-legend')).toContainText('Limit: 0 % over the period before', {
        timeout: 60_000,
      });
      expect((await barFills(page)).filter((f) => f.startsWith(BREACH))).toHaveLength(rising);
      await expect(chart.locator('.apexcharts-line-series path.apexcharts-line')).not.toHaveCount(0);

      for (const id of [below.createAlarm.id, up.createAlarm.id])
        await tenantGql(page, 'mutation($t: ID!, $id: ID!) { deleteAlarm(tenancyId: $t, id: $id) { ok } }', {
          t: tenancy,
          id,
        });
    });
  });
