/**
 * What the database keeps about the demo dataset (app_meta): the plan it was generated from, and the first and
 * last hours of readings loaded so far. Seed, backfill and catch-up read and move these markers.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appMeta } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { buildPlan, type DemoPlan } from './model.ts';

export const META_PLAN = 'demo.plan';
export const META_LAST_HOUR = 'demo.lastHour';
export const META_FIRST_HOUR = 'demo.firstHour';

/** The inputs of buildPlan, as stored: enough to rebuild the same plan later. */
export interface StoredPlan {
  version: 1;
  seed: number;
  apartments: number;
  startMs: number;
  endMs: number;
}

/** True when the database holds no property and no user: a fresh install. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ empty: boolean }>(
    db,
    sql`SELECT NOT EXISTS (SELECT 1 FROM properties) AND NOT EXISTS (SELECT 1 FROM users) AS empty`,
  );
  return row?.empty === true;
}

/** True when the demo dataset has been created here. */
export async function isDemoSeeded(db: Db): Promise<boolean> {
  const rows = await db.select({ key: appMeta.key }).from(appMeta).where(eq(appMeta.key, META_PLAN));
  return rows.length > 0;
}

export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key, value })
    .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: new Date() } });
}

export async function getMeta(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
  return row?.value;
}

/** The stored plan and the plan rebuilt from it; undefined when the demo was never seeded here. */
export async function loadPlan(db: Db): Promise<{ stored: StoredPlan; plan: DemoPlan } | undefined> {
  const text = await getMeta(db, META_PLAN);
  if (!text) return undefined;
  const stored = JSON.parse(text) as StoredPlan;
  const plan = buildPlan({
    apartments: stored.apartments,
    startMs: stored.startMs,
    endMs: stored.endMs,
    seed: stored.seed,
  });
  return { stored, plan };
}
