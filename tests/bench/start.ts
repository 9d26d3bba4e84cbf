/** Times `npm install` and `npm start` on a fresh clone of HEAD: the first start, then a later one. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = new URL('../..', import.meta.url).pathname;

/** Runs `npm start` in `dir` until it prints its URL; returns seconds taken and the child to stop. */
export function startUntilReady(
  dir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ seconds: number; child: ChildProcess; waitFor: (pattern: RegExp) => Promise<number> }> {
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
        resolve({ seconds: (performance.now() - started) / 1000, child, waitFor });
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

/** Polls /api/health (which runs a query) every 50 ms for `seconds`; returns the latencies in ms. */
async function pollHealth(port: number, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return latencies.sort((a, b) => a - b);
}

/**
 * Prints, for a fresh clone: npm install; the first start, which serves with the whole demo history loaded;
 * a later start; and /api/health latency while older history loads in the background (a start with
 * DEMO_FIRST_DAYS=60 on an empty data folder).
 */
export async function benchStart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-app-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', repo, dir]);
    // A real install: Astro resolves its own files by real path, so a symlinked node_modules breaks the build.
    const installStarted = performance.now();
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: 'ignore',
    });
    console.log(
      `\nnpm install on a fresh clone (from the npm cache): ${((performance.now() - installStarted) / 1000).toFixed(1)} s`,
    );
    const port = 4500 + Math.floor(Math.random() * 400);
    console.log('npm start on that clone (full demo data: 730 days, 24 apartments)');
    const first = await startUntilReady(dir, port);
    const built = await first.waitFor(/Built in|Seeding demo data/);
    console.log(
      `  first start (build + migrate + load all 730 days), serving: ${first.seconds.toFixed(1)} s   (target ≤ 60 s; build took the first ${built.toFixed(1)} s)`,
    );
    await stop(first.child);
    const later = await startUntilReady(dir, port);
    console.log(
      `  later start (catch-up only):                                ${later.seconds.toFixed(1)} s   (target ≤ 10 s)`,
    );
    await stop(later.child);

    rmSync(join(dir, 'data'), { recursive: true, force: true });
    const partial = await startUntilReady(dir, port, { DEMO_FIRST_DAYS: '60' });
    console.log(
      `  start with DEMO_FIRST_DAYS=60, serving after ${partial.seconds.toFixed(1)} s; older days load behind:`,
    );
    const latencies = await pollHealth(port, 60);
    console.log(
      `  /api/health while history loads (60 s, ${latencies.length} requests): p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms   (target p99 ≤ 50 ms)`,
    );
    await stop(partial.child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
