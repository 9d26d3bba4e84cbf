/**
 * knip (part of `npm run lint`): unused files, exports and dependencies, and dependencies used but not listed.
 * Astro pages, layouts and config, Vitest, Playwright, Drizzle and the package.json scripts are found by its
 * plugins; this lists only what they miss.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    // Loaded by `<script src>` in .astro files, which the Astro plugin does not follow.
    'src/**/*.client.ts',
    // Started as worker threads by path (src/server/db/client.ts, src/server/ingest/csv.ts).
    'src/server/db/pglite-worker.mjs',
    'src/server/ingest/csv-worker.mjs',
    // Named in astro.config.mjs as @sentry/astro's clientInitPath / serverInitPath.
    'src/*/sentry.*.config.ts',
    // Run by path: `node --import tsx tests/bench/<name>.ts`, `node scripts/<name>.mjs`.
    'tests/bench/*.ts',
    'scripts/*.mjs',
  ],
  // Written by `npm run codegen`: all of the schema and operations, used or not.
  ignore: ['**/*.generated.ts', 'src/client/gql/**'],
  // tests/bench/observatory.ts runs the system's openssl; tests/api/backup.test.ts PostgreSQL's pg_dump/pg_restore.
  ignoreBinaries: ['openssl', 'pg_dump', 'pg_restore'],
};

export default config;
