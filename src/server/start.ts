/**
 * `npm start`: build if stale, migrate, seed demo data into an empty database, catch it up to the
 * current hour, then serve the web app and both backends from one process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { catchUpDemo, DEMO_PASSWORD, DEMO_USERS, isDatabaseEmpty, seedDemo } from './demo/seed.ts';
import { getServices } from './runtime.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = join(root, 'dist/server/entry.mjs');

const demoEnv = z
  .object({
    /** Days of history to generate on first start. */
    DEMO_DAYS: z.coerce.number().int().min(1).max(3660).default(730),
    DEMO_APARTMENTS: z.coerce.number().int().min(3).max(500).default(24),
    /** Set to 0 to start without demo data. */
    DEMO_DATA: z.enum(['0', '1']).default('1'),
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

function buildIfStale(): void {
  const sources = [
    'src/pages',
    'src/layouts',
    'src/islands',
    'src/client',
    'src/lib',
    'src/machines',
    'src/styles',
    'src/components',
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
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status})`);
  console.log(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

function progressPrinter(label: string) {
  let lastPrinted = 0;
  return (p: { phase: string; done: number; total: number }) => {
    const now = Date.now();
    if (now - lastPrinted < 1000 && p.done < p.total) return;
    lastPrinted = now;
    const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100;
    console.log(`  ${label}: ${p.phase} ${pct}% (${p.done}/${p.total})`);
  };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  buildIfStale();
  const services = await getServices();
  const { database, config, logger } = services;
  const engine = database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';

  if (demoEnv.DEMO_DATA === '1') {
    if (await isDatabaseEmpty(database.db)) {
      console.log(`Seeding demo data (${demoEnv.DEMO_DAYS} days, ${demoEnv.DEMO_APARTMENTS} apartments)…`);
      await seedDemo(database.db, {
        now: new Date(),
        days: demoEnv.DEMO_DAYS,
        apartments: demoEnv.DEMO_APARTMENTS,
        onProgress: progressPrinter('seed'),
      });
    }
    await catchUpDemo(database.db, { now: new Date(), onProgress: progressPrinter('catch-up') });
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

  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const { handler } = (await import(entry)) as { handler: Parameters<typeof createServer>[1] };
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;

  console.log(`\nTenant app ready in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${engine}.`);
  console.log(`  Open http://${host}:${port}/`);
  if (demoEnv.DEMO_DATA === '1') {
    console.log(`  Demo logins (password ${DEMO_PASSWORD}):`);
    for (const user of DEMO_USERS) console.log(`    ${user.email.padEnd(18)} ${user.description}`);
    console.log('  Unused activation code: DEMOACTIVATE');
  }

  const shutdown = (signal: string) => {
    console.log(`\n${signal}: shutting down…`);
    server.close();
    server.closeAllConnections();
    database
      .close()
      .catch((err: unknown) => logger.error({ err }, 'closing the database failed'))
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
