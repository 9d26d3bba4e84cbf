/** Gzipped JS shipped per page, measured in the system Chromium against the built app with demo data. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { launchBrowser, logIn } from './browser.ts';
import { startUntilReady, stop } from './start.ts';

const repo = new URL('../..', import.meta.url).pathname;
/** The chart pages' budget, as in tests/e2e/budgets.e2e.test.ts. */
const CHART_PAGE_BUDGET_KB = 180;
type Loaded = { gz: number; chart: boolean };

/** Records every JS response of the page until `action` finishes and the network is idle. */
async function jsFiles(page: Page, action: () => Promise<unknown>): Promise<Loaded[]> {
  const pending: Promise<Loaded>[] = [];
  const onResponse = (response: Response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('javascript')) return;
    pending.push(
      response
        .body()
        .catch(() => Buffer.alloc(0))
        .then((b) => ({
          gz: gzipSync(b, { level: 9 }).length,
          // The library's own chunks carry its `__apex_` internals; "apexcharts" alone would also flag our
          // chart wrapper's class names and the dynamic-import map that names the library's chunks.
          chart: /__apex_/.test(b.toString()),
        })),
    );
  };
  page.on('response', onResponse);
  await action();
  // An action that is not a navigation finds the page idle already; give its imports time to start.
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return Promise.all(pending);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sum = (files: Loaded[]) => files.reduce((n, f) => n + f.gz, 0);
const line = (label: string, files: Loaded[], budget?: number) =>
  console.log(
    `  ${label.padEnd(46)} ${kb(sum(files)).padStart(9)} in ${String(files.length).padStart(2)} files` +
      (budget ? `   (budget ${budget} KB)` : ''),
  );

/** Prints gzipped JS per page: the auth pages, the dashboard, and the chart pages (first load, then on touch). */
export async function benchJs(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tenant-app-js-'));
  const port = 4900 + Math.floor(Math.random() * 90);
  const { child } = await startUntilReady(repo, port, {
    DATA_DIR: dataDir,
    DEMO_DAYS: '35',
    DEMO_APARTMENTS: '3',
  });
  const browser = await launchBrowser();
  const { context } = browser;
  try {
    const base = `http://127.0.0.1:${port}`;
    console.log('\nJS shipped (gzip -9 of every JS response, until the network is idle)');
    const page = await context.newPage();
    line('/login', await jsFiles(page, () => page.goto(`${base}/login`)), 100);
    line('/login/email', await jsFiles(page, () => page.goto(`${base}/login/email`)), 100);
    // The session and the backends' client load when the form is first focused.
    line('  + on first focus of the form', await jsFiles(page, () => page.getByLabel(/email/i).click()));
    const login = await jsFiles(page, async () => {
      await page.getByLabel(/email/i).fill('tenant@demo.test');
      await page.getByLabel(/password/i).fill('Demo#Tenant2026');
      await page.getByRole('button', { name: /log in/i }).click();
      await page.waitForURL(/\/t\/[^/]+\/?$/);
      await page.locator('.compact-graph-svg').first().waitFor({ timeout: 30_000 });
    });
    line('  + logging in, to the dashboard', login);
    const cold = await context.newPage();
    const direct = await jsFiles(cold, async () => {
      await cold.goto(`${base}${new URL(page.url()).pathname}`);
      await cold.locator('.compact-graph-svg').first().waitFor({ timeout: 30_000 });
    });
    // The cards draw plain SVG (CompactGraph.tsx): the chart library should not be among these files.
    line(
      'dashboard opened directly, no chart library',
      direct.filter((f) => !f.chart),
      170,
    );
    line(
      '  + the chart library (expected: none)',
      direct.filter((f) => f.chart),
    );
    // The chart pages: what a phone loads until its first chart is drawn (ChartSketch, plain SVG; a touch-only
    // device loads ApexCharts on the first touch or focus), and what pointing at the chart adds.
    const home = new URL(page.url()).pathname;
    // A second browser with a phone's viewport, touch and no hover (a touch-only device), logged in the same way.
    const phone = await launchBrowser({ width: 412, height: 823 });
    try {
      const login = await phone.context.newPage();
      await logIn(login, base, 'tenant@demo.test', 'Demo#Tenant2026');
      await login.waitForURL(/\/t\/[^/]+\/$/, { timeout: 30_000 });
      await login.close();
      for (const path of [
        'consumption/heat-energy',
        'consumption/heat-energy/price',
        'consumption/indoor-climate',
      ]) {
        const tab = await phone.context.newPage();
        const cdp = await phone.context.newCDPSession(tab);
        await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
        const first = await jsFiles(tab, async () => {
          await tab.goto(`${base}${home}${path}`);
          await tab.locator('.chart-sketch-svg, .apexcharts-svg').first().waitFor({ timeout: 30_000 });
        });
        line(`${path} (phone, first load)`, first, CHART_PAGE_BUDGET_KB);
        line(
          '  of it the chart library (expected: none)',
          first.filter((f) => f.chart),
        );
        const touched = await jsFiles(tab, async () => {
          await tab.locator('.chart-sketch').first().dispatchEvent('pointerdown');
          await tab.locator('.apexcharts-svg').first().waitFor({ timeout: 30_000 });
        });
        line('  + on the first touch of the chart', touched);
        await tab.close();
      }
    } finally {
      await phone.close();
    }
  } finally {
    await browser.close();
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
