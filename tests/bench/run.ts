/**
 * `npm run bench`: prints measured figures. Nothing here passes or fails on speed.
 *   1. ingest rate and tenantGraph latency under 20 concurrent clients, on PGlite and (when
 *      BENCH_DATABASE_URL or TEST_DATABASE_URL is set) on PostgreSQL;
 *   2. gzipped JS shipped for /login/email and the dashboard;
 *   3. time of the first and of a later `npm start` on a fresh clone, and /api/health while history loads;
 *   4. the demo's bulk first load (730 days) in readings per second, on both engines.
 * Flags: --skip-api, --skip-js, --skip-start, --skip-ingest.
 */
import os from 'node:os';
import { benchApi } from './api.ts';
import { benchIngestAll } from './ingest.ts';
import { benchJs } from './js.ts';
import { benchStart } from './start.ts';

const flags = new Set(process.argv.slice(2));
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
if (!flags.has('--skip-api')) {
  await benchApi('pglite');
  if (pgUrl) await benchApi('postgres', pgUrl);
  else console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL=postgres://… to include it)');
}
if (!flags.has('--skip-js')) await benchJs();
if (!flags.has('--skip-start')) await benchStart();
if (!flags.has('--skip-ingest')) await benchIngestAll(730, pgUrl);
