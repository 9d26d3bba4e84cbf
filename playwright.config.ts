import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium.ts';

/**
 * End to end: `npx playwright test` (or `npm run test:e2e`). `webServer` starts the app (tests/e2e/serve.ts:
 * built when stale, a fresh data dir, a small demo dataset) on a free port; the tests reach it through `baseURL`.
 * E2E_BASE_URL points the suite at an app started elsewhere instead (the tests that need the local mail and
 * OpenID servers skip then). The browser is Debian's Chromium (CHROMIUM_PATH, else /usr/bin/chromium):
 * Playwright's downloads are not used.
 */
const given = process.env.E2E_BASE_URL?.replace(/\/$/, '');

// Four free ports (app, test SMTP server, local OpenID provider, MQTT broker), chosen once by the runner: its
// workers load this file again and inherit them through the environment.
const FREE_PORTS = `
const { createServer } = require('node:net');
const servers = [0, 1, 2, 3].map(() => createServer());
Promise.all(servers.map((s) => new Promise((r) => s.listen(0, '127.0.0.1', r)))).then(() => {
  console.log(servers.map((s) => s.address().port).join(','));
  for (const s of servers) s.close();
});`;
if (!given && !process.env.E2E_PORT) {
  const [app, smtp, oidc, mqtt] = execFileSync(process.execPath, ['-e', FREE_PORTS])
    .toString()
    .trim()
    .split(',');
  process.env.E2E_PORT = app;
  process.env.E2E_SMTP_URL = `smtp://127.0.0.1:${smtp}`;
  process.env.E2E_OIDC_URL = `http://127.0.0.1:${oidc}`;
  // The app subscribes to a mosquitto that tests/e2e/serve.ts starts there (when Debian's mosquitto is installed).
  process.env.E2E_MQTT_URL = `mqtt://127.0.0.1:${mqtt}`;
}
const baseURL = given ?? `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.test.ts',
  // One app, one database: the files share demo users, so they run one after another.
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // One retry: a test that passes only on its second try is listed as "flaky" in the output and the HTML report,
  // and still fails the run if it fails twice. Two rare timing failures (a click lost after a soft navigation, a
  // context teardown that hung) each cost a whole CI run (docs/decisions.md).
  retries: 1,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  webServer: given
    ? undefined
    : {
        command: 'node_modules/.bin/node --import tsx tests/e2e/serve.ts',
        url: `${baseURL}/api/health`,
        // The first run on a fresh clone builds the app first.
        timeout: 600_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      },
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    // A page that never finishes loading fails its test with a clear error (and its cleanup runs) instead of
    // waiting for the test's own timeout.
    navigationTimeout: 60_000,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
