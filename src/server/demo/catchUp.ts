/** Brings the demo readings up to the current hour, continuing each meter's register from its stored value. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgTextArray, queryRows } from '../db/sql.ts';
import { ingestReadings, type ReadingRow } from '../ingest/ingest.ts';
import { type DemoPlan, HOUR_MS, parseScaled } from './model.ts';
import type { DemoProgress } from './progress.ts';
import { activeMeter, floorHour, type StreamState, simulate } from './simulate.ts';
import { getMeta, loadPlan, META_LAST_HOUR, setMeta } from './stored.ts';

/** Hours of readings per ingestion batch (one transaction each). */
const BATCH_HOURS = 168;

/** Generates and ingests the hours fromMs..toMs forwards, one batch (transaction) per BATCH_HOURS. */
async function ingestForward(
  db: Db,
  plan: DemoPlan,
  state: StreamState[],
  fromMs: number,
  toMs: number,
  phase: string,
  onProgress?: (p: DemoProgress) => void,
): Promise<number> {
  const total = Math.max(0, (toMs - fromMs) / HOUR_MS + 1);
  let readings = 0;
  onProgress?.({ phase, done: 0, total });
  for (let batchStart = fromMs; batchStart <= toMs; batchStart += BATCH_HOURS * HOUR_MS) {
    const batchEnd = Math.min(toMs, batchStart + (BATCH_HOURS - 1) * HOUR_MS);
    const rows: ReadingRow[] = [];
    simulate(plan, state, batchStart, batchEnd, rows);
    await ingestReadings(db, rows, { bulk: true });
    await setMeta(db, META_LAST_HOUR, new Date(batchEnd).toISOString());
    readings += rows.length;
    onProgress?.({ phase, done: (batchEnd - fromMs) / HOUR_MS + 1, total });
  }
  return readings;
}

/**
 * Generates readings from the last generated hour up to the current hour, continuing each meter's
 * register from its stored value. Safe to run any time; does nothing when there is no gap.
 */
export async function catchUpDemo(
  db: Db,
  opts: { now: Date; onProgress?: (p: DemoProgress) => void },
): Promise<{ hours: number; readings: number }> {
  const loaded = await loadPlan(db);
  const lastText = await getMeta(db, META_LAST_HOUR);
  if (!loaded || !lastText) return { hours: 0, readings: 0 };
  const { plan } = loaded;
  const lastMs = Date.parse(lastText);
  const toMs = floorHour(opts.now);
  if (toMs <= lastMs) return { hours: 0, readings: 0 };

  const state = plan.streams.map((s) => ({ meter: activeMeter(s, lastMs), value: 0 }));
  const registerNumbers = plan.streams.flatMap((s, j) =>
    s.readingKind === 'register' ? [s.meters[state[j]!.meter]!.number] : [],
  );
  const lastValues = await queryRows<{ number: string; value: string | null }>(
    db,
    sql`SELECT m.number, (SELECT r.value::text FROM register_readings r WHERE r.meter_id = m.id
                          ORDER BY r.ts DESC LIMIT 1) AS value
        FROM meters m WHERE m.number = ANY(${pgTextArray(registerNumbers)}::text[])`,
  );
  const byNumber = new Map(lastValues.map((r) => [r.number, r.value]));
  plan.streams.forEach((s, j) => {
    if (s.readingKind !== 'register') return;
    const value = byNumber.get(s.meters[state[j]!.meter]!.number);
    state[j]!.value = value ? parseScaled(value, s.decimals) : s.initial;
  });
  const readings = await ingestForward(db, plan, state, lastMs + HOUR_MS, toMs, 'catch-up', opts.onProgress);
  return { hours: (toMs - lastMs) / HOUR_MS, readings };
}
