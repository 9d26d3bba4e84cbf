/**
 * A CPU profile of one page load as Lighthouse's mobile run sees it (4× CPU slowdown, phone viewport, cold
 * HTTP cache), summed per script and per function, with the long tasks: which code makes Total Blocking Time.
 * `node --import tsx tests/bench/profile-page.ts --url=http://127.0.0.1:4950 [--page=dashboard|login]
 * [--path=consumption/heat-energy] [--out=DIR]` (the app must be running; the dashboard, and a `--path` under the
 * tenancy such as a chart page, are measured logged in as the demo tenant).
 */
import { writeFileSync } from 'node:fs';
import { launchBrowser, logIn } from './browser.ts';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const base = arg('url') ?? 'http://127.0.0.1:4950';
const which = arg('page') ?? 'dashboard';
/** A page under the tenancy (e.g. `consumption/heat-energy`), measured instead of the dashboard. */
const path = arg('path') ?? '';
const out = arg('out');

const browser = await launchBrowser({ width: 412, height: 823 });
try {
  const page = await browser.context.newPage();
  let url = `${base}/login/email`;
  if (which === 'dashboard') {
    await logIn(page, base, 'tenant@demo.test', 'Demo#Tenant2026');
    await page.waitForURL(/\/t\/[^/]+\/$/, { timeout: 30_000 });
    url = page.url() + path;
  }
  await page.goto('about:blank');
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // A touch-only phone, as Lighthouse's mobile run is: `(hover: none)`, so a chart page keeps its sketch.
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  // Long tasks as the page sees them.
  await page.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; duration: number; name: string }[] };
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        w.__long.push({
          start: Math.round(e.startTime),
          duration: Math.round(e.duration),
          name: JSON.stringify(
            (e as PerformanceEntry & { attribution?: { containerSrc?: string }[] }).attribution?.map(
              (a) => a.containerSrc,
            ),
          ),
        });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url);
  await page.waitForTimeout(8000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  const long = await page.evaluate(
    () => (window as unknown as { __long: { start: number; duration: number }[] }).__long,
  );
  if (out) writeFileSync(`${out}/${which}.cpuprofile`, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const perScript = new Map<string, number>();
  const perFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const script = f.url ? f.url.replace(base, '') : `(${f.functionName || 'native'})`;
    perScript.set(script, (perScript.get(script) ?? 0) + us);
    const fn = `${f.functionName || '(anonymous)'} ${script}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    perFunction.set(fn, (perFunction.get(fn) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  console.log(`Self time per script (4× slowdown), ${url}:`);
  console.log(top(perScript, 20).join('\n'));
  console.log('Self time per function:');
  console.log(top(perFunction, 40).join('\n'));
  // Busy stretches (samples between idle ones), which is what a long task is from the CPU's point of view:
  // for each over 50 ms, its length and the code that took its time, as the script and the outermost frames.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (f: Node['callFrame']) =>
    `${f.functionName || '(anon)'}@${f.url ? f.url.replace(`${base}/_astro/`, '').replace(base, '') : ''}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
  const outermost = (id: number): string => {
    const chain: Node[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) chain.push(byId.get(at)!);
    const js = chain.filter((n) => n.callFrame.url);
    return js.length
      ? js
          .slice(-2)
          .reverse()
          .map((n) => label(n.callFrame))
          .join(' > ')
      : label(chain[0]!.callFrame);
  };
  type Stretch = {
    ms: number;
    at: number;
    by: Map<string, number>;
    roots: Map<string, number>;
    fns: Map<string, number>;
  };
  let stretch = null as Stretch | null;
  let clock = 0;
  const stretches: Stretch[] = [];
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    clock += dt;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      if (stretch) stretches.push(stretch);
      stretch = null;
      return;
    }
    stretch ??= { ms: 0, at: clock, by: new Map(), roots: new Map(), fns: new Map() };
    stretch.ms += dt;
    const script = node.callFrame.url
      ? node.callFrame.url.replace(`${base}/_astro/`, '')
      : node.callFrame.functionName;
    stretch.by.set(script, (stretch.by.get(script) ?? 0) + dt);
    const fn = label(node.callFrame);
    stretch.fns.set(fn, (stretch.fns.get(fn) ?? 0) + dt);
    const root = outermost(id);
    stretch.roots.set(root, (stretch.roots.get(root) ?? 0) + dt);
  });
  const fmtMap = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
  console.log('Busy stretches over 50 ms (profile clock, ms):');
  for (const s of stretches.filter((x) => x.ms > 50))
    console.log(
      `  at ${s.at.toFixed(0)} +${s.ms.toFixed(0)}\n    scripts: ${fmtMap(s.by, 6)}\n    entered by: ${fmtMap(s.roots, 5)}\n    functions: ${fmtMap(s.fns, 8)}`,
    );
  console.log('Long tasks (start, ms):');
  console.log(long.map((t) => `  ${t.start} +${t.duration}`).join('\n'));
  console.log(
    `Total blocking (sum over 50 ms): ${long.reduce((s, t) => s + Math.max(0, t.duration - 50), 0)} ms`,
  );
} finally {
  await browser.close();
}
