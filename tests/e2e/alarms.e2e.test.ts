/**
 * Alarms and notifications in Chromium: the wizard walked along paths generated from the alarmWizard machine
 * (xstate/graph), one per alarm type, with browser back and forward after every step; the demo's triggered
 * leak alarm; a notification appearing after a worker run; marking it read; axe on every page.
 */

import { expect, type Page, test } from '@playwright/test';
import { createTestModel } from 'xstate/graph';
import { ALARM_STEPS, type AlarmType, alarmWizardMachine } from '../../src/machines/alarmWizard.machine.ts';
import { modelOf } from '../model/harness.ts';
import { logInToDashboard, newPage, seriousA11yViolations } from './helpers.ts';

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
    let page: Page;
    let tenancy: string;
    const created: { type: AlarmType; url: string }[] = [];

    test.beforeAll(async ({ browser }) => {
      page = await newPage(browser);
      tenancy = await logInToDashboard(page, 'tenant@demo.test');
    });
    test.afterAll(async () => {
      await page?.context().close();
    });

    const alarmsUrl = () => `/t/${tenancy}/alarms`;
    const expectStep = async (n: number) => {
      await expect(page).toHaveURL((url) => url.searchParams.get('step') === String(n));
      await expect(page.locator('#wizard-step-title')).toHaveText(STEP_TITLES[n - 1]!);
    };

    test('shows the demo leak as a triggered alarm, with axe clean', async () => {
      await page.goto(alarmsUrl());
      // Newest first: the demo's leak watch is the last cold-water alarm.
      const leak = page.locator('.alarm-item', { hasText: 'Cold water' }).last();
      await expect(leak.getByTestId('alarm-status')).toHaveText(/^Triggered for /, { timeout: 30_000 });
      await expect(
        page.locator('.alarm-item', { hasText: 'Hot water' }).getByTestId('alarm-status'),
      ).toHaveText('Off');
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
                await expect(page.getByTestId('threshold-hint')).toHaveText(/^Last period/);
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
              await expect(page.getByTestId('alarm-review')).toContainText(LABELS[CHOICES[type].quantity]!);
              expect(await seriousA11yViolations(page)).toEqual([]);
              await page.getByRole('button', { name: 'Save alarm' }).click();
              break;
            case 'xstate.done.actor.saveAlarm':
              await page.waitForURL(/\/alarms\/\d+$/, { timeout: 15_000 });
              created.push({ type, url: page.url() });
              break;
          }
        }
        await expect(page.locator('#alarm-title')).toContainText(LABELS[CHOICES[type].quantity]!);
        expect(ALARM_STEPS).toHaveLength(5);
      });
    }

    test('shows the detail with its graph and history, and the edit page, axe clean', async () => {
      const threshold = created.find((c) => c.type === 'threshold');
      expect(threshold).toBeDefined();
      await page.goto(threshold!.url);
      await expect(page.locator('.alarm-chart, .card p').first()).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Edit' }).click();
      await expectStep(1);
      await expect(page.getByRole('radio', { name: /^Threshold/ })).toBeChecked();
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('deletes an alarm after confirmation', async () => {
      const comparison = created.find((c) => c.type === 'comparison')!;
      await page.goto(comparison.url);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await expect(page).toHaveURL(alarmsUrl());
      const id = comparison.url.split('/').at(-1);
      await expect(page.locator('.alarm-list')).toBeVisible();
      await expect(page.locator(`a[href$="/alarms/${id}"]`)).toHaveCount(0);
      // Still logged in: nothing asked for the deleted alarm again.
      await page.reload();
      await expect(page.locator('.alarm-list')).toBeVisible();
      await expect(page).toHaveURL(alarmsUrl());
    });

    test('shows the notification of the new alarm after a worker run, and marks it read', async () => {
      // Saving the daily heat alarm queued its evaluation of yesterday, which the embedded worker runs at its next
      // poll (every 15 s): it fires.
      const listUrl = `/t/${tenancy}/notifications`;
      await page.goto(listUrl);
      const heat = page.locator('.notification-item', { hasText: 'Heat energy was' });
      // The list is not live: reload it until the worker's notification is there.
      await expect(async () => {
        if ((await heat.count()) === 0) await page.reload();
        await expect(heat.first()).toBeVisible({ timeout: 5_000 });
      }).toPass({ timeout: 100_000, intervals: [5_000] });
      expect(await seriousA11yViolations(page)).toEqual([]);
      await expect(heat.first()).toHaveClass(/\bunread\b/);
      await heat.first().getByRole('link').click();
      await page.waitForURL(/\/notifications\/\d+$/);
      await expect(page.getByTestId('notification-read')).toHaveText('Read');
      await expect(page.getByRole('link', { name: /^See the graph for / })).toHaveAttribute(
        'href',
        /\/consumption\/heat-energy\?startDate=\d{4}-\d{2}-\d{2}&endDate=/,
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.goto(listUrl);
      // The notification just opened is read now. The unread count is not compared: each alarm created in this
      // file is evaluated at the worker's next poll, so another one's notification may land meanwhile.
      await expect(heat.first()).not.toHaveClass(/\bunread\b/);
      // The embedded worker keeps running (every minute): a notification of another alarm created in this file may
      // land just after the click, so mark all again until the list has none unread.
      // The button is disabled once nothing is unread, so a retry clicks it only while it can be clicked.
      const markAll = page.getByRole('button', { name: 'Mark all as read' });
      await expect(async () => {
        if (await markAll.isEnabled()) await markAll.click();
        await expect(page.getByTestId('unread-count')).toHaveText('0 unread', { timeout: 10_000 });
      }).toPass({ timeout: 60_000, intervals: [2_000] });
    });

    test('fits a 390 px phone: the list, the wizard and the notifications do not scroll sideways', async ({
      browser,
    }) => {
      const p = await newPage(browser, { viewport: { width: 390, height: 844 } });
      try {
        await logInToDashboard(p, 'tenant@demo.test');
        const overflow = () => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        for (const [path, ready] of [
          ['alarms', '.alarm-list'],
          ['alarms/new-alarm?step=1', '.choice-list'],
          ['notifications', '.notification-list, .alarm-empty'],
        ] as const) {
          await p.goto(`/t/${tenancy}/${path}`);
          await expect(p.locator(ready).first()).toBeVisible({ timeout: 30_000 });
          expect(await overflow(), path).toBeLessThanOrEqual(0);
        }
      } finally {
        await p.context().close();
      }
    });
  });
