/**
 * The demo's allocation statements: two heating years of valid statements, the metered part of a year shared by
 * the flats' heat meters, and drawn statements replaced once the backfill reaches the year; on PGlite and on
 * PostgreSQL (TEST_DATABASE_URL). Imported statements: statements.test.ts.
 */
import { eq, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { allocationStatements } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { backfillDemo } from '../../src/server/demo/backfill.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { seedDemoStatements } from '../../src/server/demo/statements.ts';
import type { StatementDetails } from '../../src/server/statements/model.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

describe(`demo statements (${testEngine})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
    await seedDemo(database.db, { now: new Date('2026-11-21T10:00:00Z'), days: 2, apartments: 4 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives the demo tenancies two heating years of valid statements, once', async () => {
    const now = new Date('2026-11-21T10:00:00Z');
    const added = await seedDemoStatements(database.db, now);
    expect(added).toBeGreaterThan(0);
    expect(await seedDemoStatements(database.db, now)).toBe(0);
    const rows = await database.db.execute(
      sql`SELECT period_start::text AS start, count(*)::int AS n FROM allocation_statements GROUP BY 1 ORDER BY 1`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      start: string;
      n: number;
    }[];
    expect(list.map((r) => r.start)).toEqual(['2024-06-01', '2025-06-01']);
    // Made two months after the period ends; objections 6 weeks later (the Danish rule), never before.
    const made = await database.db.select().from(allocationStatements);
    for (const s of made) {
      const createdOn = Temporal.Instant.fromEpochMilliseconds(s.createdAt.getTime())
        .toZonedDateTimeISO('Europe/Copenhagen')
        .toPlainDate();
      expect(createdOn.toString()).toBe(Temporal.PlainDate.from(s.periodEnd).add({ months: 2 }).toString());
      expect(s.objectionDeadline).toBe(createdOn.add({ weeks: 6 }).toString());
    }
  });
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
    // The year before the demo's history has no meters to agree with.
    const older = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.periodEnd, '2025-05-31'));
    for (const st of older)
      expect((st.details as { consumption: { unit: string } }).consumption.unit).toBe('hca-unit');
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

  it('replaces the drawn statements of a year with ones that agree with the meters, one per tenancy', async () => {
    const ofYear = () =>
      database.db.select().from(allocationStatements).where(eq(allocationStatements.periodEnd, '2026-05-31'));
    await seedDemoStatements(database.db, now);
    const drawn = await ofYear();
    expect(drawn.length).toBeGreaterThan(0);
    for (const st of drawn) expect((st.details as StatementDetails).consumption.unit).toBe('hca-unit');
    await backfillDemo(database.db);
    expect(await seedDemoStatements(database.db, now)).toBeGreaterThan(0);
    const metered = await ofYear();
    expect(metered.map((st) => st.tenancyId).sort()).toEqual(drawn.map((st) => st.tenancyId).sort());
    for (const st of metered) {
      expect((st.details as StatementDetails).consumption.unit).toBe('kilo-watt-hour');
      expect(st.periodStart > '2026-05-20').toBe(true);
    }
    // A second run changes nothing.
    expect(await seedDemoStatements(database.db, now)).toBe(0);
    expect((await ofYear()).map((st) => st.id)).toEqual(metered.map((st) => st.id));
  }, 300_000);
});
