/**
 * The app under test, as Playwright's `webServer` starts it (playwright.config.ts): builds the app when a source
 * is newer than the build, then runs `src/server/start.ts` on E2E_PORT with a fresh data dir, a small demo
 * dataset, mail to the test SMTP server (E2E_SMTP_URL) and Google and Apple pointed at the local OpenID provider
 * (E2E_OIDC_URL) that the accounts test starts there, and, when Debian's mosquitto is installed, a broker on
 * E2E_MQTT_URL that the app subscribes to (MQTT_URL). On SIGTERM or SIGINT it stops the app and the broker and
 * removes the data dir.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasMosquitto, startBroker } from '../api/helpers/mosquitto.ts';

const root = new URL('../..', import.meta.url).pathname;
const SOURCES = ['src', 'locales', 'public', 'astro.config.mjs', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), 0);
}

function buildIfStale(): void {
  const entry = join(root, 'dist/server/entry.mjs');
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((p) => newestMtime(join(root, p))));
  if (built >= sources) return;
  // Test runners may set NODE_ENV=test; the app under test must be the production build, as users get it.
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

const { E2E_PORT, E2E_SMTP_URL, E2E_OIDC_URL, E2E_MQTT_URL } = process.env;
if (!E2E_PORT || !E2E_SMTP_URL || !E2E_OIDC_URL)
  throw new Error('E2E_PORT, E2E_SMTP_URL and E2E_OIDC_URL are set by playwright.config.ts');

buildIfStale();
// The broker the app's MQTT door subscribes to, when mosquitto is installed (admin-mqtt.e2e.test.ts skips without).
const broker =
  E2E_MQTT_URL && hasMosquitto ? await startBroker(Number(new URL(E2E_MQTT_URL).port)) : undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'tenant-e2e-data-'));
const oidcEnv = Object.fromEntries(
  (['GOOGLE', 'APPLE'] as const).flatMap((p) => [
    [`${p}_CLIENT_ID`, `e2e-${p.toLowerCase()}`],
    [`${p}_ISSUER`, E2E_OIDC_URL],
    [`${p}_JWKS_URL`, `${E2E_OIDC_URL}/jwks`],
    [`${p}_AUTHORIZE_URL`, `${E2E_OIDC_URL}/authorize`],
  ]),
);
const app = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    // Demo data is refused under NODE_ENV=production unless forced (src/server/demo/policy.ts).
    DEMO_DATA: '1',
    DEMO_DATA_FORCE: '1',
    HOST: '127.0.0.1',
    PORT: E2E_PORT,
    DATA_DIR: dataDir,
    DEMO_DAYS: '35',
    DEMO_APARTMENTS: '3',
    LOG_LEVEL: 'warn',
    SMTP_URL: E2E_SMTP_URL,
    ...(broker ? { MQTT_URL: broker.url } : {}),
    ...oidcEnv,
  },
  stdio: 'inherit',
});
const cleanUp = () => rmSync(dataDir, { recursive: true, force: true });
app.once('exit', (code) => {
  cleanUp();
  void (broker?.close() ?? Promise.resolve()).finally(() => process.exit(code ?? 1));
});
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    // Playwright signals the whole process group; the app may have its signal already.
    if (app.exitCode === null) app.kill(signal);
  });
