/**
 * MDN HTTP Observatory grade of the built app behind TLS, scanned locally with the scanner of
 * `@mdn/mdn-http-observatory`. The app's own handler (src/server/http.ts) serves HTTPS with a throwaway
 * self-signed certificate that the scanner is told to trust; a second port answers plain HTTP with a redirect
 * to HTTPS, as the TLS-terminating proxy of a deployment would.
 *
 * The scanner is not a dependency of the project (its 230 packages include pg-native, and its install
 * script downloads the HSTS preload list): it is installed on first use with --ignore-scripts into
 * node_modules/.cache, with an empty preload list (localhost is on none). Its `scan()` takes no ports, so the
 * script below runs its retriever, tests and grader the way `scan()` does, with ports.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '1.4.8';
const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = join(root, 'node_modules/.cache/mdn-http-observatory');
const pkgDir = join(cacheDir, 'node_modules/@mdn/mdn-http-observatory');

const SCAN_SCRIPT = `
import { retrieve } from '@mdn/mdn-http-observatory/src/retriever/retriever.js';
import { ALL_TESTS } from '@mdn/mdn-http-observatory/src/constants.js';
import { getGradeForScore, getScoreModifier } from '@mdn/mdn-http-observatory/src/grader/grader.js';
import { MINIMUM_SCORE_FOR_EXTRA_CREDIT } from '@mdn/mdn-http-observatory/src/grader/charts.js';
const [host, httpPort, httpsPort] = process.argv.slice(2);
const r = await retrieve(host, { httpPort, httpsPort });
if (!r.responses.auto) throw new Error('The site seems to be down.');
let withExtra = 100;
let uncurved = 100;
const tests = [];
for (const test of ALL_TESTS) {
  const res = test(r);
  if (!res.result) continue;
  const modifier = getScoreModifier(res.result);
  withExtra += modifier;
  if (modifier < 0) uncurved += modifier;
  tests.push({ result: res.result, pass: res.pass, modifier });
}
const score = uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtra : uncurved;
console.log(JSON.stringify({ ...getGradeForScore(score), tests }));
`;

function ensureScanner(): void {
  if (!existsSync(join(pkgDir, 'package.json'))) {
    console.log(`installing @mdn/mdn-http-observatory@${VERSION} into node_modules/.cache (once)…`);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(
      join(cacheDir, 'package.json'),
      '{"name":"observatory-cache","private":true,"type":"module"}',
    );
    execFileSync(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', `@mdn/mdn-http-observatory@${VERSION}`],
      { cwd: cacheDir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  const preload = join(pkgDir, 'conf/hsts-preload.json');
  if (!existsSync(preload)) writeFileSync(preload, '{}');
  writeFileSync(join(cacheDir, 'scan.mjs'), SCAN_SCRIPT);
}

/** Prints the Observatory grade of the built app behind TLS; needs `dist/` (npm run build). */
export async function benchObservatory(): Promise<void> {
  console.log('\n== MDN HTTP Observatory, behind TLS ==');
  const entry = join(root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) {
    console.log('(skipped: run `npm run build` first)');
    return;
  }
  ensureScanner();
  const work = mkdtempSync(join(tmpdir(), 'observatory-'));
  const key = join(work, 'key.pem');
  const cert = join(work, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost'],
    ],
    { stdio: 'ignore' },
  );
  // The pages open the database through the shared services: a throwaway one, without demo data.
  process.env.DATA_DIR = join(work, 'data');
  process.env.LOG_LEVEL = 'warn';
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const { getApiServices } = await import('../../src/server/services.ts');
  const { createAppHandler } = await import('../../src/server/http.ts');
  const { handler } = (await import(entry)) as {
    handler: (req: IncomingMessage, res: ServerResponse) => void;
  };
  const services = await getApiServices();
  const https = createHttpsServer(
    { key: readFileSync(key), cert: readFileSync(cert) },
    createAppHandler({ services, astroHandler: handler, clientDir: join(root, 'dist/client') }),
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const httpsPort = (https.address() as AddressInfo).port;
  const redirect = createHttpServer((req, res) => {
    res.writeHead(301, { location: `https://localhost:${httpsPort}${req.url ?? '/'}` }).end();
  });
  await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
  const httpPort = (redirect.address() as AddressInfo).port;
  try {
    // The scanner runs in its own process (NODE_EXTRA_CA_CERTS is read at start-up), asynchronously, so that
    // this process keeps serving it.
    const out = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [join(cacheDir, 'scan.mjs'), 'localhost', String(httpPort), String(httpsPort)],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert }, encoding: 'utf8', timeout: 60_000 },
        (err, stdout, stderr) => resolve(err ? `scanner failed: ${stderr || stdout || err.message}` : stdout),
      );
    });
    let result: {
      grade: string;
      score: number;
      tests: Array<{ result: string; pass: boolean; modifier: number }>;
    };
    try {
      result = JSON.parse(out.trim().split('\n').at(-1) ?? '');
    } catch {
      console.log(out);
      return;
    }
    console.log(`grade ${result.grade}, score ${result.score} (A+ needs 100)`);
    for (const t of result.tests)
      console.log(`  ${t.pass ? 'pass' : 'FAIL'} ${t.modifier >= 0 ? '+' : ''}${t.modifier} ${t.result}`);
  } finally {
    https.closeAllConnections();
    https.close();
    redirect.close();
    await services.database.close();
    rmSync(work, { recursive: true, force: true });
  }
}
