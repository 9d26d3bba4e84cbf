/**
 * Live ingestion (issue 19), four parts, each runnable alone:
 *   node --import tsx tests/bench/ingest-live.ts [late] [http] [parallel] [mqtt]   (no part named: all four)
 * and in `npm run bench` (`--skip-ingest-live` leaves them out, `--only ingest-live` runs only them). PGlite
 * always; PostgreSQL too with BENCH_DATABASE_URL or TEST_DATABASE_URL. Every figure is printed beside a
 * reference measured in the same run, with the machine and its load average, since the machine is shared.
 *
 * - late: one late reading a month back, filling a gap of a register (the hours around it, their days and
 *   month, the property's rollups and the late-data check): statements and milliseconds, for two history lengths.
 * - http: 4 clients posting 1,000-row batches to POST /api/ingest/v1/readings, as a ratio to the bulk loader's
 *   rate in the same run; tenantGraph p95 while that runs, against its idle p95; and freshness, from a POST's
 *   answer until tenantGraph shows the hour (p95).
 * - parallel: two properties ingesting batches at once, against one alone (per-property locks).
 * - mqtt: telegrams per second through a real broker (mosquitto) restarted halfway, and how many were lost.
 *
 * Each part is in ingest-live/<part>.ts; what they share (the machine line, p95, two bare properties) in
 * ingest-live/common.ts.
 */
import { benchHttp } from './ingest-live/http.ts';
import { benchLate } from './ingest-live/late.ts';
import { benchMqtt } from './ingest-live/mqtt.ts';
import { benchParallel } from './ingest-live/parallel.ts';

/** The parts named (all when none), on PGlite and, with a URL, PostgreSQL. */
export async function benchIngestLive(parts: string[], pgUrl?: string): Promise<void> {
  const wanted = (p: string) => parts.length === 0 || parts.includes(p);
  // BENCH_ENGINES=postgres (or pglite) runs one engine only.
  const only = process.env.BENCH_ENGINES?.split(',');
  const engines: ['pglite' | 'postgres', string | undefined][] = [];
  if (!only || only.includes('pglite')) engines.push(['pglite', undefined]);
  if (pgUrl && (!only || only.includes('postgres'))) engines.push(['postgres', pgUrl]);
  for (const [engine, url] of engines) {
    if (wanted('late')) await benchLate(engine, url);
    if (wanted('http')) await benchHttp(engine, url);
    if (wanted('parallel')) await benchParallel(engine, url);
    if (wanted('mqtt')) await benchMqtt(engine, url);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchIngestLive(
    process.argv.slice(2),
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  );
}
