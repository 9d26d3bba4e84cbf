/**
 * Loads the demo dataset: one Danish property with its apartments, tenancies, meters, prices, CO2
 * factors and demo users, then two years of hourly readings through the ingestion path. backfill.ts loads
 * older history later, and catchUp.ts catches the readings up to the current hour.
 */
import type { Db } from '../db/client.ts';
import { refreshStatistics } from '../db/sql.ts';
import { bulkLoadIntoEmpty, type PhaseTimings, type ReadingRow, timed } from '../ingest/ingest.ts';
import { seedMeters } from './meters.ts';
import { buildPlan, DEMO_SEED, type DemoPlan, HOUR_MS } from './model.ts';
import { hashDemoPasswords, seedPeople } from './people.ts';
import type { DemoProgress } from './progress.ts';
import { seedProperty } from './property.ts';
import { floorHour, freshState, simulate } from './simulate.ts';
import { META_FIRST_HOUR, META_LAST_HOUR, META_PLAN, type StoredPlan, setMeta } from './stored.ts';
import { seedTenancies } from './tenancies.ts';

export interface SeedOptions {
  now: Date;
  /** Days of history; default 730. */
  days?: number;
  /** Apartments; default 24, at least 3. */
  apartments?: number;
  onProgress?: (p: DemoProgress) => void;
  /** Load only this many recent days now; backfillDemo loads the older history later. Default: all. */
  recentDays?: number;
  /** Where to add per-phase wall times (seconds). */
  timings?: PhaseTimings;
}

/** Creates the account, property, apartments, tenancies, meters, prices and users in one transaction. */
async function seedEntities(db: Db, plan: DemoPlan, stored: StoredPlan, now: Date): Promise<void> {
  const passwordHashes = await hashDemoPasswords();
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const { accountId, propertyId } = await seedProperty(tx, plan, now.getUTCFullYear());
    const seeded = await seedTenancies(tx, plan, propertyId, now);
    await seedMeters(tx, plan, propertyId, seeded.apartmentIds);
    await seedPeople(tx, plan, accountId, seeded, passwordHashes);
    await setMeta(tx, META_PLAN, JSON.stringify(stored));
  });
}

/** Days of readings generated per batch of the first load (bounds the memory the generator holds). */
const BULK_BATCH_HOURS = 24 * 28;

/**
 * Creates the demo dataset, deterministically for a given `now`, days and apartments, in one transaction:
 * a crash leaves an empty database, which the next start seeds again. The readings go through the ingestion
 * rules in bulk (bulkLoadIntoEmpty), generated in four-week batches; progress is reported per batch.
 * With `recentDays`, only that many recent days are loaded now, and backfillDemo loads the rest.
 */
export async function seedDemo(db: Db, opts: SeedOptions): Promise<void> {
  const days = opts.days ?? 730;
  const apartmentCount = Math.max(3, opts.apartments ?? 24);
  const endMs = floorHour(opts.now);
  const startMs = endMs - days * 24 * HOUR_MS;
  const stored: StoredPlan = { version: 1, seed: DEMO_SEED, apartments: apartmentCount, startMs, endMs };
  const plan = buildPlan({ apartments: apartmentCount, startMs, endMs, seed: stored.seed });
  const recentDays = Math.min(days, opts.recentDays ?? days);
  const fromMs = endMs - recentDays * 24 * HOUR_MS;
  const state = freshState(plan);
  // Registers continue from the start of history, so bring the state to the first loaded hour.
  if (fromMs > startMs) simulate(plan, state, startMs, fromMs - HOUR_MS);
  const total = (endMs - fromMs) / HOUR_MS + 1;
  function* batches(): Generator<ReadingRow[]> {
    for (let batchStart = fromMs; batchStart <= endMs; batchStart += BULK_BATCH_HOURS * HOUR_MS) {
      const batchEnd = Math.min(endMs, batchStart + (BULK_BATCH_HOURS - 1) * HOUR_MS);
      const rows: ReadingRow[] = [];
      const t = performance.now();
      simulate(plan, state, batchStart, batchEnd, rows);
      const wall = opts.timings?.wall;
      if (wall) wall['generate (JS)'] = (wall['generate (JS)'] ?? 0) + (performance.now() - t) / 1000;
      yield rows;
      opts.onProgress?.({ phase: 'readings', done: (batchEnd - fromMs) / HOUR_MS + 1, total });
    }
  }
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    opts.onProgress?.({ phase: 'property, apartments and users', done: 0, total: 1 });
    await timed(opts.timings, 'entities and users', () => seedEntities(tx, plan, stored, opts.now));
    opts.onProgress?.({ phase: 'property, apartments and users', done: 1, total: 1 });
    opts.onProgress?.({ phase: 'readings', done: 0, total });
    await bulkLoadIntoEmpty(tx, batches(), { now: opts.now, timings: opts.timings });
    await setMeta(tx, META_FIRST_HOUR, new Date(fromMs).toISOString());
    await setMeta(tx, META_LAST_HOUR, new Date(endMs).toISOString());
  });
  // Planner statistics of what was just loaded.
  await timed(opts.timings, 'analyze', () => db.transaction((tx) => refreshStatistics(tx as unknown as Db)));
}
