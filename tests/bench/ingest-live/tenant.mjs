// @ts-check
/**
 * The HTTP bench's tenant, in a worker thread of its own, as clients.mjs is for the ingest clients: a tenant's
 * phone does not share the server's event loop, so the time measured is the server's answer, not also the wait
 * of the bench's own fetch and JSON parsing behind the server's work. It asks `request` (one tenantGraph POST)
 * again and again: `{ count }` asks that many times; `{ start: true }` until `{ stop: true }`. Each run answers
 * with the milliseconds of each request.
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

parentPort?.on('message', async (/** @type {{ count?: number, start?: boolean, stop?: boolean }} */ m) => {
  if (m.stop) {
    stopped = true;
    return;
  }
  /** @type {number[]} */
  const ms = [];
  try {
    if (m.count !== undefined) for (let i = 0; i < m.count; i++) ms.push(await ask());
    else {
      stopped = false;
      while (!stopped) ms.push(await ask());
    }
    parentPort?.postMessage({ ms });
  } catch (err) {
    parentPort?.postMessage({ error: String(err) });
  }
});
