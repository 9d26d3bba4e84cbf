/**
 * A property-level supply heat meter in `import-property` (JSON and CSV), and the allocator kWh estimate that
 * uses it: an allocator-only building and a mixed one, imported as an operator would, with readings through the
 * importer; a month's estimate the same whatever the period asked (issue 22). On PGlite and PostgreSQL.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importProperty, PropertyImportError } from '../../src/server/account/importProperty.ts';
import { importPropertyCsv } from '../../src/server/account/importPropertyCsv.ts';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  apartments,
  measurementPoints,
  meters,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { ingestReadings } from '../../src/server/ingest/ingest.ts';
import type { ReadingRow } from '../../src/server/ingest/types.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { hoursOf } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;

const flat = (uniqueId: string, points: unknown[], tenancyId?: string) => ({
  uniqueId,
  apartment: 'st. tv',
  address: 'Varmevej 1',
  zipcode: '8000',
  city: 'Aarhus C',
  areaM2: 60,
  rooms: 2,
  measurementPoints: points,
  tenancies: tenancyId ? [{ tenancyId, start: '2025-01-01' }] : [],
});
const meterPoint = (quantity: string, name: string, number: string) => ({
  quantity,
  name,
  meters: [{ number, installedAt: '2025-01-01T00:00:00Z' }],
});

/** Register readings every hour of local dates [from, to), plus the next midnight, rising by `perHour`. */
function readings(meterNumber: string, from: string, to: string, perHour: number): ReadingRow[] {
  const hours = hoursOf(from, to);
  hours.push(Temporal.PlainDate.from(to).toZonedDateTime('Europe/Copenhagen').toInstant());
  return hours.map((h, i) => ({
    line: i + 2,
    meterNumber,
    ts: h.toString(),
    value: (i * perHour).toFixed(3),
  }));
}

async function tenantToken(tenancyRef: string, email: string) {
  const { db } = database;
  const [t] = await db.select().from(tenancies).where(eq(tenancies.tenancyId, tenancyRef));
  const [user] = await db.insert(users).values({ email, language: 'en' }).returning();
  await db.insert(tenancyMembers).values({ tenancyId: t!.id, userId: user!.id });
  return {
    apartmentId: t!.apartmentId,
    token: (await signAccessToken('tenant', api.services.keys.tenant, user!, 600)).token,
  };
}

type Kpi = {
  total: number | null;
  kwhEstimate: number | null;
  kwhEstimateMethod: string | null;
  kwhPerUnit: number | null;
};
async function hcaKpi(who: { apartmentId: number; token: string }, from: string, to: string): Promise<Kpi> {
  const r = await gql<{ unitQuantityKpis: Kpi[] }>(
    api.tenant,
    `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) { total kwhEstimate kwhEstimateMethod kwhPerUnit } }`,
    {
      input: {
        unitId: String(who.apartmentId),
        quantities: ['hca'],
        periodBegin: from,
        periodEnd: to,
        hcaKwhEstimate: true,
      },
    },
    who.token,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.unitQuantityKpis[0]!;
}

beforeAll(async () => {
  database = await freshDatabase();
  api = await createTestApi(database);
}, 600_000);
afterAll(async () => {
  await database?.close();
});

describe(`import-property supply heat meter (${testEngine})`, () => {
  it('refuses allocators at the property level and a supply meter number used twice, writing nothing', async () => {
    const bad = {
      account: 'Varme A/S',
      property: {
        number: 'SUP-BAD',
        address: 'Varmevej 1',
        zipcode: '8000',
        city: 'Aarhus C',
        measurementPoints: [meterPoint('hca', 'Stair', 'X-1'), meterPoint('heat-energy', 'Supply', 'A-1')],
      },
      apartments: [flat('BAD-A', [meterPoint('hca', 'Living room', 'A-1')])],
    };
    const error = await importProperty(database.db, bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PropertyImportError);
    expect((error as PropertyImportError).problems).toEqual([
      'property.measurementPoints.0.quantity: allocators (hca) belong in a flat',
    ]);
    const again = await importProperty(database.db, {
      ...bad,
      property: { ...bad.property, measurementPoints: [bad.property.measurementPoints[1]] },
    }).catch((e: unknown) => e);
    expect((again as PropertyImportError).problems).toEqual(['meter number A-1 appears more than once']);
    expect(await database.db.select().from(meters)).toEqual([]);
  });

  it('imports an allocator-only building with its supply meter (JSON) and estimates kWh from it, month by month', async () => {
    const result = await importProperty(database.db, {
      account: 'Varme A/S',
      property: {
        number: 'SUP-1',
        address: 'Varmevej 1',
        zipcode: '8000',
        city: 'Aarhus C',
        measurementPoints: [meterPoint('heat-energy', 'Supply', 'SUP-1-H')],
      },
      apartments: [
        flat('SUP-1-A', [meterPoint('hca', 'Living room', 'SUP-1-A1')], 'T-SUP-1-A'),
        flat('SUP-1-B', [meterPoint('hca', 'Living room', 'SUP-1-B1')], 'T-SUP-1-B'),
      ],
    });
    expect(result).toMatchObject({ apartments: 2, measurementPoints: 3, meters: 3, tenancies: 2 });
    const [supply] = await database.db
      .select()
      .from(measurementPoints)
      .where(and(eq(measurementPoints.propertyId, result.propertyId), isNull(measurementPoints.apartmentId)));
    expect(supply).toMatchObject({
      quantity: 'heat-energy',
      unit: 'kilo-watt-hour',
      readingKind: 'register',
      name: 'Supply',
    });
    // October at 10 kWh an hour into the building, November at 12; the flats' allocators 2 and 3 units an hour.
    await ingestReadings(database.db, [
      ...readings('SUP-1-H', '2025-10-01', '2025-11-01', 10),
      ...readings('SUP-1-A1', '2025-10-01', '2025-11-01', 2),
      ...readings('SUP-1-B1', '2025-10-01', '2025-11-01', 3),
    ]);
    const a = await tenantToken('T-SUP-1-A', 'sup1a@test.test');
    const october = await hcaKpi(a, '2025-10-01', '2025-10-31');
    const hours = hoursOf('2025-10-01', '2025-11-01').length;
    expect(october.total).toBeCloseTo(2 * hours, 6);
    expect(october.kwhEstimateMethod).toBe('supply-meter');
    // The supply's 10 kWh an hour shared over 5 units an hour: 2 kWh a unit.
    expect(october.kwhPerUnit).toBeCloseTo(2, 9);
    expect(october.kwhEstimate).toBeCloseTo(4 * hours, 6);
    // One week of October at October's factor: the estimate does not depend on the period asked.
    const week = await hcaKpi(a, '2025-10-06', '2025-10-12');
    expect(week.kwhPerUnit).toBeCloseTo(2, 9);
    expect(week.kwhEstimate).toBeCloseTo(week.total! * 2, 6);
    // The allocator flats together get exactly what the supply meter measured.
    const b = await tenantToken('T-SUP-1-B', 'sup1b@test.test');
    const octoberB = await hcaKpi(b, '2025-10-01', '2025-10-31');
    expect(october.kwhEstimate! + octoberB.kwhEstimate!).toBeCloseTo(10 * hours, 6);
  });

  it('imports a mixed building with its supply meter (CSV, no apartment) and shares out what the heat-metered flat did not use', async () => {
    const csv = [
      'property,Varme A/S,SUP-2,,Varmevej 2,8000,Aarhus C',
      'apartment,SUP-2-A,st. tv,Varmevej 2,8000,Aarhus C,60,2',
      'apartment,SUP-2-H,st. th,Varmevej 2,8000,Aarhus C,60,2',
      'point,,heat-energy,Supply',
      'point,SUP-2-A,hca,Living room,Living room',
      'point,SUP-2-H,heat-energy,Heat',
      'meter,,Supply,SUP-2-S,2025-01-01T00:00:00Z',
      'meter,SUP-2-A,Living room,SUP-2-A1,2025-01-01T00:00:00Z',
      'meter,SUP-2-H,Heat,SUP-2-H1,2025-01-01T00:00:00Z',
      'tenancy,SUP-2-A,T-SUP-2-A,,2025-01-01',
    ].join('\n');
    const result = await importPropertyCsv(database.db, csv);
    expect(result).toMatchObject({ apartments: 2, measurementPoints: 3, meters: 3, tenancies: 1 });
    const points = await database.db
      .select({ name: measurementPoints.name, apartment: apartments.uniqueId })
      .from(measurementPoints)
      .leftJoin(apartments, eq(apartments.id, measurementPoints.apartmentId))
      .where(eq(measurementPoints.propertyId, result.propertyId));
    expect(points).toContainEqual({ name: 'Supply', apartment: null });
    // 20 kWh an hour into the building, 8 used by the heat-metered flat, 4 allocator units an hour: 3 kWh a unit.
    await ingestReadings(database.db, [
      ...readings('SUP-2-S', '2025-10-01', '2025-10-04', 20),
      ...readings('SUP-2-H1', '2025-10-01', '2025-10-04', 8),
      ...readings('SUP-2-A1', '2025-10-01', '2025-10-04', 4),
    ]);
    const a = await tenantToken('T-SUP-2-A', 'sup2a@test.test');
    const days = await hcaKpi(a, '2025-10-01', '2025-10-03');
    expect(days.kwhEstimateMethod).toBe('supply-meter');
    expect(days.kwhPerUnit).toBeCloseTo(3, 9);
    expect(days.kwhEstimate).toBeCloseTo(12 * 72, 6);
    // A CSV allocator at the property level is refused with its line.
    const bad = await importPropertyCsv(
      database.db,
      `${csv.replaceAll('SUP-2', 'SUP-3')}\npoint,,hca,Stair`,
    ).catch((e: unknown) => e);
    expect((bad as PropertyImportError).problems).toEqual([
      'line 11 (property.measurementPoints.1.quantity): allocators (hca) belong in a flat',
    ]);
  });
});
