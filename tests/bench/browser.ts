/** The benchmarks' browser: the system Chromium through playwright-core, with a fresh empty profile per call. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

/** Launches Chromium with an empty user-data-dir; close() removes it again. */
export async function launchBrowser(
  viewport = { width: 1400, height: 900 },
  extraArgs: string[] = [],
): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'tenant-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: ['--headless', ...CHROMIUM_ARGS, ...extraArgs],
    headless: true,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in through /login/email with the given credentials. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login/email`);
  // The form works only once its script has run; it marks the form ready then.
  await page.waitForSelector('form[data-ready]');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}
