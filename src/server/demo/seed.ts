/**
 * Loads the demo dataset: one Danish property with its apartments, tenancies, meters, prices, CO2
 * factors and demo users, then two years of hourly readings through the ingestion path, and later
 * catches the readings up to the current hour.
 */
import { eq, sql } from 'drizzle-orm';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { Temporal } from 'temporal-polyfill';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import {
  accounts,
  activationCodes,
  apartments,
  appMeta,
  measurementPoints,
  meters,
  permissions,
  prices,
  properties,
  propertyCo2Factors,
  propertySettings,
  tenancies,
  tenancyMembers,
  userAccounts,
  userPermissions,
  users,
} from '../db/schema.ts';
import { pgTextArray, queryRows, refreshStatistics } from '../db/sql.ts';
import {
  bulkLoadIntoEmpty,
  ingestReadings,
  type PhaseTimings,
  type PointDays,
  type ReadingRow,
  timed,
  updateRollups,
} from '../ingest/ingest.ts';
import { insertDemoFixedCharges } from '../tenant/consumption/fixedCharges.ts';
import {
  buildPlan,
  CITY,
  DEMO_SEED,
  type DemoPlan,
  formatScaled,
  HOUR_MS,
  hourContext,
  PROPERTY_NUMBER,
  parseScaled,
  type StreamPlan,
  streamValue,
  ZIPCODE,
} from './model.ts';

export const DEMO_PASSWORD = 'Demo#Tenant2026';
export const DEMO_ACTIVATION_CODE = 'DEMOACTIVATE';

/** The demo logins, for printing on start and in README. */
export const DEMO_USERS = [
  { email: 'tenant@demo.test', password: DEMO_PASSWORD, description: 'tenant of one tenancy' },
  { email: 'admin@demo.test', password: DEMO_PASSWORD, description: 'tenancy admin of that same tenancy' },
  { email: 'multi@demo.test', password: DEMO_PASSWORD, description: 'member of two tenancies' },
] as const;

export interface DemoProgress {
  phase: string;
  done: number;
  total: number;
}

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

const META_PLAN = 'demo.plan';
const META_LAST_HOUR = 'demo.lastHour';
const META_FIRST_HOUR = 'demo.firstHour';
/** Hours of readings per ingestion batch (one transaction each). */
const BATCH_HOURS = 168;
/** Rows per INSERT of points and meters: far below PostgreSQL's 65,534 parameters per statement. */
const ROWS_PER_INSERT = 1_000;

interface StoredPlan {
  version: 1;
  seed: number;
  apartments: number;
  startMs: number;
  endMs: number;
}

const floorHour = (d: Date) => Math.floor(d.getTime() / HOUR_MS) * HOUR_MS;

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

async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key, value })
    .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: new Date() } });
}

async function getMeta(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
  return row?.value;
}

function activationCodeFor(rng: ReturnType<typeof xoroshiro128plus>): string {
  let code = '';
  for (let i = 0; i < 12; i++) code += String.fromCharCode(65 + uniformInt(rng, 0, 25));
  return code;
}

const PRICES: { quantity: string; price: number }[] = [
  { quantity: 'heat-energy', price: 0.78 },
  { quantity: 'hca', price: 0.95 },
  { quantity: 'hot-water-volume', price: 98.5 },
  { quantity: 'cold-water-volume', price: 72.25 },
  { quantity: 'electricity-energy', price: 2.35 },
];

const CO2: { quantity: string; gram: string }[] = [
  { quantity: 'heat-energy', gram: '62' },
  { quantity: 'hot-water-volume', gram: '7800' },
  { quantity: 'cold-water-volume', gram: '310' },
  { quantity: 'electricity-energy', gram: '118' },
];

/** Creates the account, property, apartments, tenancies, meters, prices and users in one transaction. */
async function seedEntities(db: Db, plan: DemoPlan, stored: StoredPlan, now: Date): Promise<void> {
  const passwordHashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  const codes = xoroshiro128plus(plan.seed + 1);
  const year = now.getUTCFullYear();
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const [account] = await tx.insert(accounts).values({ name: 'Boligforeningen Solgården' }).returning();
    const [property] = await tx
      .insert(properties)
      .values({
        accountId: account!.id,
        number: PROPERTY_NUMBER,
        name: 'Solgården',
        address: 'Solvej 1-5',
        zipcode: ZIPCODE,
        city: CITY,
        country: 'DK',
        contactPhone: '+45 86 12 34 56',
        contactEmail: 'udlejning@solgaarden.example',
      })
      .returning();
    const propertyId = property!.id;
    await tx.insert(propertySettings).values({ propertyId, kind: 'HOURLY_VALUES' });
    await tx
      .insert(propertyCo2Factors)
      .values(CO2.map((c) => ({ propertyId, quantity: c.quantity, gramPerQuantityUnit: c.gram })));
    const firstYear = new Date(plan.startMs).getUTCFullYear();
    const priceRows = [];
    for (let y = firstYear; y <= year; y++) {
      for (const p of PRICES) {
        // A price change every 1 January, a few per cent up.
        const price = (p.price * 1.04 ** (y - firstYear)).toFixed(2);
        priceRows.push({
          propertyId,
          quantity: p.quantity,
          price,
          currency: 'DKK',
          validFrom: `${y}-01-01`,
          validTo: y === year ? null : `${y + 1}-01-01`,
        });
      }
    }
    await tx.insert(prices).values(priceRows);
    await insertDemoFixedCharges(tx, propertyId, firstYear);

    const apartmentIds = new Map<number, number>();
    const tenancyIds = new Map<number, number>();
    for (const a of plan.apartments) {
      const [row] = await tx
        .insert(apartments)
        .values({
          propertyId,
          uniqueId: a.uniqueId,
          apartment: a.label,
          address: a.address,
          zipcode: ZIPCODE,
          city: CITY,
          areaM2: String(a.areaM2),
          rooms: a.rooms,
        })
        .returning({ id: apartments.id });
      apartmentIds.set(a.index, row!.id);
      const [t] = await tx
        .insert(tenancies)
        .values({
          apartmentId: row!.id,
          tenancyId: `T-${a.uniqueId}`,
          tenant: a.tenant,
          start: a.tenancyStart,
          billingStart: `${year}-01-01`,
          billingEnd: `${year}-12-31`,
        })
        .returning({ id: tenancies.id });
      tenancyIds.set(a.index, t!.id);
    }

    // The vacant tenancy: the last apartment's, or with only three apartments an incoming tenancy on the third.
    const last = plan.apartments.length;
    let vacantTenancyId: number;
    if (last >= 4) vacantTenancyId = tenancyIds.get(last)!;
    else {
      const nextMonth = new Date(Date.UTC(year, now.getUTCMonth() + 1, 1));
      const endOfMonth = new Date(nextMonth.getTime() - 86_400_000).toISOString().slice(0, 10);
      await tx
        .update(tenancies)
        .set({ end: endOfMonth })
        .where(eq(tenancies.id, tenancyIds.get(last)!));
      const [t] = await tx
        .insert(tenancies)
        .values({
          apartmentId: apartmentIds.get(last)!,
          tenancyId: `T-${plan.apartments[last - 1]!.uniqueId}-2`,
          tenant: '',
          start: nextMonth.toISOString().slice(0, 10),
          billingStart: `${year}-01-01`,
          billingEnd: `${year}-12-31`,
        })
        .returning({ id: tenancies.id });
      vacantTenancyId = t!.id;
    }

    // In slices: one statement for every point of a large property ran past PostgreSQL's limit of 65,534
    // parameters per statement (8 per point: above 744 apartments).
    const pointRows: { id: number }[] = [];
    for (let i = 0; i < plan.streams.length; i += ROWS_PER_INSERT) {
      const slice = plan.streams.slice(i, i + ROWS_PER_INSERT);
      pointRows.push(
        ...(await tx
          .insert(measurementPoints)
          .values(
            slice.map((s) => ({
              propertyId,
              apartmentId: s.apartment === null ? null : apartmentIds.get(s.apartment)!,
              quantity: s.quantity,
              unit: s.unit,
              room: s.room,
              name: s.name,
              legacyMeterId: s.meters[0]!.number,
              readingKind: s.readingKind,
            })),
          )
          .returning({ id: measurementPoints.id })),
      );
    }
    const meterRows = plan.streams.flatMap((s, i) =>
      s.meters.map((m) => ({
        measurementPointId: pointRows[i]!.id,
        number: m.number,
        legacyKind: s.legacyKind,
        installedAt: new Date(m.installedMs),
        removedAt: m.removedMs === null ? null : new Date(m.removedMs),
      })),
    );
    for (let i = 0; i < meterRows.length; i += ROWS_PER_INSERT)
      await tx.insert(meters).values(meterRows.slice(i, i + ROWS_PER_INSERT));

    await tx
      .insert(permissions)
      .values([
        { name: 'view_consumption', description: 'View consumption, cost and indoor climate' },
        { name: 'manage_tenancy', description: 'Invite and manage the users of a tenancy' },
      ])
      .onConflictDoNothing();
    const perms = new Map((await tx.select().from(permissions)).map((p) => [p.name, p.id]));
    const people = [
      { name: 'Tina Tenant', language: 'en', tenancies: [1], admin: false, perms: ['view_consumption'] },
      {
        name: 'Anders Admin',
        language: 'da',
        tenancies: [1],
        admin: true,
        perms: ['view_consumption', 'manage_tenancy'],
      },
      { name: 'Maja Multi', language: 'nb', tenancies: [2, 3], admin: false, perms: ['view_consumption'] },
    ];
    const usedBy = new Map<number, number>();
    for (const [i, who] of people.entries()) {
      const [user] = await tx
        .insert(users)
        .values({
          email: DEMO_USERS[i]!.email,
          name: who.name,
          passwordHash: passwordHashes[i]!,
          language: who.language,
        })
        .returning({ id: users.id });
      const userId = user!.id;
      await tx.insert(userAccounts).values({ userId, accountId: account!.id });
      await tx
        .insert(userPermissions)
        .values(who.perms.map((p) => ({ userId, permissionId: perms.get(p)! })));
      for (const aptIndex of who.tenancies) {
        const tenancyId = tenancyIds.get(aptIndex)!;
        await tx.insert(tenancyMembers).values({ tenancyId, userId, isAdmin: who.admin });
        if (!usedBy.has(tenancyId)) usedBy.set(tenancyId, userId);
      }
    }
    const codeRows: (typeof activationCodes.$inferInsert)[] = [...tenancyIds.values()]
      .filter((id) => id !== vacantTenancyId)
      .map((tenancyId) => ({
        code: activationCodeFor(codes),
        tenancyId,
        usedAt: new Date(plan.startMs),
        usedByUserId: usedBy.get(tenancyId) ?? null,
      }));
    codeRows.push({ code: DEMO_ACTIVATION_CODE, tenancyId: vacantTenancyId });
    await tx.insert(activationCodes).values(codeRows);
    await setMeta(tx, META_PLAN, JSON.stringify(stored));
  });
}

/** Per stream: which meter is active and its register value (integer units), as of the last simulated hour. */
interface StreamState {
  meter: number;
  value: number;
}

function activeMeter(s: StreamPlan, ms: number): number {
  const i = s.meters.findIndex((m) => m.installedMs <= ms && (m.removedMs === null || ms < m.removedMs));
  return i < 0 ? s.meters.length - 1 : i;
}

function freshState(plan: DemoPlan): StreamState[] {
  return plan.streams.map((s) => ({ meter: activeMeter(s, plan.startMs), value: s.initial }));
}

/**
 * Advances every stream through the hours fromMs..toMs (inclusive), updating `state`; with `rows`,
 * also emits the readings. The first hour of history emits the initial register values.
 */
function simulate(
  plan: DemoPlan,
  state: StreamState[],
  fromMs: number,
  toMs: number,
  rows?: ReadingRow[],
): void {
  const apartmentsByIndex = new Map(plan.apartments.map((a) => [a.index, a]));
  for (let ms = fromMs; ms <= toMs; ms += HOUR_MS) {
    const ctx = hourContext(plan.seed, ms);
    const ts = rows ? new Date(ms).toISOString() : '';
    plan.streams.forEach((s, j) => {
      const v = streamValue(s, s.apartment === null ? undefined : apartmentsByIndex.get(s.apartment), ctx);
      if (s.readingKind === 'instantaneous') {
        rows?.push({
          line: rows.length + 1,
          meterNumber: s.meters[0]!.number,
          ts,
          value: v.toFixed(s.decimals),
        });
        return;
      }
      const st = state[j]!;
      if (ms === plan.startMs) st.value = s.initial;
      else if (ms === s.resetMs) st.value = v;
      else st.value += v;
      const lost = s.gap !== undefined && ms > s.gap.fromMs && ms < s.gap.toMs;
      if (!lost)
        rows?.push({
          line: rows.length + 1,
          meterNumber: s.meters[st.meter]!.number,
          ts,
          value: formatScaled(st.value, s.decimals),
        });
      const next = activeMeter(s, ms);
      if (next !== st.meter) {
        // A swap: the new meter starts from zero at the hour the old one was removed.
        st.meter = next;
        st.value = 0;
        rows?.push({
          line: rows.length + 1,
          meterNumber: s.meters[next]!.number,
          ts,
          value: formatScaled(0, s.decimals),
        });
      }
    });
  }
}

/** Generates and ingests the hours fromMs..toMs forwards, one batch (transaction) per `batchHours`. */
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

async function loadPlan(db: Db): Promise<{ stored: StoredPlan; plan: DemoPlan } | undefined> {
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

/**
 * Hours of older history per backfill transaction. PGlite is one session, so a request waits behind the
 * transaction in flight: a whole day per transaction kept requests waiting 0.7–1.9 s on a busy machine, three
 * hours up to about 0.3 s.
 */
const BACKFILL_HOURS = 1;
/** Backfill steps per remembered simulation state (a day's worth). */
const CHUNK_STEPS = 24;

/** The Europe/Copenhagen day (YYYY-MM-DD) of an instant, and whether the instant is that day's midnight. */
function copenhagenDay(ms: number): { day: string; midnight: boolean } {
  const local = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO('Europe/Copenhagen');
  return { day: local.toPlainDate().toString(), midnight: local.hour === 0 && local.minute === 0 };
}

/** Days of points still to roll up, widened per point as hours arrive. */
class PendingDays {
  private readonly byPoint = new Map<number, PointDays>();
  add(days: PointDays[] | undefined): void {
    for (const d of days ?? []) {
      const known = this.byPoint.get(d.pointId);
      if (!known) this.byPoint.set(d.pointId, { ...d });
      else {
        if (d.dayLo < known.dayLo) known.dayLo = d.dayLo;
        if (d.dayHi > known.dayHi) known.dayHi = d.dayHi;
      }
    }
  }
  /** Rolls the pending days up (one transaction) and forgets them. */
  async flush(db: Db, timings?: PhaseTimings): Promise<void> {
    const days = [...this.byPoint.values()];
    this.byPoint.clear();
    await updateRollups(db, days, timings);
  }
}

/**
 * Loads the older history that seedDemo left out (`recentDays`), newest hours first, BACKFILL_HOURS per
 * transaction, so a running server stays responsive. Resumable; does nothing when complete.
 *
 * The hours go in without their rollups; a day's daily, monthly and property rollups are brought up to date
 * in a transaction of their own once its first hour (its midnight) is in, so neither kind of transaction
 * keeps a request waiting long. Until then the day has its hours but no rollup. A stop (or a crash) between
 * the two leaves the oldest loaded day's rollups behind, so a run starts by rolling that day up again.
 */
export async function backfillDemo(
  db: Db,
  opts: { onProgress?: (p: DemoProgress) => void; shouldStop?: () => boolean; timings?: PhaseTimings } = {},
): Promise<{ hours: number; readings: number }> {
  const loaded = await loadPlan(db);
  const firstText = await getMeta(db, META_FIRST_HOUR);
  if (!loaded || !firstText) return { hours: 0, readings: 0 };
  const { plan } = loaded;
  const firstMs = Date.parse(firstText);
  if (firstMs <= plan.startMs) return { hours: 0, readings: 0 };
  // One forward pass (no I/O) gives the register state at the start of every CHUNK_STEPS-th step; each chunk
  // is simulated again, step by step, when it loads. (A state per step kept millions of small objects alive.)
  const stepMs = BACKFILL_HOURS * HOUR_MS;
  const chunks: { ms: number; state: StreamState[] }[] = [];
  const state = freshState(plan);
  let at = plan.startMs;
  // Two years of simulation take about a second of this thread, which also serves requests: it gives the
  // thread back every few milliseconds.
  let slice = performance.now();
  for (
    let stepStart = firstMs - Math.ceil((firstMs - plan.startMs) / stepMs) * stepMs;
    stepStart < firstMs;
    stepStart += CHUNK_STEPS * stepMs
  ) {
    const from = Math.max(stepStart, plan.startMs);
    if (from > at) simulate(plan, state, at, from - HOUR_MS);
    at = from;
    chunks.push({ ms: from, state: state.map((s) => ({ ...s })) });
    if (performance.now() - slice > 5) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  const total = (firstMs - plan.startMs) / HOUR_MS;
  let readings = 0;
  let done = 0;
  opts.onProgress?.({ phase: 'older history', done, total });
  // Then the database is left to requests for as long again as a step took: they would otherwise queue
  // behind one transaction after another (PGlite has one session), statement by statement.
  const yieldAfter = (started: number) =>
    new Promise((resolve) => setTimeout(resolve, performance.now() - started));
  const pending = new PendingDays();
  // The oldest loaded day may lack its rollups: a stop or crash after a step's hours and before its
  // marker moved (a day is rolled up before the marker moves past its midnight, so no older day can).
  const oldest = copenhagenDay(firstMs).day;
  const points = await queryRows<{ id: number }>(db, sql`SELECT id FROM measurement_points`);
  pending.add(points.map((p) => ({ pointId: p.id, dayLo: oldest, dayHi: oldest })));
  let started = performance.now();
  await pending.flush(db, opts.timings);
  await yieldAfter(started);
  let upTo = firstMs;
  for (const chunk of chunks.reverse()) {
    // The chunk's steps, oldest first, each with its readings; then loaded newest first.
    const steps: { ms: number; rows: ReadingRow[] }[] = [];
    for (let ms = chunk.ms; ms < upTo; ms += stepMs) {
      const rows: ReadingRow[] = [];
      simulate(plan, chunk.state, ms, Math.min(ms + stepMs, upTo) - HOUR_MS, rows);
      steps.push({ ms, rows });
    }
    for (const step of steps.reverse()) {
      if (opts.shouldStop?.()) break;
      started = performance.now();
      const result = await ingestReadings(db, step.rows, {
        bulk: true,
        deferRollups: true,
        timings: opts.timings,
      });
      pending.add(result.pendingDays);
      await yieldAfter(started);
      // The day that starts here is whole now (the last step may end mid-day): roll it up before the marker
      // moves past it.
      if (copenhagenDay(step.ms).midnight || step.ms <= plan.startMs) {
        started = performance.now();
        await pending.flush(db, opts.timings);
        await yieldAfter(started);
      }
      await setMeta(db, META_FIRST_HOUR, new Date(step.ms).toISOString());
      readings += step.rows.length;
      done += (upTo - step.ms) / HOUR_MS;
      upTo = step.ms;
      opts.onProgress?.({ phase: 'older history', done, total });
    }
    if (upTo > chunk.ms) break; // stopped
  }
  // Stopped mid-day: that day's hours so far (a later run rolls it up again when it is whole).
  await pending.flush(db, opts.timings);
  return { hours: done, readings };
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
