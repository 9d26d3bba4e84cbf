import { defineConfig } from '@playwright/test';

/**
 * End to end: `npx playwright test` (or `npm run test:e2e`). The global setup builds the app when stale and
 * starts it with a small demo dataset; E2E_BASE_URL points the suite at an app started elsewhere.
 * The browser is Debian's Chromium (CHROMIUM_PATH, else /usr/bin/chromium): Playwright's downloads are not used.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.test.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  // One app, one database: the files share demo users, so they run one after another.
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    trace: 'retain-on-failure',
    // A page that never finishes loading fails its test with a clear error (and its cleanup runs) instead of
    // waiting for the test's own timeout.
    navigationTimeout: 60_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
