/**
 * `npm start`: build if stale, migrate, seed demo data into an empty database, catch it up to the
 * current hour, then serve the web app and both backends from one process.
 */

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { DEMO_OPERATORS, DEMO_TOTP_SECRET } from './admin/demo.ts';
import { type Database, openBackgroundConnection } from './db/client.ts';
import { advertiseOrigin } from './db/dataDirLock.ts';
import { addDemoAlarms } from './demo/alarms.ts';
import { backfillDemo } from './demo/backfill.ts';
import { catchUpDemo } from './demo/catchUp.ts';
import { seedDemoDataIssues } from './demo/dataIssues.ts';
import { DEMO_ACTIVATION_CODE, DEMO_PASSWORD, DEMO_USERS } from './demo/logins.ts';
import { demoCodeUnused, demoDataDecision } from './demo/policy.ts';
import { progressPrinter } from './demo/progress.ts';
import { seedDemo } from './demo/seed.ts';
import { afterDemoSeed } from './demo/statements.ts';
import { isDatabaseEmpty } from './demo/stored.ts';
import { createAppServer } from './http.ts';
import { sharePeopleSignal } from './ingest/people.ts';
import { startEmbeddedWorker } from './jobs/embedded.ts';
import { checkNodeVersion } from './nodeVersion.ts';
import { appRoot } from './paths.ts';
import { getServices } from './runtime.ts';
import { getApiServices } from './services.ts';

const root = appRoot;
const entry = join(root, 'dist/server/entry.mjs');
/**
 * Running from the ahead-of-time server build (`npm run build`, then `node dist/server-node/start.mjs`): production
 * builds nothing at start and needs no dev tools; from the sources (`npm start`) it builds when sources are newer.
 */
const compiled = import.meta.url.includes('/dist/server-node/');

const demoEnv = z
  .object({
    /** Days of history to generate on first start. */
    DEMO_DAYS: z.coerce.number().int().min(1).max(3660).default(730),
    DEMO_APARTMENTS: z.coerce.number().int().min(3).max(500).default(24),
    /**
     * Days loaded (in bulk, one transaction) before the server starts listening; any older history loads in
     * the background, a day per transaction. Default: all of DEMO_DAYS.
     */
    DEMO_FIRST_DAYS: z.coerce.number().int().min(1).max(3660).optional(),
  })
  .parse(process.env);

/** Newest modification time under the given paths (files and folders, recursively). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of paths) visit(join(root, p));
  return newest;
}

/** Builds the web app when its sources are newer than the build; resolves when done (or not needed). */
async function buildIfStale(): Promise<void> {
  if (compiled) {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` before starting.`);
    return;
  }
  const sources = [
    'src/pages',
    'src/layouts',
    'src/islands',
    'src/client',
    'src/lib',
    'src/machines',
    'src/styles',
    'src/content',
    'src/server',
    'locales',
    'public',
    'astro.config.mjs',
    'package-lock.json',
  ];
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestMtime(sources)) return;
  console.log('Building the web app (first start, or sources changed)…');
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    // Always the production build, whatever NODE_ENV the caller has (test runners set "test").
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // If this process ends first (a failed seed, a signal), the build goes with it.
  const killChild = () => child.kill();
  process.once('exit', killChild);
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  }).finally(() => process.off('exit', killChild));
  if (status !== 0) throw new Error(`astro build failed (exit ${status})`);
  console.log(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

/**
 * Background backfill progress goes to the log every 15 s, so it does not interleave with the banner; on PGlite
 * with how long requests waited for the session behind it meanwhile (measured in the worker).
 */
function backfillPrinter(database: Database) {
  let lastPrinted = Date.now();
  return (p: { phase: string; done: number; total: number }) => {
    const now = Date.now();
    if (now - lastPrinted < 15_000 && p.done < p.total) return;
    lastPrinted = now;
    if (p.total === 0) return;
    const progress = `  demo history: ${Math.floor((100 * p.done) / p.total)}% of ${p.total} older hours loaded`;
    if (!database.waitsBehindBackground) {
      console.log(progress);
      return;
    }
    void database.waitsBehindBackground().then((waits) => {
      const max = waits.reduce((m, w) => Math.max(m, w), 0);
      console.log(
        `${progress}; requests waited behind it ${waits.length} times, at most ${max.toFixed(1)} ms`,
      );
    });
  };
}

/** Start-up phases in order, wall seconds each, printed with the banner (and read by the start bench). */
const phases: [string, number][] = [];
async function phase<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    phases.push([name, (performance.now() - started) / 1000]);
  }
}

async function main(): Promise<void> {
  checkNodeVersion();
  const t0 = performance.now();
  // The build runs alongside the database work below (a first start seeds for most of a minute, mostly in
  // PGlite's thread), and is awaited before the server loads the built app.
  const building = phase('build (alongside)', buildIfStale);
  // Awaited below; this only keeps a failed build from counting as unhandled meanwhile.
  building.catch(() => {});
  const services = await phase('database and migrations', getServices);
  const { database, config, logger } = services;
  const engine = database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';

  const demo = demoDataDecision(process.env, database.engine);
  if (!demo.load) console.log(`Demo data off (${demo.why}).`);
  if (demo.load) {
    const seeding = await isDatabaseEmpty(database.db);
    if (seeding) {
      console.log(`Seeding demo data (${demoEnv.DEMO_DAYS} days, ${demoEnv.DEMO_APARTMENTS} apartments)…`);
      await phase('demo history', () =>
        seedDemo(database.db, {
          now: new Date(),
          days: demoEnv.DEMO_DAYS,
          apartments: demoEnv.DEMO_APARTMENTS,
          recentDays: demoEnv.DEMO_FIRST_DAYS ?? demoEnv.DEMO_DAYS,
          onProgress: progressPrinter('seed'),
        }),
      );
      // A few misreads in the data-quality queue, for the operator console (demo/dataIssues.ts).
      await phase('demo data issues', () => seedDemoDataIssues(database.db, new Date()));
    }
    const caughtUp = await phase('catch-up', () =>
      catchUpDemo(database.db, { now: new Date(), onProgress: progressPrinter('catch-up') }),
    );
    await phase('alarms', () => addDemoAlarms(database.db, new Date()));
    // Statements and reports depend on the readings and on the current month. A restart within the hour
    // changed neither (a month's turn means new hours to catch up), so it skips their seconds of work.
    if (seeding || caughtUp.hours > 0) {
      await phase('statements and reports', () => afterDemoSeed(database.db, new Date()));
    }
    // Keep demo data current while the server runs; each run is idempotent.
    const timer = setInterval(
      () => {
        catchUpDemo(database.db, { now: new Date() }).catch((err: unknown) =>
          logger.error({ err }, 'demo catch-up failed'),
        );
      },
      15 * 60 * 1000,
    );
    timer.unref();
  }

  await building;
  const stopWorker = startEmbeddedWorker(services);

  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const serveStarted = performance.now();
  const { handler } = (await import(entry)) as { handler: Parameters<typeof createServer>[1] };
  // API first, then the client build's files (precompressed), then Astro's pages; see http.ts.
  const server = createAppServer({
    services: await getApiServices(),
    astroHandler: handler,
    clientDir: join(root, 'dist/client'),
  });
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  phases.push(['server', (performance.now() - serveStarted) / 1000]);
  // On PostgreSQL, people using another app process slow this one's ingestion too (ingest/people.ts).
  const stopSharing = await sharePeopleSignal(database, logger);
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;

  // The signal handlers before the banner: a supervisor (or a bench) may stop the app as soon as it says where it
  // serves. A SIGTERM sent between the banner and these handlers (the demo's logins are printed after a query)
  // neither ended the process nor reached these, so some listener took it (which one was not found), and the app
  // went on running.
  let stopping = false;
  let backfill: Promise<unknown> = Promise.resolve();
  const shutdown = (signal: string) => {
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    server.close();
    server.closeAllConnections();
    // Let the day being loaded commit and the worker stop (a job's transaction, the MQTT subscriber's last
    // telegrams and status; 5 s at most), then close the database cleanly.
    const workerStopped = Promise.race([
      stopWorker().catch((err: unknown) => logger.error({ err }, 'stopping the worker failed')),
      new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
    ]);
    Promise.all([backfill, workerStopped, stopSharing().catch(() => {})])
      .then(() => database.close())
      .catch((err: unknown) => logger.error({ err }, 'closing the database failed'))
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  console.log(`\nTenant app ready in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${engine}.`);
  console.log(`  Start-up phases (s): ${phases.map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', ')}`);
  console.log(`  Open http://${host}:${port}/`);
  // The CLI beside this server prints links with this origin (its lock answers with it, see dataDirLock.ts).
  advertiseOrigin(process.env.APP_URL ? config.APP_URL : `http://${host}:${port}`);
  if (demo.load) {
    console.log(`  Demo logins (password ${DEMO_PASSWORD}):`);
    for (const user of DEMO_USERS) console.log(`    ${user.email.padEnd(18)} ${user.description}`);
    for (const op of DEMO_OPERATORS) console.log(`    ${op.email.padEnd(18)} ${op.description}`);
    console.log(
      `  Operator console: http://${host}:${port}/admin (second factor: TOTP key ${DEMO_TOTP_SECRET})`,
    );
    // A stop asked meanwhile closes the database under this query: nothing to print then.
    const unused = await demoCodeUnused(database.db).catch((err: unknown) => {
      if (stopping) return false;
      throw err;
    });
    if (unused) console.log(`  Unused activation code: ${DEMO_ACTIVATION_CODE}`);
  }

  if (demo.load) {
    // Older history loads an hour per transaction while the app serves, on a background connection that
    // requests go before (on PGlite); a restart resumes it.
    const started = performance.now();
    backfill = openBackgroundConnection(database)
      .then(async (background) => {
        try {
          const { hours } = await backfillDemo(background.db, {
            shouldStop: () => stopping,
            onProgress: backfillPrinter(database),
          });
          if (hours === 0) return;
          // Reports compare with last year, which the backfill has only now loaded.
          await afterDemoSeed(background.db, new Date());
          logger.info(
            { hours, seconds: Math.round((performance.now() - started) / 1000) },
            'demo history loaded',
          );
        } finally {
          await background.close();
        }
      })
      .catch((err: unknown) => logger.error({ err }, 'demo backfill failed'));
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
