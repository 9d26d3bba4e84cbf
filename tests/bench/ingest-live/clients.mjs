// @ts-check
/**
 * The HTTP bench's 4 ingest clients, in a worker thread of their own: a real integrator's clients run on other
 * machines, so their work (sending the CSV bodies, reading the receipts) does not take turns with the server's
 * on its event loop. They still share the machine's cores. For each message (one list of CSV bodies per
 * client), each client posts its bodies one after another, each as soon as the answer to the one before has
 * come; the worker answers with the rows accepted and the CPU its thread used meanwhile (ms). The bench sends its warm-up through the same worker, so the
 * timed phases pay neither the thread's start nor its HTTP client's.
 *
 * Plain JavaScript, like src/server/db/pglite-worker.mjs, so that it runs in a worker without a loader.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, key: string }} */
const { url, key } = workerData;

parentPort?.on('message', async (/** @type {{ clients: string[][] }} */ { clients }) => {
  let accepted = 0;
  const cpu0 = process.threadCpuUsage();
  try {
    await Promise.all(
      clients.map(async (bodies) => {
        for (const body of bodies) {
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
            body,
          });
          if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
          const receipt = /** @type {{ totals: { accepted: number } }} */ (await res.json());
          accepted += receipt.totals.accepted;
        }
      }),
    );
    const cpu = process.threadCpuUsage(cpu0);
    parentPort?.postMessage({ accepted, cpuMs: (cpu.user + cpu.system) / 1000 });
  } catch (err) {
    parentPort?.postMessage({ error: String(err) });
  }
});
