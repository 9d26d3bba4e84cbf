/** Gzipped JS shipped per page, measured in the system Chromium against the built app with demo data. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { launchBrowser } from '../e2e/browser.ts';
import { startUntilReady, stop } from './start.ts';

const repo = new URL('../..', import.meta.url).pathname;
/** Records every JS response of the page until `action` finishes; returns gzipped bytes. */
async function jsBytes(page: Page, action: () => Promise<void>): Promise<{ gz: number; files: number }> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (response: Response) => {
    const type = response.headers()['content-type'] ?? '';
    if (type.includes('javascript')) bodies.push(response.body().catch(() => Buffer.alloc(0)));
  };
  page.on('response', onResponse);
  await action();
  page.off('response', onResponse);
  const all = await Promise.all(bodies);
  return { gz: all.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0), files: all.length };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** Prints gzipped JS for /login/email and for the dashboard (initial and with the lazy chart). */
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
    const page = await context.newPage();
    const base = `http://127.0.0.1:${port}`;
    const login = await jsBytes(page, async () => {
      await page.goto(`${base}/login/email`, { waitUntil: 'networkidle' });
    });
    console.log('\nJS shipped (gzip -9 of every JS response)');
    console.log(`  /login/email: ${kb(login.gz)} in ${login.files} files`);
    const dashboard = await jsBytes(page, async () => {
      await page.getByLabel(/email/i).fill('tenant@demo.test');
      await page.getByLabel(/password/i).fill('Demo#Tenant2026');
      await page.getByRole('button', { name: /log in/i }).click();
      await page.waitForURL(/\/t\/[^/]+\/?$/);
      await page.locator('.apexcharts-svg').waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
    });
    console.log(
      `  dashboard after login, chart included: ${kb(dashboard.gz)} more in ${dashboard.files} files`,
    );
    const cold = await context.newPage();
    const direct = await jsBytes(cold, async () => {
      await cold.goto(`${base}${new URL(page.url()).pathname}`, { waitUntil: 'networkidle' });
      await cold.locator('.apexcharts-svg').waitFor({ timeout: 30_000 });
    });
    console.log(
      `  dashboard opened directly (warm session, cold page): ${kb(direct.gz)} in ${direct.files} files`,
    );
  } finally {
    await browser.close();
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
