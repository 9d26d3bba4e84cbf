/**
 * `npm run bench`: prints measured figures. Nothing here passes or fails on speed.
 *   1. ingest rate and tenantGraph latency under 20 concurrent clients, on PGlite and (when
 *      BENCH_DATABASE_URL or TEST_DATABASE_URL is set) on PostgreSQL;
 *   2. gzipped JS shipped per page, and Lighthouse (mobile, desktop) for /login/email, the dashboard and the chart
 *      pages (heat energy, its price page, indoor climate);
 *   3. time of the first and of a later `npm start` on a fresh clone, and /api/health while history loads;
 *   4. the MDN HTTP Observatory grade of the built app behind TLS (after 2, which builds it);
 *   5. the demo's bulk first load (730 days) in readings per second, on both engines;
 *   6. consumption operations (graph with comparisons, KPIs, table) under 20 concurrent clients;
 *   7. job queues: our jobs table, pg-boss and graphile-worker (jobs/s, duplicates, PGlite fit; tests/bench/queue.ts);
 *   8. live ingestion (tests/bench/ingest-live.ts): a late reading's cost, HTTP ingest against the bulk loader
 *      with tenantGraph under load and freshness, two properties at once, MQTT through a restarted broker;
 *   9. the console's portfolio overview with 1,000 properties and 24,000 apartments (tests/bench/portfolio.ts).
 * `npm run bench -- --scale [--sizes 24,240,2400] [--days 730] [--seconds 5]` runs only the scale bench on PostgreSQL
 * (tests/bench/scale.ts: ingest, size, latency and the worker's month-end pass per number of apartments).
 * Flags: --skip-api, --skip-js, --skip-lighthouse, --skip-start, --skip-observatory, --skip-ingest,
 * --skip-consumption, --skip-queue, --skip-ingest-live, --skip-portfolio; `--only <part>[,<part>…]` runs only those
 * parts (api, consumption, js, lighthouse, start, observatory, ingest, queue, ingest-live, portfolio, or one piece
 * of ingest-live: ingest-live:late, ingest-live:http, ingest-live:parallel, ingest-live:mqtt).
 */
import os from 'node:os';
import { benchApi } from './api.ts';
import { benchConsumption } from './consumption.ts';
import { benchIngestAll } from './ingest.ts';
import { benchIngestLive } from './ingest-live.ts';
import { benchJs } from './js.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchObservatory } from './observatory.ts';
import { benchPortfolio } from './portfolio.ts';
import { benchQueue } from './queue.ts';
import { benchScale, scaleOptions } from './scale.ts';
import { benchStart } from './start.ts';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',').filter(Boolean) : null;
const skips = new Set(args);
/** `--skip-<part>` not given, and `--only` (when given) names the part or one of its pieces. */
const flags = {
  has: (skip: string) => {
    const part = skip.replace(/^--skip-/, '');
    if (skips.has(skip)) return true;
    return only !== null && !only.some((o) => o === part || o.startsWith(`${part}:`));
  },
};
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (skips.has('--scale')) {
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  if (!pgUrl)
    throw new Error('--scale needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL=postgres://…');
  await benchScale(pgUrl, scaleOptions(args));
  process.exit(0);
}

console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
if (!flags.has('--skip-api')) {
  await benchApi('pglite');
  if (pgUrl) await benchApi('postgres', pgUrl);
  else console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL=postgres://… to include it)');
}
if (!flags.has('--skip-consumption')) {
  await benchConsumption('pglite');
  if (pgUrl) await benchConsumption('postgres', pgUrl);
}
if (!flags.has('--skip-js')) await benchJs();
if (!flags.has('--skip-lighthouse')) await benchLighthouse();
if (!flags.has('--skip-start')) await benchStart();
if (!flags.has('--skip-observatory')) await benchObservatory();
if (!flags.has('--skip-ingest')) await benchIngestAll(730, pgUrl);
if (!flags.has('--skip-queue')) await benchQueue(pgUrl);
if (!flags.has('--skip-ingest-live')) {
  const pieces = (only ?? [])
    .filter((o) => o.startsWith('ingest-live:'))
    .map((o) => o.slice('ingest-live:'.length));
  await benchIngestLive(pieces, pgUrl);
}
if (!flags.has('--skip-portfolio')) {
  await benchPortfolio('pglite');
  if (pgUrl) await benchPortfolio('postgres', pgUrl);
}
