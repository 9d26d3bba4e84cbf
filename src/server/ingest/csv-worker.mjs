// @ts-check
/**
 * CSV parsing off the HTTP thread (csvInWorker in csv.ts): a batch of 1,000 rows takes csv-parse about 4 ms,
 * during which every other request on that thread waits. This worker parses a body with the options it was
 * started with and answers its records and their line numbers; csv.ts checks the header and makes the rows, as
 * it does for a file parsed in place.
 *
 * Plain JavaScript (checked by TypeScript through JSDoc), like pglite-worker.mjs, so that it runs in a worker
 * without a loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CsvError, parse } from 'csv-parse/sync';

/** @type {{ options: import('csv-parse/sync').Options }} */
const { options } = workerData;

parentPort?.on('message', (/** @type {{ id: number, body: Uint8Array }} */ { id, body }) => {
  try {
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    const parsed = /** @type {{ record: string[], info: { lines: number } }[]} */ (
      /** @type {unknown} */ (parse(text, { ...options, info: true }))
    );
    const lines = new Int32Array(parsed.length);
    const records = parsed.map(({ record, info }, i) => {
      lines[i] = info.lines;
      return record;
    });
    parentPort?.postMessage({ id, records, lines }, [lines.buffer]);
  } catch (err) {
    const csv = err instanceof CsvError;
    parentPort?.postMessage({
      id,
      error: {
        csv,
        message: err instanceof Error ? err.message : String(err),
        line: csv ? Number(/** @type {{ lines?: number }} */ (err).lines ?? 0) : 0,
      },
    });
  }
});
