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

/** Prints the first and a later start time of a fresh clone. */
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
    console.log(
      `  first start (build + migrate + seed last 60 days), serving: ${first.seconds.toFixed(1)} s   (target ≤ 90 s)`,
    );
    const full = await first.waitFor(/demo history: 100%/);
    console.log(`  all 730 days loaded in the background, after:             ${full.toFixed(1)} s`);
    await stop(first.child);
    const later = await startUntilReady(dir, port);
    console.log(
      `  later start (catch-up only):                               ${later.seconds.toFixed(1)} s   (target ≤ 10 s)`,
    );
    await stop(later.child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
