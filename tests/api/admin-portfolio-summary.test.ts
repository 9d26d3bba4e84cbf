/**
 * The portfolio's stored per-property figures (property_summaries, migration 0017): a write marks its property
 * dirty and the next read recomputes it; the time-dependent figures change when their time comes without any
 * write (a meter leaving the 24-hour window, a tenancy ending); each operator's read recomputes only their
 * scope.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortfolioQuery, readPortfolio } from '../../src/server/admin/portfolio.ts';
import type { OperatorScope } from '../../src/server/admin/scope.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  apartments,
  measurementPoints,
  meters,
  properties,
  propertySummaries,
  registerReadings,
  tenancies,
} from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch } from '../../src/server/ingest/ingest.ts';
import { type AdminFixture, seedAdminFixture } from './helpers/adminFixture.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

let database: Database;
let fx: AdminFixture;
let admin: OperatorScope;
const NOW = new Date('2026-03-10T12:00:00Z');

const query = (now: Date): PortfolioQuery => ({
  sort: 'NUMBER',
  descending: false,
  limit: 50,
  offset: 0,
  now,
});
const p1Row = async (now = NOW, scope = admin) =>
  (await readPortfolio(database.db, scope, query(now))).find((r) => r.id === fx.p1)!;
const summary = async (propertyId: number) =>
  (
    await database.db.select().from(propertySummaries).where(eq(propertySummaries.propertyId, propertyId))
  )[0]!;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAdminFixture(database.db);
  admin = { userId: fx.ops.admin1.id, email: 'a', role: 'org_admin', accountId: fx.org1, propertyIds: null };
  const [flat] = await database.db.select().from(apartments).where(eq(apartments.uniqueId, 'U-P1-1'));
  const [point] = await database.db
    .insert(measurementPoints)
    .values({
      propertyId: fx.p1,
      apartmentId: flat!.id,
      quantity: 'heat-energy',
      unit: 'kilo-watt-hour',
      name: 'Heat',
      readingKind: 'register',
    })
    .returning();
  await database.db.insert(meters).values({
    measurementPointId: point!.id,
    number: 'S-1',
    legacyKind: 'energy',
    installedAt: new Date('2025-01-01T00:00:00Z'),
  });
}, 600_000);
afterAll(async () => {
  await database?.close();
});

describe('property summaries', () => {
  it('every property has a row; a read computes the dirty ones', async () => {
    expect((await summary(fx.p1)).dirty).toBe(true);
    expect(await p1Row()).toMatchObject({
      apartments: 1,
      meters: 1,
      metersReporting: 0,
      tenancies: 1,
      activated: 1,
    });
    expect(await summary(fx.p1)).toMatchObject({ dirty: false, validUntil: null });
  });

  it('a reading marks the property dirty; the meter leaves the 24-hour window on time, with no write', async () => {
    const [meter] = await database.db.select().from(meters).where(eq(meters.number, 'S-1'));
    await database.db
      .insert(registerReadings)
      .values({ meterId: meter!.id, ts: new Date('2026-03-10T11:00:00Z'), value: '5' });
    expect((await summary(fx.p1)).dirty).toBe(true);
    expect(await p1Row()).toMatchObject({ metersReporting: 1 });
    const stored = await summary(fx.p1);
    expect(stored.validUntil?.toISOString()).toBe('2026-03-11T11:00:00.000Z');
    expect(await p1Row(new Date('2026-03-11T10:59:00Z'))).toMatchObject({ metersReporting: 1 });
    expect(await p1Row(new Date('2026-03-11T11:00:01Z'))).toMatchObject({ metersReporting: 0 });
  });

  it('a reading through the ingestion path (row checks and triggers skipped for a superuser) marks it dirty too', async () => {
    await p1Row(new Date('2026-03-11T12:00:00Z'));
    expect((await summary(fx.p1)).dirty).toBe(false);
    const receipt = await ingestBatch(
      database.db,
      [{ line: 1, meterNumber: 'S-1', ts: '2026-03-11T11:00:00Z', value: '6' }],
      { now: new Date('2026-03-11T12:00:00Z') },
    );
    expect(receipt.results.map((r) => r.status)).toEqual(['accepted']);
    expect((await summary(fx.p1)).dirty).toBe(true);
    expect(await p1Row(new Date('2026-03-11T12:00:00Z'))).toMatchObject({ metersReporting: 1 });
  });

  it('a tenancy ends at the end of its last day', async () => {
    await database.db.update(tenancies).set({ end: '2026-03-31' }).where(eq(tenancies.id, fx.tenancy1));
    expect(await p1Row(new Date('2026-03-31T23:00:00Z'))).toMatchObject({ tenancies: 1, activated: 1 });
    expect((await summary(fx.p1)).validUntil?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(await p1Row(new Date('2026-04-01T00:00:00Z'))).toMatchObject({ tenancies: 0, activated: 0 });
  });

  it('a manager’s read recomputes only their own properties', async () => {
    await database.db.insert(apartments).values({
      propertyId: fx.p2,
      uniqueId: 'U-P2-9',
      apartment: 'x',
      address: 'Street P2',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: '50',
      rooms: 2,
    });
    expect((await summary(fx.p2)).dirty).toBe(true);
    const manager: OperatorScope = { ...admin, role: 'property_manager', propertyIds: new Set([fx.p1]) };
    const rows = await readPortfolio(database.db, manager, query(NOW));
    expect(rows.map((r) => r.id)).toEqual([fx.p1]);
    expect((await summary(fx.p2)).dirty).toBe(true);
  });

  // PGlite only: it has no autovacuum, so this is where the table would grow for good. On PostgreSQL autovacuum
  // reclaims the rows later, and page pruning waits for the oldest open transaction of the whole cluster (another
  // test file's), so a size measured there says nothing about this table.
  it.runIf(testEngine === 'pglite')(
    'does not grow with its updates although nothing vacuums it (fillfactor 50, migration 0022)',
    async () => {
      const [org] = await database.db.select({ accountId: properties.accountId }).from(properties).limit(1);
      await database.db.insert(properties).values(
        Array.from({ length: 400 }, (_, i) => ({
          accountId: org!.accountId,
          number: `FILL-${i}`,
          address: `Fill ${i}`,
          zipcode: '8000',
          city: 'Aarhus C',
        })),
      );
      const bytes = async () =>
        Number(
          (
            await queryRows<{ b: number }>(
              database.db,
              sql`SELECT pg_relation_size('property_summaries')::int AS b`,
            )
          )[0]!.b,
        );
      // What the triggers and the portfolio's recompute do to every row, 40 times over.
      const round = async () => {
        await database.db.execute(
          sql`UPDATE property_summaries SET dirty = true, generation = generation + 1`,
        );
        await database.db.execute(
          sql`UPDATE property_summaries SET dirty = false, computed_at = now() WHERE dirty`,
        );
      };
      await round();
      const settled = await bytes();
      for (let i = 0; i < 40; i++) await round();
      // With full pages every round left 400 dead row versions on new pages: 80 rounds of them, about 3 MB.
      expect(await bytes()).toBeLessThanOrEqual(settled * 2);
    },
  );
});
