/**
 * A load generator in a worker thread, so that its own CPU use does not run on the server's event loop:
 * autocannon with the given options; answers with req/s and latency percentiles of every response.
 */
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Requests per second over all connections; unlimited when unset. */
  overallRate?: number;
  /** Seconds a response may take before it counts as an error; autocannon's default 10 when unset. */
  timeout?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** CPU time of this load generator's thread, in microseconds. */
  loaderCpuUs: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

const options = workerData as LoadOptions;
const cpuAtStart = process.threadCpuUsage();
const latencies: number[] = [];
const instance = autocannon(
  {
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    ...(options.timeout ? { timeout: options.timeout } : {}),
  },
  (err, result) => done(err, result),
);
instance.on('response', (_client, _status, _bytes, responseTime) => {
  latencies.push(responseTime);
});
function done(err: Error | null, result: autocannon.Result) {
  if (err) throw err;
  latencies.sort((a, b) => a - b);
  const out: LoadResult = {
    requests: latencies.length,
    rps: latencies.length / options.duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    loaderCpuUs: ((cpu) => cpu.user + cpu.system)(process.threadCpuUsage(cpuAtStart)),
  };
  parentPort?.postMessage(out);
}
