/** Part "parallel" of the live-ingestion bench (tests/bench/ingest-live.ts). */
import { ingestBatch, type ReadingRow } from '../../../src/server/ingest/ingest.ts';
import { openBenchDatabase } from '../api.ts';
import { HOUR, machine, twoProperties } from './common.ts';

/** Part "parallel": two properties ingesting at once, against one alone. */
export async function benchParallel(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  console.log(`\n== Two properties ingesting at once (${engine}), 20 batches of 1,000 readings each ==`);
  console.log(`machine: ${machine()}`);
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  try {
    const [a, b] = await twoProperties(database.db, 50);
    const start = Math.floor(Date.now() / HOUR) * HOUR - 90 * 24 * HOUR;
    const run = async (numbers: string[], fromHour: number, batches: number) => {
      for (let k = 0; k < batches; k++) {
        const rows: ReadingRow[] = [];
        for (let h = 0; h < 20; h++) {
          const hour = fromHour + k * 20 + h;
          const ts = new Date(start + hour * HOUR).toISOString();
          for (const number of numbers)
            rows.push({ line: rows.length + 2, meterNumber: number, ts, value: (hour * 0.5).toFixed(3) });
        }
        await ingestBatch(database.db, rows, { now: new Date() });
      }
    };
    let t = performance.now();
    await run(a!, 0, 20);
    const alone = (performance.now() - t) / 1000;
    t = performance.now();
    await Promise.all([run(a!, 400, 20), run(b!, 0, 20)]);
    const both = (performance.now() - t) / 1000;
    const rateAlone = 20_000 / alone;
    const rateBoth = 40_000 / both;
    console.log(
      `one property alone: ${Math.round(rateAlone).toLocaleString('en')} readings/s; two at once: ` +
        `${Math.round(rateBoth).toLocaleString('en')} readings/s together = ${(rateBoth / rateAlone).toFixed(2)}× the one`,
    );
  } finally {
    await database.close();
    await cleanup();
  }
}
