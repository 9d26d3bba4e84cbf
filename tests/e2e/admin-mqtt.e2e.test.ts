/**
 * The MQTT door as an operator sees it, end to end: the app under test subscribes to a real mosquitto
 * (tests/e2e/serve.ts starts it on E2E_MQTT_URL); the demo organisation admin sees the feed connected on the
 * data-quality page, a telegram published from a radio id no meter has shows up in "Unknown radio ids", and the
 * feed's last telegram moves; the page in Danish at 390 px, with axe. Skipped when
 * mosquitto is not installed or the suite runs against an app started elsewhere (E2E_BASE_URL).
 */
import { expect, type Page, test } from '@playwright/test';
import mqtt from 'mqtt';
import { hasMosquitto } from '../api/helpers/mosquitto.ts';
import { logInAsOrgAdmin } from './admin-helpers.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

const brokerUrl = process.env.E2E_BASE_URL ? '' : (process.env.E2E_MQTT_URL ?? '');

/** Publishes a wmbusmeters telegram (QoS 1, as wmbusmeters sends) and resolves once the broker has it. */
async function publish(radioId: string, totalM3: number): Promise<void> {
  const client = await mqtt.connectAsync(brokerUrl, {
    clientId: `e2e-${Math.random().toString(36).slice(2)}`,
  });
  const timestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await client.publishAsync(
    'wmbusmeters/e2e',
    JSON.stringify({
      _: 'telegram',
      media: 'warm water',
      meter: 'multical21',
      id: radioId,
      total_m3: totalM3,
      timestamp,
    }),
    { qos: 1 },
  );
  await client.endAsync();
}

test.describe
  .serial('the MQTT feed on the console', () => {
    test.skip(!brokerUrl || !hasMosquitto, 'needs mosquitto and the app this suite starts');
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      await logInAsOrgAdmin(page);
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    test('shows the feed connected, and a telegram from an unknown radio id in the list', async () => {
      await page.goto('/admin/data-quality');
      const feed = page.getByTestId('mqtt-feed');
      await expect(feed.getByRole('heading', { name: 'Radio feed (MQTT)' })).toBeVisible();
      await expect(feed).toContainText(`Connected to ${brokerUrl} since`);
      await expect(feed).toContainText('Topic wmbusmeters/#');

      await publish('77001122', 12.345);
      // The subscriber stores and drains it within a moment; the page shows what it had, so ask again.
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId('radio-77001122')).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(page.getByTestId('radio-77001122')).toContainText('multical21');
      await expect(page.getByTestId('mqtt-feed')).toContainText('Last telegram stored');
      await expect(page.getByTestId('mqtt-feed')).toContainText('No telegram is waiting to be taken in.');
      await page.screenshot({ path: 'test-results/admin-mqtt-en-1400.png', fullPage: true });
    });

    test('in Danish at 390 px: the feed and the unknown id, with no serious axe finding', async ({
      baseURL,
    }) => {
      await page.context().addCookies([{ name: 'lang', value: 'da', url: baseURL! }]);
      await page.evaluate(() => localStorage.setItem('language', 'da'));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/admin/data-quality');
      const feed = page.getByTestId('mqtt-feed');
      await expect(feed.getByRole('heading', { name: 'Radiofeed (MQTT)' })).toBeVisible();
      await expect(feed).toContainText(`Forbundet til ${brokerUrl} siden`);
      await expect(page.getByTestId('radio-77001122')).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await feed.screenshot({ path: 'test-results/admin-mqtt-da-390.png' });
    });
  });
