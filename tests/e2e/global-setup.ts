/**
 * Builds the app when stale, then starts `src/server/start.ts` on a free port with a fresh data dir and
 * a small demo dataset; the tests get its URL through E2E_BASE_URL (Playwright hands the global setup's
 * environment to its workers). An E2E_BASE_URL given from outside skips both.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/\S+?)\/?\s/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`start.ts exited (${code}) before it was ready:\n${output}`)),
    );
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  // E2E_BASE_URL points the suite at an already running app (a deployment, or one started by hand).
  const given = process.env.E2E_BASE_URL;
  if (given) {
    process.env.E2E_BASE_URL = given.replace(/\/$/, '');
    process.env.E2E_SMTP_URL ??= '';
    process.env.E2E_OIDC_URL ??= '';
    return async () => {};
  }
  buildIfStale();
  const dataDir = mkdtempSync(join(tmpdir(), 'tenant-e2e-data-'));
  const port = await freePort();
  const smtpUrl = `smtp://127.0.0.1:${await freePort()}`;
  // A local OpenID Connect provider the accounts test starts there (tests/api/helpers/oidc.ts), configured
  // as Google (fragment answer) and Apple (form_post answer).
  const oidcUrl = `http://127.0.0.1:${await freePort()}`;
  const oidcEnv = Object.fromEntries(
    (['GOOGLE', 'APPLE'] as const).flatMap((p) => [
      [`${p}_CLIENT_ID`, `e2e-${p.toLowerCase()}`],
      [`${p}_ISSUER`, oidcUrl],
      [`${p}_JWKS_URL`, `${oidcUrl}/jwks`],
      [`${p}_AUTHORIZE_URL`, `${oidcUrl}/authorize`],
    ]),
  );
  const child = spawn(join(root, 'node_modules/.bin/node'), ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Demo data is refused under NODE_ENV=production unless forced (src/server/demo/policy.ts).
      DEMO_DATA: '1',
      DEMO_DATA_FORCE: '1',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_DAYS: '35',
      DEMO_APARTMENTS: '3',
      LOG_LEVEL: 'warn',
      SMTP_URL: smtpUrl,
      ...oidcEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const url = await waitForUrl(child);
  process.env.E2E_BASE_URL = url;
  // Where the app sends mail: tests that read mail listen there (empty against an outside E2E_BASE_URL).
  process.env.E2E_SMTP_URL = smtpUrl;
  process.env.E2E_OIDC_URL = oidcUrl;
  return async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
