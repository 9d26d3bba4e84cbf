import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import pino from 'pino';
import { generateKeyRing } from '../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { createAppServer } from '../../src/server/http.ts';
import type { ApiServices } from '../../src/server/services.ts';
import { copenhagenMinute, demoTenant, load, openBenchDatabase } from './api.ts';
import { processCpuSeconds } from './ingest.ts';
import type { LoadOptions } from './load-worker.ts';

const engine = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const resolution = process.argv[3] ?? 'HOUR';
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 20);

const { database, cleanup } = await openBenchDatabase(
  engine,
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  process.env.PROFILE_POOL ? Number(process.env.PROFILE_POOL) : undefined,
);
const now = new Date();
await seedDemo(database.db, { now, days: Number(process.env.PROFILE_DAYS ?? 400), apartments: 6 });
const services: ApiServices = {
  config: parseServerConfig({ DATA_DIR: tmpdir(), LOG_LEVEL: 'warn' }),
  database,
  logger: pino({ level: 'warn' }),
  keys: await generateKeyRing(),
};
const server = createAppServer({ services });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tenant/graphql`;
const { token, unitId } = await demoTenant(url);
const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
const span = { HOUR: 1, DAY: 30, MONTH: 365 }[resolution] ?? 1;
const graph = {
  graphType: 'HOURLY_VALUES',
  resolution,
  periodBegin: copenhagenMinute(new Date(hour - span * 86_400_000)),
  periodEnd: copenhagenMinute(new Date(hour)),
  objects: [{ kind: 'UNIT', id: unitId }],
  quantities: ['heat-energy'],
};
const request: LoadOptions = {
  url,
  method: 'POST',
  connections: CONNECTIONS,
  duration: SECONDS,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({
    query: `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps graphs { consumption { values } } } }`,
    variables: { graph },
  }),
};
await load({ ...request, duration: 1 });

/**
 * CPU time per request of the server's threads, measured per thread (so other processes on the machine do not
 * inflate it the way they inflate wall time): the main thread, and everything else of this process except the
 * load generator (the PGlite worker, libuv's pool). Beside a Yoga hello-world on this process, for the ratio.
 */
async function cpuPerRequest(options: LoadOptions) {
  const main0 = process.threadCpuUsage();
  const all0 = process.cpuUsage();
  const pg0 = postgresCpuMs();
  const r = await load(options);
  const main = process.threadCpuUsage(main0);
  const all = process.cpuUsage(all0);
  const pgMs = postgresCpuMs() - pg0;
  const mainUs = main.user + main.system;
  const otherUs = all.user + all.system - mainUs - r.loaderCpuUs;
  return {
    rps: r.rps,
    mainMs: mainUs / 1000 / r.requests,
    otherMs: otherUs / 1000 / r.requests,
    postgresMs: pgMs / r.requests,
  };
}

/**
 * CPU milliseconds used so far by every process named `postgres` on this machine (the server and its backends,
 * from /proc; Linux only, 0 elsewhere). The bench's pool keeps its backends for the whole run, so the
 * difference over a round is what PostgreSQL spent on it (plus anything else the server did meanwhile).
 */
function postgresCpuMs(): number {
  let seconds = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
      } catch {
        continue; // the process ended meanwhile
      }
      seconds += processCpuSeconds(Number(pid));
    }
  } catch {
    return 0;
  }
  return seconds * 1000;
}
if (process.env.PROFILE_CPU) {
  const { createSchema, createYoga } = await import('graphql-yoga');
  const { createServer } = await import('node:http');
  const hello = createServer(
    createYoga({
      schema: createSchema({
        typeDefs: 'type Query { hello: String! }',
        resolvers: { Query: { hello: () => 'world' } },
      }),
      logging: false,
    }),
  );
  await new Promise<void>((resolve) => hello.listen(0, '127.0.0.1', resolve));
  const helloUrl = `http://127.0.0.1:${(hello.address() as AddressInfo).port}/graphql`;
  const helloRequest: LoadOptions = {
    url: helloUrl,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ hello }' }),
  };
  await load({ ...helloRequest, duration: 1 });
  const f = (n: number) => n.toFixed(3);
  for (let round = 0; round < Number(process.env.PROFILE_CPU); round++) {
    const h = await cpuPerRequest(helloRequest);
    const g = await cpuPerRequest(request);
    console.log(
      `cpu ${engine} ${resolution}: hello-world main ${f(h.mainMs)} ms/req (${h.rps.toFixed(0)} req/s); ` +
        `tenantGraph main ${f(g.mainMs)} + other threads ${f(g.otherMs)}` +
        (engine === 'postgres' ? ` + PostgreSQL ${f(g.postgresMs)}` : '') +
        ` ms/req (${g.rps.toFixed(0)} req/s); ` +
        `main-thread ratio ${((100 * h.mainMs) / g.mainMs).toFixed(1)} %`,
    );
  }
  hello.close();
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const cpu0 = process.cpuUsage();
const result = await load(request);
const cpu = process.cpuUsage(cpu0);
const { profile } = await session.post('Profiler.stop');
session.disconnect();
if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));

// Self time per function, and per package (node_modules/<pkg>, src/…, node internals).
type Node = (typeof profile.nodes)[number];
const byId = new Map<number, Node>(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
const times = profile.timeDeltas ?? [];
(profile.samples ?? []).forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (times[i] ?? 0));
});
const fn = new Map<string, number>();
const pkg = new Map<string, number>();
let total = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const { functionName, url: file, lineNumber } = n.callFrame;
  total += us;
  const where = file.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/perf-api\//, '');
  fn.set(
    `${functionName || '(anon)'} ${where}:${lineNumber + 1}`,
    (fn.get(`${functionName || '(anon)'} ${where}:${lineNumber + 1}`) ?? 0) + us,
  );
  const group = file.includes('node_modules/')
    ? file.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1')
    : file.includes('/src/')
      ? file.replace(/^.*\/(src\/[^/]+\/[^/]+).*$/, '$1')
      : file.startsWith('node:')
        ? file
        : functionName.startsWith('(')
          ? functionName
          : file || '(native)';
  pkg.set(group, (pkg.get(group) ?? 0) + us);
}
const n = result.requests;
console.log(
  `${engine} ${resolution}: ${result.rps.toFixed(0)} req/s at ${CONNECTIONS} conns, p50 ${result.p50} ms; ` +
    `main-thread CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms/request (process, incl. workers); ` +
    `profiled ${(total / 1000 / n).toFixed(2)} ms/request`,
);
const top = (m: Map<string, number>, k: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(
      ([name, us]) =>
        `  ${(us / 1000 / n).toFixed(3).padStart(7)} ms  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`,
    )
    .join('\n');
console.log('by package / folder (self time per request):');
console.log(top(pkg, 30));
console.log('by function:');
console.log(top(fn, Number(process.env.PROFILE_TOP ?? 40)));
server.closeAllConnections();
server.close();
await new Promise((r) => setTimeout(r, 500));
await database.close();
await cleanup();
