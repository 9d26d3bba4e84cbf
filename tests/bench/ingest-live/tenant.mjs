// @ts-check
/**
 * The HTTP bench's tenant, in a worker thread of its own, as clients.mjs is for the ingest clients: a tenant's
 * phone does not share the server's event loop, so the time measured is the server's answer, not also the wait
 * of the bench's own fetch and JSON parsing behind the server's work. It asks `request` (one tenantGraph POST)
 * again and again: `{ count }` asks that many times; `{ start: true }` until `{ stop: true }`, each request as soon
 * as the one before is answered, or with `everyMs` one every that many ms (an open loop). Each run answers
 * with the milliseconds of each request, and the CPU its thread used meanwhile (ms).
 *
 * Plain JavaScript, like src/server/db/pglite-worker.mjs, so that it runs in a worker without a loader.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, token: string, body: string }} */
const { url, token, body } = workerData;
let stopped = false;

async function ask() {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  const answer = /** @type {{ errors?: { message: string }[] }} */ (await res.json());
  if (res.status !== 200 || answer.errors?.length)
    throw new Error(`tenantGraph failed: ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

parentPort?.on(
  'message',
  async (/** @type {{ count?: number, start?: boolean, everyMs?: number, stop?: boolean }} */ m) => {
    if (m.stop) {
      stopped = true;
      return;
    }
    /** @type {number[]} */
    const ms = [];
    const cpu0 = process.threadCpuUsage();
    try {
      if (m.count !== undefined) for (let i = 0; i < m.count; i++) ms.push(await ask());
      else if (m.everyMs !== undefined) {
        // Open loop: a request every `everyMs`, whether the ones before have been answered or not, as people
        // arriving on their own would; a closed loop asks more often while answers are quick, and so under-weights
        // the slow moments (coordinated omission).
        stopped = false;
        /** @type {Promise<void>[]} */
        const inFlight = [];
        let next = performance.now();
        while (!stopped) {
          inFlight.push(ask().then((t) => void ms.push(t)));
          next += m.everyMs;
          const wait = next - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        await Promise.all(inFlight);
      } else {
        stopped = false;
        while (!stopped) ms.push(await ask());
      }
      const cpu = process.threadCpuUsage(cpu0);
      parentPort?.postMessage({ ms, cpuMs: (cpu.user + cpu.system) / 1000 });
    } catch (err) {
      parentPort?.postMessage({ error: String(err) });
    }
  },
);
