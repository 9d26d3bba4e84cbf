/**
 * Alarms and notifications in Chromium: the wizard walked along paths generated from the alarmWizard machine
 * (xstate/graph), one per alarm type, with browser back and forward after every step; the demo's triggered
 * leak alarm; a notification appearing after a worker run; marking it read; axe on every page.
 */

import { expect, test } from '@playwright/test';
import type { Page } from 'playwright-core';
import { createTestModel } from 'xstate/graph';
import { ALARM_STEPS, type AlarmType, alarmWizardMachine } from '../../src/machines/alarmWizard.machine.ts';
import { modelOf } from '../model/harness.ts';
import { baseUrlOf, launchBrowser, logIn, seriousA11yViolations } from './browser.ts';

const baseUrl = baseUrlOf();
const PASSWORD = 'Demo#Tenant2026';
const DASHBOARD = /\/t\/([^/]+)\/$/;

/** The choice made for each type, and the English labels the browser clicks. */
const CHOICES: Record<AlarmType, { quantity: string; frequency: string; fields: Record<string, string> }> = {
  // Yesterday's heat in a Danish November is above 0.5 kWh: this one fires on the next worker run.
  threshold: { quantity: 'heat-energy', frequency: 'day', fields: { 'wizard.threshold': '0,5' } },
  comparison: { quantity: 'electricity-energy', frequency: 'week', fields: { 'wizard.threshold': '30' } },
  zero_consumption: { quantity: 'cold-water-volume', frequency: 'day', fields: {} },
  indoor_climate: { quantity: 'indoor-temperature', frequency: 'day', fields: { 'wizard.minimum': '17' } },
};
const LABELS: Record<string, string> = {
  threshold: 'Threshold',
  comparison: 'Increase compared with the previous period',
  zero_consumption: 'Zero consumption',
  indoor_climate: 'Indoor climate',
  'heat-energy': 'Heat energy',
  'electricity-energy': 'Electricity',
  'cold-water-volume': 'Cold water',
  'indoor-temperature': 'Indoor temperature',
  day: 'Daily',
  week: 'Weekly',
};
const STEP_TITLES = ['Alarm type', 'Consumption type', 'Frequency', 'Threshold', 'Review'];

const types = Object.keys(CHOICES) as AlarmType[];
const events = [
  ...types.map((alarmType) => ({ type: 'wizard.type', alarmType })),
  ...types.map((t) => ({ type: 'wizard.quantity', quantity: CHOICES[t].quantity })),
  ...types.map((t) => ({ type: 'wizard.frequency', frequency: CHOICES[t].frequency })),
  ...types.flatMap((t) =>
    Object.entries(CHOICES[t].fields).map(([type, value]) => ({ type, value, for: t })),
  ),
  { type: 'wizard.next' },
  { type: 'wizard.submit' },
  { type: 'xstate.done.actor.saveAlarm', output: {} },
];

// Paths from the machine: each type is chosen once, with that type's quantity, frequency and limit; the walk
// ends when the save is done. One path per alarm type.
const model = createTestModel(modelOf(alarmWizardMachine), {
  events: events as never,
  filterEvents: (s, e) => {
    const { draft } = s.context;
    const ev = e as unknown as { type: string; quantity?: string; frequency?: string; for?: AlarmType };
    if (e.type === 'wizard.type') return draft.type === null && 'alarmType' in e;
    if (!draft.type) return e.type === 'wizard.next';
    const choice = CHOICES[draft.type];
    if (e.type === 'wizard.quantity') return draft.quantity === null && ev.quantity === choice.quantity;
    if (e.type === 'wizard.frequency') return draft.frequency === null && ev.frequency === choice.frequency;
    // xstate/graph also offers every event type bare, without a payload: only the listed ones count.
    if (['wizard.threshold', 'wizard.minimum', 'wizard.maximum'].includes(e.type))
      return ev.for === draft.type && s.context.thresholdText === '' && s.context.minimumText === '';
    return true;
  },
});
const paths = model
  .getShortestPaths({ limit: 5000, toState: (s) => s.status === 'done' })
  .filter((p) => p.state.status === 'done');

test.describe
  .serial('alarms and notifications', () => {
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;
    let tenancy: string;
    const created: { type: AlarmType; url: string }[] = [];

    test.beforeAll(async () => {
      browser = await launchBrowser();
      page = await browser.context.newPage();
      await logIn(page, baseUrl, 'tenant@demo.test', PASSWORD);
      await page.waitForURL(DASHBOARD, { timeout: 30_000 });
      tenancy = DASHBOARD.exec(new URL(page.url()).pathname)?.[1] ?? '';
    });
    test.afterAll(async () => {
      await browser?.close();
    });

    const alarmsUrl = () => `${baseUrl}/t/${tenancy}/alarms`;
    const stepInUrl = () => Number(new URL(page.url()).searchParams.get('step'));
    const expectStep = async (n: number) => {
      await expect.poll(stepInUrl).toBe(n);
      await expect.poll(() => page.locator('#wizard-step-title').textContent()).toBe(STEP_TITLES[n - 1]);
    };

    test('shows the demo leak as a triggered alarm, with axe clean', async () => {
      await page.goto(alarmsUrl());
      // Newest first: the demo's leak watch is the last cold-water alarm.
      const leak = page.locator('.alarm-item', { hasText: 'Cold water' }).last();
      await expect
        .poll(() => leak.getByTestId('alarm-status').textContent(), { timeout: 30_000 })
        .toMatch(/^Triggered for /);
      await expect
        .poll(() =>
          page.locator('.alarm-item', { hasText: 'Hot water' }).getByTestId('alarm-status').textContent(),
        )
        .toBe('Off');
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('has one generated wizard path per alarm type', () => {
      expect(paths).toHaveLength(4);
    });

    for (const path of paths) {
      const type = (
        path.steps.find((s) => s.event.type === 'wizard.type')!.event as unknown as { alarmType: AlarmType }
      ).alarmType;
      test(`creates the ${type} alarm along ${path.steps.length} machine steps, with back and forward`, async () => {
        await page.goto(`${alarmsUrl()}/new-alarm?step=1`);
        await expectStep(1);
        let step = 1;
        for (const { event } of path.steps) {
          const e = event as unknown as {
            type: string;
            alarmType?: string;
            quantity?: string;
            frequency?: string;
            value?: string;
          };
          switch (e.type) {
            case 'wizard.type':
              await page.getByRole('radio', { name: new RegExp(`^${LABELS[e.alarmType!]}`) }).check();
              break;
            case 'wizard.quantity':
              await page.getByRole('radio', { name: LABELS[e.quantity!], exact: true }).check();
              break;
            case 'wizard.frequency':
              await page.getByRole('radio', { name: LABELS[e.frequency!], exact: true }).check();
              break;
            case 'wizard.threshold':
              await page.getByRole('textbox', { name: /^(Threshold|Increase in per cent)/ }).fill(e.value!);
              break;
            case 'wizard.minimum':
              await page.getByRole('textbox', { name: /^Minimum/ }).fill(e.value!);
              break;
            case 'wizard.next': {
              if (step === 4 && type === 'zero_consumption') {
                await page.getByRole('checkbox', { name: /leak/ }).check();
              }
              if (step === 4 && type === 'threshold')
                await expect
                  .poll(() => page.getByTestId('threshold-hint').textContent())
                  .toMatch(/^Last period/);
              if (step === 1 || step === 4) expect(await seriousA11yViolations(page)).toEqual([]);
              await page.getByRole('button', { name: 'Next' }).click();
              step++;
              await expectStep(step);
              // Browser back shows the step before with the choice kept; forward returns.
              await page.goBack();
              await expectStep(step - 1);
              await page.goForward();
              await expectStep(step);
              break;
            }
            case 'wizard.submit':
              expect(await page.getByTestId('alarm-review').textContent()).toContain(
                LABELS[CHOICES[type].quantity],
              );
              expect(await seriousA11yViolations(page)).toEqual([]);
              await page.getByRole('button', { name: 'Save alarm' }).click();
              break;
            case 'xstate.done.actor.saveAlarm':
              await page.waitForURL(/\/alarms\/\d+$/, { timeout: 15_000 });
              created.push({ type, url: page.url() });
              break;
          }
        }
        await expect
          .poll(() => page.locator('#alarm-title').textContent())
          .toContain(LABELS[CHOICES[type].quantity]);
        expect(ALARM_STEPS).toHaveLength(5);
      });
    }

    test('shows the detail with its graph and history, and the edit page, axe clean', async () => {
      const threshold = created.find((c) => c.type === 'threshold');
      expect(threshold).toBeDefined();
      await page.goto(threshold!.url);
      await page.locator('.alarm-chart, .card p').first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Edit' }).click();
      await expectStep(1);
      await expect.poll(() => page.getByRole('radio', { name: /^Threshold/ }).isChecked()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('deletes an alarm after confirmation', async () => {
      const comparison = created.find((c) => c.type === 'comparison')!;
      await page.goto(comparison.url);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await page.waitForURL(alarmsUrl());
      const id = comparison.url.split('/').at(-1);
      await page.locator('.alarm-list').waitFor();
      expect(await page.locator(`a[href$="/alarms/${id}"]`).count()).toBe(0);
      // Still logged in: nothing asked for the deleted alarm again.
      await page.reload();
      await page.locator('.alarm-list').waitFor();
      expect(page.url()).toBe(alarmsUrl());
    });

    test('shows the notification of the new alarm after a worker run, and marks it read', async () => {
      // The embedded worker schedules every minute; the new daily heat alarm fires for yesterday.
      const listUrl = `${baseUrl}/t/${tenancy}/notifications`;
      await page.goto(listUrl);
      const heat = page.locator('.notification-item', { hasText: 'Heat energy was' });
      await expect
        .poll(
          async () => {
            if ((await heat.count()) > 0) return true;
            await page.reload();
            await page.locator('.notification-list, .alarm-empty').first().waitFor({ timeout: 15_000 });
            return (await heat.count()) > 0;
          },
          { timeout: 100_000, intervals: [5_000] },
        )
        .toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      const unreadBefore = Number((await page.getByTestId('unread-count').textContent())?.match(/\d+/)?.[0]);
      expect(await heat.first().getAttribute('class')).toContain('unread');
      await heat.first().getByRole('link').click();
      await page.waitForURL(/\/notifications\/\d+$/);
      await expect.poll(() => page.getByTestId('notification-read').textContent()).toBe('Read');
      expect(await page.getByRole('link', { name: /^See the graph for / }).getAttribute('href')).toMatch(
        /\/consumption\/heat-energy\?startDate=\d{4}-\d{2}-\d{2}&endDate=/,
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.goto(listUrl);
      await expect
        .poll(async () => Number((await page.getByTestId('unread-count').textContent())?.match(/\d+/)?.[0]))
        .toBe(unreadBefore - 1);
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('0 unread');
    });

    test('fits a 390 px phone: the list, the wizard and the notifications do not scroll sideways', async () => {
      const phone = await launchBrowser({ width: 390, height: 844 });
      try {
        const p = await phone.context.newPage();
        await logIn(p, baseUrl, 'tenant@demo.test', PASSWORD);
        await p.waitForURL(DASHBOARD, { timeout: 30_000 });
        const overflow = () => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        for (const [path, ready] of [
          ['alarms', '.alarm-list'],
          ['alarms/new-alarm?step=1', '.choice-list'],
          ['notifications', '.notification-list, .alarm-empty'],
        ] as const) {
          await p.goto(`${baseUrl}/t/${tenancy}/${path}`);
          await p.locator(ready).first().waitFor({ timeout: 30_000 });
          expect(await overflow(), path).toBeLessThanOrEqual(0);
        }
      } finally {
        await phone.close();
      }
    });
  });
