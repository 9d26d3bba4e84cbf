/** Times `npm install` and `npm start` on a fresh clone of HEAD: the first start, then a later one. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CREDENTIALS, copenhagenMinute, demoTenant, LOGIN, post } from './api.ts';

const repo = new URL('../..', import.meta.url).pathname;

/** Runs `npm start` in `dir` until it prints its URL; returns seconds taken and the child to stop. */
export function startUntilReady(
  dir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{
  seconds: number;
  child: ChildProcess;
  waitFor: (pattern: RegExp) => Promise<number>;
  output: () => string;
}> {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const waiters: { pattern: RegExp; resolve: (seconds: number) => void }[] = [];
  /** Seconds since the start until the output matches `pattern`. */
  const waitFor = (pattern: RegExp) =>
    new Promise<number>((resolve) => {
      if (pattern.test(output)) resolve((performance.now() - started) / 1000);
      else waiters.push({ pattern, resolve });
    });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const w of waiters.filter((x) => x.pattern.test(output))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve((performance.now() - started) / 1000);
      }
      if (/Open http:\/\//.test(output))
        resolve({ seconds: (performance.now() - started) / 1000, child, waitFor, output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`npm start exited with ${code} before it was ready:\n${output}`)),
    );
    setTimeout(
      () => reject(new Error(`npm start not ready after 600 s:\n${output.slice(-2000)}`)),
      600_000,
    ).unref();
  });
}

/** Stops a child started by startUntilReady (its whole process group). */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  });
}

function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps graphs { consumption { values } } } }`;

/** Calls `request` one after another, `pauseMs` apart, for `seconds`; returns the latencies in ms, sorted. */
async function poll(seconds: number, pauseMs: number, request: () => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    await request();
    latencies.push(performance.now() - t);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return latencies.sort((a, b) => a - b);
}

/**
 * /api/health every 50 ms, a tenant's tenantGraph (24 h at HOUR) every 100 ms and a login every second, side by
 * side, for `seconds`. Prints p50, p99, max and how many took over 100 ms (a login hashes a password, so it always
 * does: compare it with the reference run).
 */
async function pollSideBySide(port: number, seconds: number, title: string): Promise<void> {
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/api/tenant/graphql`;
  const { token, unitId } = await demoTenant(url);
  const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  const graph = {
    graphType: 'HOURLY_VALUES',
    resolution: 'HOUR',
    periodBegin: copenhagenMinute(new Date(hour.getTime() - 86_400_000)),
    periodEnd: copenhagenMinute(hour),
    objects: [{ kind: 'UNIT', id: unitId }],
    quantities: ['heat-energy'],
  };
  const [health, graphs, logins] = await Promise.all([
    poll(seconds, 50, async () => (await fetch(`${origin}/api/health`)).arrayBuffer()),
    poll(seconds, 100, () => post(url, GRAPH, { graph }, token)),
    poll(seconds, 1000, () => post(url, LOGIN, { c: CREDENTIALS })),
  ]);
  const line = (name: string, l: number[]) =>
    console.log(
      `  ${name.padEnd(22)} ${String(l.length).padStart(4)} requests: p50 ${percentile(l, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(l, 99).toFixed(1)} ms, max ${l.at(-1)?.toFixed(1)} ms, over 100 ms: ${l.filter((x) => x > 100).length}`,
    );
  console.log(`  ${title} (${seconds} s side by side):`);
  line('/api/health', health);
  line('tenantGraph 24 h HOUR', graphs);
  line('login', logins);
}

/** The "Start-up phases" line npm start prints with its banner. */
function phasesOf(output: string): string {
  return /Start-up phases \(s\): (.*)/.exec(output)?.[1] ?? '(not printed)';
}

/**
 * Prints, for a fresh clone: npm install (or, with BENCH_LINK_MODULES=1, a hard-linked copy of this checkout's
 * node_modules); the first start, which builds the app and serves with the whole demo history loaded, with its
 * phases; a later start; and request latencies while older history loads in the background (a start with
 * DEMO_FIRST_DAYS=60 on an empty data folder).
 */
export async function benchStart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-app-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', repo, dir]);
    if (process.env.BENCH_LINK_MODULES === '1') {
      // Hard links, not a symlink: Astro resolves its own files by real path.
      execFileSync('cp', ['-al', join(repo, 'node_modules'), join(dir, 'node_modules')]);
      console.log('\nnode_modules: hard-linked from this checkout');
    } else {
      // A real install: Astro resolves its own files by real path, so a symlinked node_modules breaks the build.
      const installStarted = performance.now();
      execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        stdio: 'ignore',
      });
      console.log(
        `\nnpm install on a fresh clone (from the npm cache): ${((performance.now() - installStarted) / 1000).toFixed(1)} s`,
      );
    }
    const port = 4500 + Math.floor(Math.random() * 400);
    console.log('npm start on that clone (full demo data: 730 days, 24 apartments)');
    const first = await startUntilReady(dir, port);
    console.log(
      `  first start (build + migrate + load all 730 days), serving: ${first.seconds.toFixed(1)} s   (target ≤ 60 s)`,
    );
    console.log(`    phases (s): ${phasesOf(first.output())}`);
    await stop(first.child);
    const later = await startUntilReady(dir, port);
    console.log(
      `  later start (catch-up only):                                ${later.seconds.toFixed(1)} s   (target ≤ 10 s)`,
    );
    console.log(`    phases (s): ${phasesOf(later.output())}`);
    // The same requests with nothing loading: the reference for the figures while history loads below.
    await pollSideBySide(port, 20, 'reference, all history loaded, nothing loading');
    await stop(later.child);

    rmSync(join(dir, 'data'), { recursive: true, force: true });
    const partial = await startUntilReady(dir, port, { DEMO_FIRST_DAYS: '60' });
    console.log(
      `  start with DEMO_FIRST_DAYS=60, serving after ${partial.seconds.toFixed(1)} s; older days load behind:`,
    );
    await pollSideBySide(
      port,
      60,
      'while history loads (target: none waits over 100 ms behind it, i.e. over the reference)',
    );
    // What the PGlite worker measured: each request's wait for the session while the backfill held it.
    const waits = [
      ...partial.output().matchAll(/requests waited behind it (\d+) times, at most ([\d.]+) ms/g),
    ];
    if (waits.length > 0) {
      const count = waits.reduce((n, m) => n + Number(m[1]), 0);
      const max = waits.reduce((n, m) => Math.max(n, Number(m[2])), 0);
      console.log(
        `  measured in the PGlite worker: requests waited for the session behind the backfill ${count} times, at most ${max.toFixed(1)} ms (target ≤ 100 ms)`,
      );
    }
    await stop(partial.child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStart();
