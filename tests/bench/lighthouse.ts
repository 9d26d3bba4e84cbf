/**
 * Lighthouse performance, mobile and desktop, for /login/email, the dashboard and the chart pages (heat energy, its
 * price page, indoor climate; logged in), on the built
 * app with demo data in the system Chromium, as served (the server compresses). Prints the median of a few
 * runs: a shared machine makes single runs noisy.
 * Alone: `node --import tsx tests/bench/lighthouse.ts [--runs=3] [--url=http://127.0.0.1:4391]
 * [--page=login|dashboard|charts] [--form=mobile|desktop]`. Each line ends with the load average (1 min) before
 * and after its runs, and each run's score and benchmarkIndex: Lighthouse's scores on a busy machine are not
 * those of a phone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { launchBrowser, logIn } from './browser.ts';
import { startUntilReady, stop } from './start.ts';

const repo = new URL('../..', import.meta.url).pathname;

type Key = 'login' | 'dashboard' | 'charts';

/** Lighthouse's benchmarkIndex is this machine's speed at the time: lower means a busier or slower CPU. */
type Scores = {
  performance: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  benchmarkIndex: number;
};

/** With `--save=DIR` (or LH_SAVE_DIR), every run's full Lighthouse JSON is written there, for the audits behind a score. */
const saveDir = process.env.LH_SAVE_DIR ?? process.argv.find((a) => a.startsWith('--save='))?.split('=')[1];
let saved = 0;

async function audit(url: string, port: number, desktop: boolean): Promise<Scores> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // The session lives in localStorage; Lighthouse would clear it before loading the page.
    disableStorageReset: true,
  };
  let result = await lighthouse(url, flags, desktop ? desktopConfig : undefined);
  // A run whose trace failed (e.g. NO_NAVSTART on a busy machine) has no score: run it again rather than
  // count it as 0 in the median.
  for (let retry = 0; retry < 2 && result?.lhr.runtimeError; retry++) {
    console.log(`  (Lighthouse ${result.lhr.runtimeError.code} on ${url}: run again)`);
    result = await lighthouse(url, flags, desktop ? desktopConfig : undefined);
  }
  if (!result || result.lhr.runtimeError) throw new Error(`Lighthouse gave no result for ${url}`);
  if (saveDir) {
    const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${desktop ? 'desktop' : 'mobile'}-${saved++}.json`;
    writeFileSync(join(saveDir, name), JSON.stringify(result.lhr));
  }
  const { audits, categories } = result.lhr;
  const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
    benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
  };
}

function median(runs: Scores[]): Scores {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const fmt = (s: Scores) =>
  `${String(s.performance).padStart(3)}   FCP ${(s.fcp / 1000).toFixed(1)} s  LCP ${(s.lcp / 1000).toFixed(1)} s  ` +
  `TBT ${Math.round(s.tbt)} ms  CLS ${s.cls.toFixed(3)}  SI ${(s.si / 1000).toFixed(1)} s  ` +
  `(benchmarkIndex ${s.benchmarkIndex})`;

/** Prints Lighthouse figures for a running app at `base` (started here when not given). */
export async function benchLighthouse(
  options: { runs?: number; base?: string; page?: Key; form?: 'mobile' | 'desktop' } = {},
): Promise<void> {
  const runs = options.runs ?? 3;
  let dataDir: string | null = null;
  let child: Awaited<ReturnType<typeof startUntilReady>>['child'] | null = null;
  let base = options.base;
  if (!base) {
    dataDir = mkdtempSync(join(tmpdir(), 'tenant-app-lh-'));
    const appPort = 4900 + Math.floor(Math.random() * 90);
    ({ child } = await startUntilReady(repo, appPort, {
      DATA_DIR: dataDir,
      DEMO_DAYS: '35',
      DEMO_APARTMENTS: '3',
    }));
    base = `http://127.0.0.1:${appPort}`;
  }
  const debuggingPort = 9300 + Math.floor(Math.random() * 90);
  const browser = await launchBrowser(undefined, [`--remote-debugging-port=${debuggingPort}`]);
  try {
    const origins = [{ label: 'as served', origin: base }];
    const blank = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(blank);
    const clearHttpCache = () => cdp.send('Network.clearBrowserCache');
    console.log(`\nLighthouse performance (median of ${runs}; score, then the metrics of that run)`);
    for (const { label, origin } of origins) {
      const measure = async (key: Key, name: string, url: string) => {
        if (options.page && options.page !== key) return;
        for (const desktop of [false, true]) {
          if (options.form && options.form !== (desktop ? 'desktop' : 'mobile')) continue;
          const results: Scores[] = [];
          const loadBefore = loadavg()[0]!;
          for (let i = 0; i < runs; i++) {
            // Storage stays (the session), but every run starts with a cold HTTP cache.
            await clearHttpCache();
            results.push(await audit(url, debuggingPort, desktop));
          }
          const form = desktop ? 'desktop' : 'mobile ';
          console.log(
            `  ${label.padEnd(11)} ${name.padEnd(12)} ${form} ${fmt(median(results))}  ` +
              `load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}` +
              (runs > 1
                ? `  runs ${results.map((r) => r.performance).join('/')} ` +
                  `(benchmarkIndex ${results.map((r) => r.benchmarkIndex).join('/')})`
                : ''),
          );
        }
      };
      // /login/email as the visitor it is for: logged out. Measured before the login below, since a stored
      // session makes the page's guard move on to the dashboard, and Lighthouse would time that instead.
      await measure('login', '/login/email', `${origin}/login/email`);
      if (options.page === 'login') continue;
      // Each origin has its own localStorage, so log in on each.
      const page = await browser.context.newPage();
      await logIn(page, origin, 'tenant@demo.test', 'Demo#Tenant2026');
      await page.waitForURL(/\/t\/[^/]+\/$/, { timeout: 30_000 });
      const dashboard = page.url();
      await page.close();
      await measure('dashboard', 'dashboard', dashboard);
      await measure('charts', 'heat energy', `${dashboard}consumption/heat-energy`);
      await measure('charts', 'heat price', `${dashboard}consumption/heat-energy/price`);
      await measure('charts', 'indoor clim.', `${dashboard}consumption/indoor-climate`);
      // The other chart pages share heat energy's page, with other series (allocator units, volumes).
      await measure('charts', 'allocators', `${dashboard}consumption/hca`);
      await measure('charts', 'hot water', `${dashboard}consumption/hot-water-volume`);
    }
  } finally {
    await browser.close();
    if (child) await stop(child);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const page = arg('page');
  const form = arg('form');
  await benchLighthouse({
    runs: Number(arg('runs') ?? 3),
    base: arg('url'),
    page: page === 'login' || page === 'dashboard' || page === 'charts' ? page : undefined,
    form: form === 'mobile' || form === 'desktop' ? form : undefined,
  });
}
