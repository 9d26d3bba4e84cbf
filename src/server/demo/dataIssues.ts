/**
 * The demo's data-quality queue. A first start sends three misreads of the kinds a metering company meets
 * through the ingestion path, as a gateway would, so the operator console's Data quality page shows the queue
 * with its evidence, and an operator can try accepting or rejecting one:
 * - a heat register read with its decimal point shifted (5,456.0 read as 545.6: "digit-shift");
 * - a cold-water register that drops to a third, which is no reset near zero ("drop");
 * - an electricity register that rises 5,000 kWh in half an hour ("jump").
 * Each lies half-way between two of the meter's hourly readings, so the hour it sat in turns unknown until the
 * operator decides, as for a real misread (docs/ingest.md, "Suspect readings"). They are in apartments 4–6,
 * whose tenancies have no demo login, so the demo tenants' own figures stay whole. The queue's other kinds, a
 * silent and a stuck meter, are in the demo's history itself (model.ts, apartments 7 and 8), for the worker's
 * meter check to find.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { ingestBatch, type ReadingRow } from '../ingest/ingest.ts';
import { HOUR_MS, PROPERTY_NUMBER } from './model.ts';
import { floorHour } from './simulate.ts';

/** Where the data issues say the readings came from. */
export const DEMO_ISSUE_SOURCE = 'demo';

interface DemoMisread {
  /** The meter's number, before the property number and apartment. */
  prefix: string;
  apartment: number;
  /** The hour before the misread, in hours before the newest whole hour. */
  hoursAgo: number;
  /** The misread value from the reading an hour before it (numbers of the register's scale). */
  misread: (value: number) => number;
}

const MISREADS: DemoMisread[] = [
  { prefix: 'EN', apartment: 4, hoursAgo: 29, misread: (v) => v / 10 },
  { prefix: 'CW', apartment: 5, hoursAgo: 53, misread: (v) => v * 0.3 },
  { prefix: 'EL', apartment: 6, hoursAgo: 6, misread: (v) => v + 5000 },
];

/**
 * Sends the demo's misreads (source `demo`) and returns how many readings the ingestion quarantined. A misread
 * whose meter or hour the demo does not have (fewer apartments, a shorter history) is left out.
 */
export async function seedDemoDataIssues(db: Db, now: Date): Promise<number> {
  const newest = floorHour(now);
  const rows: ReadingRow[] = [];
  for (const m of MISREADS) {
    const number = `${m.prefix}-${PROPERTY_NUMBER}-${String(m.apartment).padStart(3, '0')}`;
    const before = new Date(newest - m.hoursAgo * HOUR_MS);
    const [stored] = await queryRows<{ value: string }>(
      db,
      sql`SELECT r.value::text AS value FROM register_readings r JOIN meters m ON m.id = r.meter_id
          WHERE m.number = ${number} AND r.ts = ${before.toISOString()}::timestamptz`,
    );
    if (!stored) continue;
    rows.push({
      line: rows.length + 1,
      meterNumber: number,
      ts: new Date(before.getTime() + HOUR_MS / 2).toISOString(),
      value: m.misread(Number(stored.value)).toFixed(3),
    });
  }
  if (rows.length === 0) return 0;
  const receipt = await ingestBatch(db, rows, { source: DEMO_ISSUE_SOURCE, now });
  return receipt.quarantined;
}
