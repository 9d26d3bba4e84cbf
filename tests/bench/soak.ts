/**
 * Memory soak of the embedded database (issue 24): `npm run serve:api` as a child process on a fresh demo
 * database (PGlite), loaded with the dashboard over its longest allowed graph from many connections, its
 * resident memory (VmRSS, VmHWM of /proc) sampled after every minute of load, and `/api/health` asked each time.
 *
 *   node --import tsx tests/bench/soak.ts [--minutes 30] [--connections 50] [--rate 20] [--port 4110]
 *
 * `--rate` caps requests per second over all connections (0: as fast as the server answers). Prints one row
 * per minute and exits non-zero when a request failed or health was not 200.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/demo/logins.ts';
import { load, post } from './api.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
    rate: { type: 'string', default: '20' },
    port: { type: 'string', default: '4110' },
    days: { type: 'string', default: '730' },
  },
});
const root = new URL('../..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'tenant-soak-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: args.port,
  HOST: '127.0.0.1',
  ACCESS_TOKEN_TTL: '86400',
  ACCESS_LOG: '0',
  LOG_LEVEL: 'warn',
  DEMO_DAYS: args.days,
};

/** Node 24 from the project's `node` package (the system Node may be older). */
const node = join(root, 'node_modules/.bin/node');

/** Runs one server entry (`src/server/<entry>`) with tsx. */
function start(entry: string, extra: string[] = []) {
  return spawn(node, ['--import', 'tsx', join(root, 'src/server', entry), ...extra], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
}

function run(entry: string, extra: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    start(entry, extra).once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${entry} exited ${code}`)),
    );
  });
}

/** Resident and peak resident memory of a process, MiB. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

const base = `http://127.0.0.1:${args.port}`;
let failed = false;
console.log(`soak: data in ${dataDir}; migrating and seeding ${args.days} demo days…`);
await run('migrate.ts');
await run('cli.ts', ['demo:seed']);
const server = start('serve-api.ts');
// Stopped early (Ctrl-C, kill): stop the server too, so it does not keep the port and the data dir.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    server.kill('SIGTERM');
    server.once('exit', () => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
server.once('exit', (code) => {
  if (code !== null && code !== 0) {
    console.error(`soak: the server exited with ${code} (is port ${args.port} in use?)`);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }
});
try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('the server did not answer /api/health within 5 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  const pid = server.pid!;
  const login = (await post(
    `${base}/api/account/graphql`,
    'mutation ($e: String!, $p: String!) { tokenAuth(email: $e, password: $p) { token } }',
    {
      e: DEMO_USERS[0].email,
      p: DEMO_PASSWORD,
    },
  )) as { tokenAuth: { token: string } };
  const tenancies = (await post(
    `${base}/api/account/graphql`,
    '{ allTenanciesForCurrentUser { id } }',
    {},
    login.tokenAuth.token,
  )) as {
    allTenanciesForCurrentUser: { id: string }[];
  };
  const tenant = (await post(
    `${base}/api/tenant/graphql`,
    'mutation ($c: CredentialsInput!) { loginWithEmailAndPassword(credentials: $c) { ok { token } } }',
    { c: { email: DEMO_USERS[0].email, password: DEMO_PASSWORD, targetResource: 'tenant' } },
  )) as { loginWithEmailAndPassword: { ok: { token: string } } };
  // The longest DAY graph the points limit allows for four quantities (4 × 1,100 = 4,400 of 5,000), the
  // period and rating KPIs of a year: what a dashboard over the longest period asks.
  const body = JSON.stringify({
    query: `query ($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) { unitId
      tenantGraph { timestamps graphs { consumption { values relatedValues { values } } } }
      kpis { total } co2 { total } rating { total } } }`,
    variables: {
      input: {
        tenancyId: tenancies.allTenanciesForCurrentUser[0]!.id,
        quantities: ['heat-energy', 'hot-water-volume', 'cold-water-volume', 'electricity-energy'],
        resolution: 'DAY',
        graphBegin: '2024-01-01T00:00',
        graphEnd: '2027-01-05T00:00',
        related: ['PROPERTY'],
        periodBegin: '2025-01-01',
        periodEnd: '2025-12-31',
        ratingBegin: '2025-01-01',
        ratingEnd: '2025-12-31',
      },
    },
  });
  // One dashboard alone, before any load: every later check must answer the same bytes.
  const dashboard = () =>
    fetch(`${base}/api/tenant/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tenant.loginWithEmailAndPassword.ok.token}`,
      },
      body,
    }).then((r) => r.text());
  const expected = await dashboard();
  if ((JSON.parse(expected) as { errors?: unknown }).errors)
    throw new Error(`the dashboard request failed: ${expected}`);
  const start = memoryOf(pid);
  console.log(
    `minute | requests | p50 ms | p99 ms | non-2xx | errors | health | same answer | RSS MiB | peak RSS MiB`,
  );
  console.log(
    `     0 |          |        |        |         |        |        |             | ${start.rss.toFixed(0).padStart(7)} | ${start.hwm.toFixed(0)}`,
  );
  let total = 0;
  for (let minute = 1; minute <= Number(args.minutes); minute++) {
    const r = await load({
      url: `${base}/api/tenant/graphql`,
      connections: Number(args.connections),
      duration: 60,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tenant.loginWithEmailAndPassword.ok.token}`,
      },
      body,
      ...(Number(args.rate) > 0 ? { overallRate: Number(args.rate) } : {}),
    });
    const health = await fetch(`${base}/api/health`).then(
      (res) => res.status,
      () => 0,
    );
    const same = (await dashboard()) === expected;
    const m = memoryOf(pid);
    total += r.requests;
    if (r.non2xx || r.errors || health !== 200 || !same) failed = true;
    console.log(
      `${String(minute).padStart(6)} | ${String(r.requests).padStart(8)} | ${r.p50.toFixed(0).padStart(6)} | ${r.p99.toFixed(0).padStart(6)} | ${String(r.non2xx).padStart(7)} | ${String(r.errors).padStart(6)} | ${String(health).padStart(6)} | ${(same ? 'yes' : 'NO').padStart(11)} | ${m.rss.toFixed(0).padStart(7)} | ${m.hwm.toFixed(0)}`,
    );
  }
  console.log(`${total} dashboard requests in ${args.minutes} minutes at ${args.connections} connections`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
