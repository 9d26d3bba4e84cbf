/**
 * The demo's allocation statements are computed from the demo's own meters (issue 22): only over measured days
 * (a short demo's measured months, else the measured part of each heating year; never a period without meter
 * history), each flat's heat-meter kWh as the app has them; a year's statements come once the backfill measures
 * it. On PGlite and on PostgreSQL (TEST_DATABASE_URL). Imported statements: statements.test.ts.
 */
import { eq, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { allocationStatements, tenancies } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { backfillDemo } from '../../src/server/demo/backfill.ts';
import { catchUpDemo } from '../../src/server/demo/catchUp.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { seedDemoStatements } from '../../src/server/demo/statements.ts';
import type { StatementDetails } from '../../src/server/statements/model.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

/** Statement periods by their start, with how many tenancies have one. */
async function periods(database: Database): Promise<{ start: string; end: string; n: number }[]> {
  return queryRows<{ start: string; end: string; n: number }>(
    database.db,
    sql`SELECT period_start::text AS start, period_end::text AS end, count(*)::int AS n
          FROM allocation_statements GROUP BY 1, 2 ORDER BY 1`,
  );
}

/**
 * Every statement agrees with the meters: its period is measured day by day (a whole day of the flat's heat
 * meter in the daily rollups for each of its days), and its consumption is the flat's heat-meter kWh over it,
 * the property's the sum of the flats' in the same period.
 */
async function expectMeasured(database: Database): Promise<number> {
  const statements = await database.db.select().from(allocationStatements);
  for (const st of statements) {
    const details = st.details as StatementDetails;
    const [measured] = await queryRows<{ kwh: number | null; days: number }>(
      database.db,
      sql`SELECT sum(d.sum)::float AS kwh, count(*) FILTER (WHERE d.count >= 23)::int AS days
            FROM daily_rollups d JOIN measurement_points mp ON mp.id = d.measurement_point_id
            JOIN tenancies t ON t.apartment_id = mp.apartment_id
           WHERE t.id = ${st.tenancyId} AND mp.quantity = 'heat-energy'
             AND d.day BETWEEN ${st.periodStart}::date AND ${st.periodEnd}::date`,
    );
    const days =
      Temporal.PlainDate.from(st.periodStart).until(Temporal.PlainDate.from(st.periodEnd)).days + 1;
    const where = `${st.periodStart}–${st.periodEnd}, tenancy ${st.tenancyId}`;
    expect(measured!.days, `measured days of ${where}`).toBe(days);
    expect(details.consumption.unit, where).toBe('kilo-watt-hour');
    expect(measured!.kwh, where).toBeGreaterThan(0);
    expect(details.consumption.tenant, where).toBeCloseTo(measured!.kwh!, 3);
    const same = statements.filter((x) => x.periodStart === st.periodStart && x.periodEnd === st.periodEnd);
    expect(details.consumption.property, where).toBeCloseTo(
      same.reduce((sum, x) => sum + (x.details as StatementDetails).consumption.tenant, 0),
      3,
    );
  }
  return statements.length;
}

describe(`demo statements of a short demo (${testEngine})`, () => {
  let database: Database;
  const now = new Date('2026-11-21T10:00:00Z');
  beforeAll(async () => {
    database = await freshDatabase();
    // The e2e suite's demo: 35 days of history, from mid-October, so no heating year that ended is measured.
    await seedDemo(database.db, { now, days: 35, apartments: 3 });
  }, 300_000);
  afterAll(async () => {
    await database?.close();
  });

  it('makes statements only over the measured months, from the meters, once', async () => {
    expect(await seedDemoStatements(database.db, now)).toBeGreaterThan(0);
    expect(await seedDemoStatements(database.db, now)).toBe(0);
    const [{ first }] = (await queryRows<{ first: string }>(
      database.db,
      sql`SELECT min(d.day)::text AS first FROM daily_rollups d
            JOIN measurement_points mp ON mp.id = d.measurement_point_id
           WHERE mp.quantity = 'heat-energy' AND d.count >= 23`,
    )) as [{ first: string }];
    expect(first > '2026-10-15' && first < '2026-10-20').toBe(true);
    // No heating year: the measured part of October, and November up to yesterday; never a year before the
    // history with units drawn at random (2,194 units on the statement against 9,076 measured, issue 22).
    expect((await periods(database)).map((p) => `${p.start}/${p.end}`)).toEqual([
      `${first}/2026-10-31`,
      '2026-11-01/2026-11-20',
    ]);
    expect(await expectMeasured(database)).toBeGreaterThan(0);
    // Made on the day (two months after the period would be later); objections 6 weeks after (Danish rule).
    for (const s of await database.db.select().from(allocationStatements)) {
      const createdOn = Temporal.Instant.fromEpochMilliseconds(s.createdAt.getTime())
        .toZonedDateTimeISO('Europe/Copenhagen')
        .toPlainDate();
      expect(createdOn.toString()).toBe('2026-11-21');
      expect(s.objectionDeadline).toBe(createdOn.add({ weeks: 6 }).toString());
      expect(s.source).toBe('demo');
    }
  }, 120_000);

  it('moves its month statements on with the history, and keeps an imported statement', async () => {
    const [tenancy] = await database.db.select().from(tenancies).limit(1);
    const [imported] = await database.db
      .insert(allocationStatements)
      .values({
        ...(await database.db.select().from(allocationStatements).limit(1))[0]!,
        id: undefined,
        tenancyId: tenancy!.id,
        periodStart: '2026-11-02',
        periodEnd: '2026-11-15',
        source: 'import',
        // 10:00 sharp in Copenhagen, as the demo stamps its own: what tells them apart is their source.
        createdAt: new Date('2026-11-20T09:00:00Z'),
      })
      .returning({ id: allocationStatements.id });
    await catchUpDemo(database.db, { now: new Date('2026-11-23T10:00:00Z') });
    expect(await seedDemoStatements(database.db, new Date('2026-11-23T10:00:00Z'))).toBeGreaterThan(0);
    expect((await periods(database)).map((p) => `${p.start}/${p.end}`)).toEqual([
      expect.stringMatching(/^2026-10-1\d\/2026-10-31$/),
      '2026-11-01/2026-11-22',
      '2026-11-02/2026-11-15',
    ]);
    const kept = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.id, imported!.id));
    expect(kept).toHaveLength(1);
    await database.db.delete(allocationStatements).where(eq(allocationStatements.id, imported!.id));
    await expectMeasured(database);
  }, 120_000);
});

describe(`demo statements from the demo's meters (${testEngine})`, () => {
  let database: Database;
  const now = new Date('2026-07-15T10:00:00Z');
  beforeAll(async () => {
    database = await freshDatabase();
    // 200 days of history: from late December 2025, inside the heating year 2025-06-01 – 2026-05-31.
    await seedDemo(database.db, { now, days: 200, apartments: 4 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("shares the metered part of the year by the flats' heat meters, as the meters have it", async () => {
    expect(await seedDemoStatements(database.db, now)).toBeGreaterThan(0);
    const statements = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.periodEnd, '2026-05-31'));
    expect(statements.length).toBeGreaterThan(0);
    const [{ day: first }] = (await queryRows<{ day: string }>(
      database.db,
      sql`SELECT min(d.day)::text AS day FROM daily_rollups d
      JOIN measurement_points mp ON mp.id = d.measurement_point_id
      WHERE mp.quantity = 'heat-energy' AND d.count >= 23`,
    )) as [{ day: string }];
    expect(first > '2025-12-01' && first < '2026-01-01').toBe(true);
    let propertyKwh = 0;
    for (const st of statements) {
      expect(st.periodStart).toBe(first);
      const details = st.details as { consumption: { unit: string; tenant: number; property: number } };
      expect(details.consumption.unit).toBe('kilo-watt-hour');
      // The tenant's kWh is what the flat's heat meter measured over the period: the app's daily figures.
      const [{ kwh }] = (await queryRows<{ kwh: number }>(
        database.db,
        sql`SELECT sum(d.sum)::float AS kwh FROM daily_rollups d
        JOIN measurement_points mp ON mp.id = d.measurement_point_id
        JOIN tenancies t ON t.apartment_id = mp.apartment_id
        WHERE t.id = ${st.tenancyId} AND mp.quantity = 'heat-energy'
          AND d.day BETWEEN ${st.periodStart}::date AND ${st.periodEnd}::date`,
      )) as [{ kwh: number }];
      expect(kwh).toBeGreaterThan(100);
      expect(details.consumption.tenant).toBeCloseTo(kwh, 3);
      propertyKwh += details.consumption.tenant;
      expect(details.consumption.property).toBeCloseTo(
        statements.reduce(
          (sum, x) => sum + (x.details as { consumption: { tenant: number } }).consumption.tenant,
          0,
        ),
        3,
      );
    }
    expect(propertyKwh).toBeGreaterThan(0);
    // The year before the demo's history has no meters to agree with: it gets no statement at all.
    const older = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.periodEnd, '2025-05-31'));
    expect(older).toEqual([]);
    await expectMeasured(database);
  });
});

describe(`demo statements once the backfill reaches the year (${testEngine})`, () => {
  let database: Database;
  const now = new Date('2026-06-03T10:00:00Z');
  beforeAll(async () => {
    database = await freshDatabase();
    // First start with one recent day (DEMO_FIRST_DAYS): the heating year 2025-06-01 – 2026-05-31 has no meters.
    // 6 days of history reach back into the year's last days (May 2026), once backfilled.
    await seedDemo(database.db, { now, days: 6, apartments: 2, recentDays: 1 });
  }, 300_000);
  afterAll(async () => {
    await database?.close();
  });

  it("makes a year's statements once the backfill measures it, and drops the short history's", async () => {
    const ofYear = () =>
      database.db.select().from(allocationStatements).where(eq(allocationStatements.periodEnd, '2026-05-31'));
    await seedDemoStatements(database.db, now);
    // One recent day measured: no statement of the year, whose days have no meters yet.
    expect(await ofYear()).toEqual([]);
    await expectMeasured(database);
    await backfillDemo(database.db);
    expect(await seedDemoStatements(database.db, now)).toBeGreaterThan(0);
    const metered = await ofYear();
    expect(metered.length).toBeGreaterThan(0);
    for (const st of metered) {
      expect((st.details as StatementDetails).consumption.unit).toBe('kilo-watt-hour');
      expect(st.periodStart > '2026-05-20').toBe(true);
    }
    // Only the year's: the short history's month statements gave way to it.
    expect((await periods(database)).map((p) => p.end)).toEqual(['2026-05-31']);
    await expectMeasured(database);
    // A second run changes nothing.
    expect(await seedDemoStatements(database.db, now)).toBe(0);
    expect((await ofYear()).map((st) => st.id)).toEqual(metered.map((st) => st.id));
  }, 300_000);
});
