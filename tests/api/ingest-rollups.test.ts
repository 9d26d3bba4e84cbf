/**
 * Ingestion's rollups: daily ones across the DST days, monthly ones as the sum of their days, and the property's
 * daily and hourly ones over the flats with data; and apartments' areas and rooms. Ingestion itself:
 * ingest.test.ts. Fixture: tests/api/helpers/ingest.ts.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apartments } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestBatch, ingestReadings, type ReadingRow } from '../../src/server/ingest/ingest.ts';
import { rebuildPropertyHourlyRollups } from '../../src/server/ingest/propertyHourly.ts';
import { testEngine } from './helpers/db.ts';
import { ingestTestProperty, rows } from './helpers/ingest.ts';

const fx = ingestTestProperty();
const { point, count } = fx;

async function dailyRollup(pointId: number, day: string) {
  const [row] = await queryRows<{ sum: string; min: string; max: string; count: number }>(
    fx.db,
    sql`SELECT sum::text, min::text, max::text, count FROM daily_rollups WHERE measurement_point_id = ${pointId} AND day = ${day}`,
  );
  return row;
}

async function sumOfLocalDay(pointId: number, day: string): Promise<string> {
  const [row] = await queryRows<{ s: string }>(
    fx.db,
    sql`SELECT sum(value)::text AS s FROM hourly_consumption WHERE measurement_point_id = ${pointId}
        AND (hour_start AT TIME ZONE 'Europe/Copenhagen')::date = ${day}::date`,
  );
  return row!.s;
}

/** Hourly register readings from `from` (inclusive) for `hours` hours, consuming 1 + (i mod 3) / 4 per hour. */
function hourlyRows(meterNumber: string, from: string, hours: number): ReadingRow[] {
  const start = Date.parse(from);
  let value = 1000;
  const out: ReadingRow[] = [];
  for (let i = 0; i <= hours; i++) {
    out.push({
      line: i + 2,
      meterNumber,
      ts: new Date(start + i * 3_600_000).toISOString(),
      value: value.toFixed(2),
    });
    value += 1 + (i % 3) / 4;
  }
  return out;
}

describe('rollups', () => {
  it('has 23 hours on the spring DST day and 25 on the autumn one, summing the hours exactly', async () => {
    const p = await point('heat-energy', 'register', [{ number: 'H-DST' }]);
    // Local midnight 2025-03-29 is 2025-03-28T23:00Z; cover through 2025-10-27 local.
    await ingestReadings(fx.db, hourlyRows('H-DST', '2025-03-28T23:00:00Z', 24 * 214));
    const spring = await dailyRollup(p, '2025-03-30');
    const autumn = await dailyRollup(p, '2025-10-26');
    const ordinary = await dailyRollup(p, '2025-06-15');
    expect(spring?.count).toBe(23);
    expect(autumn?.count).toBe(25);
    expect(ordinary?.count).toBe(24);
    for (const day of ['2025-03-30', '2025-10-26', '2025-06-15']) {
      expect((await dailyRollup(p, day))!.sum).toBe(await sumOfLocalDay(p, day));
    }
    expect(spring).toMatchObject({ min: '1', max: '1.5' });
  });

  it('monthly rollups equal the sum of their days', async () => {
    const [row] = await queryRows<{ mismatches: number; months: number }>(
      fx.db,
      sql`WITH d AS (
            SELECT measurement_point_id, date_trunc('month', day::timestamp)::date AS month,
                   sum(sum) AS s, min(min) AS mn, max(max) AS mx, sum(count)::int AS c
            FROM daily_rollups GROUP BY 1, 2)
          SELECT count(*) FILTER (WHERE m.sum <> d.s OR m.min <> d.mn OR m.max <> d.mx OR m.count <> d.c)::int AS mismatches,
                 count(*)::int AS months
          FROM monthly_rollups m JOIN d USING (measurement_point_id, month)`,
    );
    expect(row!.months).toBeGreaterThan(7);
    expect(row!.mismatches).toBe(0);
    expect(await count('monthly_rollups')).toBe(row!.months);
  });

  it('property rollups sum the apartments and divide by the area of those with data', async () => {
    const small = await point('hot-water-volume', 'register', [{ number: 'HW-S' }], fx.smallApartment);
    const large = await point('hot-water-volume', 'register', [{ number: 'HW-L' }], fx.largeApartment);
    await ingestReadings(fx.db, [
      ...rows('HW-S', [
        ['2025-08-10T00:00:00Z', '1'],
        ['2025-08-10T06:00:00Z', '1.3'],
        ['2025-08-11T06:00:00Z', '1.9'],
      ]),
      ...rows('HW-L', [
        ['2025-08-10T00:00:00Z', '7'],
        ['2025-08-10T06:00:00Z', '7.9'],
      ]),
    ]);
    const property = await queryRows<{
      day: string;
      sum: string;
      area_m2: string;
      per_m2: string;
      apartments: number;
    }>(
      fx.db,
      sql`SELECT day::text, sum::text, area_m2::text, per_m2::text, apartments FROM property_daily_rollups
          WHERE property_id = ${fx.propertyId} AND quantity = 'hot-water-volume' ORDER BY day`,
    );
    const s10 = (await dailyRollup(small, '2025-08-10'))!.sum;
    const l10 = (await dailyRollup(large, '2025-08-10'))!.sum;
    expect(Number(s10) + Number(l10)).toBeCloseTo(0.3 + 0.9 + 0.6 * (16 / 24), 9);
    expect(property[0]).toMatchObject({ day: '2025-08-10', area_m2: '150', apartments: 2 });
    expect(Number(property[0]!.sum)).toBeCloseTo(Number(s10) + Number(l10), 9);
    expect(Number(property[0]!.per_m2)).toBeCloseTo((Number(s10) + Number(l10)) / 150, 9);
    // On the 11th only the small apartment has data: its area alone counts.
    expect(property[1]).toMatchObject({ day: '2025-08-11', area_m2: '50', apartments: 1 });
    expect(Number(property[1]!.per_m2)).toBeCloseTo(Number(property[1]!.sum) / 50, 9);

    // The hourly rollups: every hour of the two apartments' values, summed per hour with the area of those with data.
    const hourly = await queryRows<{ hours: number; mismatches: number; both: number; one: number }>(
      fx.db,
      sql`WITH direct AS (
            SELECT h.hour_start, sum(h.value) AS s, sum(a.area_m2) AS area, count(*)::int AS n
            FROM hourly_consumption h JOIN measurement_points p ON p.id = h.measurement_point_id
            JOIN apartments a ON a.id = p.apartment_id
            WHERE p.property_id = ${fx.propertyId} AND p.quantity = 'hot-water-volume' GROUP BY 1)
          SELECT count(*)::int AS hours,
                 count(*) FILTER (WHERE r.sum IS DISTINCT FROM d.s OR r.area_m2 IS DISTINCT FROM d.area
                                   OR r.apartments IS DISTINCT FROM d.n OR r.count IS DISTINCT FROM d.n)::int AS mismatches,
                 count(*) FILTER (WHERE d.n = 2 AND r.area_m2 = 150)::int AS both,
                 count(*) FILTER (WHERE d.n = 1 AND r.area_m2 = 50)::int AS one
          FROM direct d LEFT JOIN property_hourly_rollups r
            ON r.property_id = ${fx.propertyId} AND r.quantity = 'hot-water-volume' AND r.hour_start = d.hour_start`,
    );
    expect(hourly[0]).toMatchObject({ hours: 30, mismatches: 0, both: 6, one: 24 });
  });

  // PostgreSQL only: PGlite is one session, where the transaction holding the lock below would hold everything.
  it.skipIf(testEngine !== 'postgres')(
    "batches of two points of one property run side by side up to the property's rollups, which count both",
    async () => {
      await point('heat-energy', 'register', [{ number: 'PAR-S' }], fx.smallApartment);
      await point('heat-energy', 'register', [{ number: 'PAR-L' }], fx.largeApartment);
      // Another transaction holds the property's rollup lock (ROLLUP_LOCK in rollups.ts) until released.
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held = () => {};
      const holding = new Promise<void>((resolve) => {
        held = resolve;
      });
      const blocker = fx.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(7410004, ${fx.propertyId})`);
        held();
        await gate;
      });
      await holding;
      const settled: string[] = [];
      const batches = ['PAR-S', 'PAR-L'].map((n) =>
        ingestBatch(fx.db, hourlyRows(n, '2025-12-01T00:00:00Z', 48)).finally(() => settled.push(n)),
      );
      // Both batches get as far as the rollup lock at the same time: neither waited for the other before it.
      const waiting = async () => {
        const [row] = await queryRows<{ n: number }>(
          fx.db,
          sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
              AND classid = 7410004 AND objid = ${fx.propertyId} AND objsubid = 2`,
        );
        return Number(row!.n);
      };
      for (let i = 0; (await waiting()) < 2; i++) {
        expect(settled, 'a batch ended without waiting for the rollup lock').toEqual([]);
        expect(i, 'both batches wait for the rollup lock within a minute').toBeLessThan(600);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      release();
      await blocker;
      const receipts = await Promise.all(batches);
      expect(receipts.map((r) => r.accepted)).toEqual([49, 49]);
      // Each batch's rollups ran after the other's commit or saw it: every hour and day counts both points.
      const [check] = await queryRows<{ hours: number; hourly: number; days: number; daily: number }>(
        fx.db,
        sql`WITH direct AS (
              SELECT h.hour_start, sum(h.value) AS s, count(*)::int AS n
              FROM hourly_consumption h JOIN measurement_points p ON p.id = h.measurement_point_id
              WHERE p.property_id = ${fx.propertyId} AND p.quantity = 'heat-energy'
                AND h.hour_start >= '2025-11-30T23:00:00Z' GROUP BY 1),
            days AS (
              SELECT d.day, sum(d.sum) AS s, count(*)::int AS n
              FROM daily_rollups d JOIN measurement_points p ON p.id = d.measurement_point_id
              WHERE p.property_id = ${fx.propertyId} AND p.quantity = 'heat-energy' AND d.day >= '2025-12-01'
              GROUP BY 1)
            SELECT (SELECT count(*)::int FROM direct WHERE n = 2) AS hours,
                   (SELECT count(*)::int FROM direct d JOIN property_hourly_rollups r
                      ON r.property_id = ${fx.propertyId} AND r.quantity = 'heat-energy' AND r.hour_start = d.hour_start
                    WHERE r.sum = d.s AND r.apartments = 2) AS hourly,
                   (SELECT count(*)::int FROM days WHERE n = 2) AS days,
                   (SELECT count(*)::int FROM days d JOIN property_daily_rollups r
                      ON r.property_id = ${fx.propertyId} AND r.quantity = 'heat-energy' AND r.day = d.day
                    WHERE r.sum = d.s AND r.apartments = 2) AS daily`,
      );
      expect(check).toEqual({ hours: 48, hourly: 48, days: 3, daily: 3 });
    },
  );

  it("property hourly rollups count an apartment's area once when it has two points of the quantity", async () => {
    // Two cold-water points in the small apartment, one in the large one.
    await point('cold-water-volume', 'register', [{ number: 'CW-S1' }], fx.smallApartment);
    await point('cold-water-volume', 'register', [{ number: 'CW-S2' }], fx.smallApartment);
    await point('cold-water-volume', 'register', [{ number: 'CW-L' }], fx.largeApartment);
    const at = (h: number) => `2025-09-01T0${h}:00:00Z`;
    await ingestReadings(fx.db, [
      ...rows('CW-S1', [
        [at(0), '1'],
        [at(1), '1.5'],
        [at(2), '2'],
      ]),
      ...rows('CW-S2', [
        [at(0), '3'],
        [at(1), '3.25'],
      ]),
      ...rows('CW-L', [
        [at(1), '10'],
        [at(2), '11'],
      ]),
    ]);
    const read = () =>
      queryRows<{ hour: string; sum: string; area_m2: string; count: number; apartments: number }>(
        fx.db,
        sql`SELECT to_char(hour_start AT TIME ZONE 'UTC', 'HH24') AS hour, sum::text, area_m2::text, count, apartments
            FROM property_hourly_rollups WHERE property_id = ${fx.propertyId} AND quantity = 'cold-water-volume'
            ORDER BY hour_start`,
      );
    const expected = [
      // 00: both small points (0.5 + 0.25): the small apartment once.
      { hour: '00', sum: '0.75', area_m2: '50', count: 2, apartments: 1 },
      // 01: one small point (0.5) and the large one (1).
      { hour: '01', sum: '1.5', area_m2: '150', count: 2, apartments: 2 },
    ];
    expect(await read()).toEqual(expected);
    // The first load's path (one pass over every hour) gives the same rows.
    await fx.db.execute(sql`DELETE FROM property_hourly_rollups WHERE quantity = 'cold-water-volume'`);
    await rebuildPropertyHourlyRollups(fx.db);
    expect(await read()).toEqual(expected);
  });
});

describe('apartments', () => {
  it('refuse a zero or negative area and zero rooms, since per-m² figures divide by the area', async () => {
    const row = {
      propertyId: fx.propertyId,
      apartment: '1. th',
      address: 'Testvej 1',
      zipcode: '8000',
      city: 'Aarhus',
    };
    for (const [uniqueId, areaM2, rooms] of [
      ['Z1', '0', 2],
      ['Z2', '-40', 2],
      ['Z3', '40', 0],
    ] as const) {
      await expect(fx.db.insert(apartments).values({ ...row, uniqueId, areaM2, rooms })).rejects.toThrow();
    }
    const [{ n }] = await queryRows<{ n: number }>(
      fx.db,
      sql`SELECT count(*)::int AS n FROM apartments WHERE unique_id LIKE 'Z%'`,
    );
    expect(n).toBe(0);
  });
});
