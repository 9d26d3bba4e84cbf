/**
 * A small, exactly known dataset for the API tests: one property, two apartments, four users, hourly values
 * around both 2025 DST changes, rollups derived from them in SQL, prices and a CO2 factor.
 */
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { hashPassword } from '../../../src/server/auth/password.ts';
import type { Db } from '../../../src/server/db/client.ts';
import {
  accounts,
  apartments,
  hourlyConsumption,
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
} from '../../../src/server/db/schema.ts';

export const PASSWORD = 'Demo#Tenant2026';

/** Hourly data exists for these local date ranges (end exclusive): around the spring and autumn DST days. */
export const DATA_RANGES = [
  { from: '2025-02-20', to: '2025-04-06' },
  { from: '2025-10-20', to: '2025-11-03' },
] as const;

/** Heat energy (kWh) of apartment A in the hour starting at `instant`: cycles 1, 1.25, 1.5, 1.75, 2. */
export function heatA(instant: Temporal.Instant): number {
  return 1 + ((instant.epochMilliseconds / 3_600_000) % 5) * 0.25;
}
/** Heat energy of apartment B: a constant 3 kWh. */
export const HEAT_B = 3;
/** Indoor temperatures of A's two rooms: 20, 21 or 22 °C in the living room, 24 °C in the bedroom. */
export function livingRoomTemp(instant: Temporal.Instant): number {
  return 20 + ((instant.epochMilliseconds / 3_600_000) % 3);
}
export const BEDROOM_TEMP = 24;

export interface Fixture {
  users: {
    alice: { id: number; email: string };
    bob: { id: number; email: string };
    previous: { id: number; email: string };
    inactive: { id: number; email: string };
  };
  apartmentA: number;
  apartmentB: number;
  points: { heatA: number; heatB: number; livingRoom: number; bedroom: number };
  propertyId: number;
  accountId: number;
}

/** Every UTC hour start of the Copenhagen local dates [fromDate, toDate). */
export function hoursOf(fromDate: string, toDate: string): Temporal.Instant[] {
  const tz = 'Europe/Copenhagen';
  const start = Temporal.PlainDate.from(fromDate).toZonedDateTime(tz).toInstant();
  const end = Temporal.PlainDate.from(toDate).toZonedDateTime(tz).toInstant();
  const hours: Temporal.Instant[] = [];
  for (let t = start; Temporal.Instant.compare(t, end) < 0; t = t.add({ hours: 1 })) hours.push(t);
  return hours;
}

/** The hours of [fromDate, toDate) that have fixture data. */
export function dataHoursOf(fromDate: string, toDate: string): Temporal.Instant[] {
  const covered = DATA_RANGES.flatMap((r) => hoursOf(r.from, r.to).map((h) => h.epochMilliseconds));
  const set = new Set(covered);
  return hoursOf(fromDate, toDate).filter((h) => set.has(h.epochMilliseconds));
}

/** Inserts the fixture and returns its ids. */
export async function seedFixture(db: Db): Promise<Fixture> {
  const passwordHash = await hashPassword(PASSWORD);
  // Its ended tenancy (2025) stays readable: these tests are about the data windows, not the grace period.
  const [account] = await db
    .insert(accounts)
    .values({ name: 'Test landlord', moveOutGraceMonths: 120 })
    .returning();
  const [property] = await db
    .insert(properties)
    .values({
      accountId: account!.id,
      number: '1001',
      address: 'Testvej 1',
      zipcode: '8000',
      city: 'Aarhus C',
    })
    .returning();
  await db.insert(propertySettings).values({ propertyId: property!.id, kind: 'HOURLY_VALUES' });
  await db
    .insert(propertyCo2Factors)
    .values({ propertyId: property!.id, quantity: 'heat-energy', gramPerQuantityUnit: '100' });
  const [aptA, aptB] = await db
    .insert(apartments)
    .values([
      {
        propertyId: property!.id,
        uniqueId: 'U-1001-A',
        apartment: '1. tv',
        address: 'Testvej 1, 1. tv',
        zipcode: '8000',
        city: 'Aarhus C',
        areaM2: '80',
        rooms: 3,
      },
      {
        propertyId: property!.id,
        uniqueId: 'U-1001-B',
        apartment: '1. th',
        address: 'Testvej 1, 1. th',
        zipcode: '8000',
        city: 'Aarhus C',
        areaM2: '50',
        rooms: 2,
      },
    ])
    .returning();
  const [alice, bob, previous, inactive] = await db
    .insert(users)
    .values([
      { email: 'alice@test.test', name: 'Alice', passwordHash, language: 'da' },
      { email: 'bob@test.test', name: 'Bob', passwordHash },
      { email: 'previous@test.test', name: 'Previous', passwordHash },
      { email: 'inactive@test.test', name: 'Inactive', passwordHash, isActive: false },
    ])
    .returning();
  const [permission] = await db
    .insert(permissions)
    .values({ name: 'view_consumption', description: 'May view consumption' })
    .returning();
  await db.insert(userPermissions).values({ userId: alice!.id, permissionId: permission!.id });
  await db.insert(userAccounts).values({ userId: alice!.id, accountId: account!.id });
  const [tenancyA, tenancyB, tenancyPrevious] = await db
    .insert(tenancies)
    .values([
      {
        apartmentId: aptA!.id,
        tenancyId: 'T-A-2025',
        tenant: 'Alice A.',
        start: '2025-03-01',
        billingStart: '2025-01-01',
        billingEnd: '2025-12-31',
      },
      { apartmentId: aptB!.id, tenancyId: 'T-B-2024', tenant: 'Bob B.', start: '2024-01-01' },
      {
        apartmentId: aptA!.id,
        tenancyId: 'T-A-2024',
        tenant: 'Previous P.',
        start: '2024-01-01',
        end: '2025-02-28',
      },
    ])
    .returning();
  await db.insert(tenancyMembers).values([
    { tenancyId: tenancyA!.id, userId: alice!.id, isAdmin: true },
    { tenancyId: tenancyB!.id, userId: bob!.id },
    { tenancyId: tenancyPrevious!.id, userId: previous!.id },
  ]);
  const point = (
    apartmentId: number,
    quantity: string,
    unit: string,
    room: string | null,
    readingKind: 'register' | 'instantaneous',
  ) => ({
    propertyId: property!.id,
    apartmentId,
    quantity,
    unit,
    room,
    name: room ?? quantity,
    readingKind,
  });
  const [pHeatA, pHeatB, pLiving, pBedroom] = await db
    .insert(measurementPoints)
    .values([
      point(aptA!.id, 'heat-energy', 'kilo-watt-hour', null, 'register'),
      point(aptB!.id, 'heat-energy', 'kilo-watt-hour', null, 'register'),
      point(aptA!.id, 'indoor-temperature', 'degree-celsius', 'Living room', 'instantaneous'),
      point(aptA!.id, 'indoor-temperature', 'degree-celsius', 'Bedroom', 'instantaneous'),
    ])
    .returning();
  const installedAt = new Date('2020-01-01T00:00:00Z');
  await db.insert(meters).values([
    { measurementPointId: pHeatA!.id, number: 'M-HEAT-A', legacyKind: 'energy', installedAt },
    { measurementPointId: pHeatB!.id, number: 'M-HEAT-B', legacyKind: 'energy', installedAt },
    { measurementPointId: pLiving!.id, number: 'M-TEMP-A1', legacyKind: 'temperature', installedAt },
    { measurementPointId: pBedroom!.id, number: 'M-TEMP-A2', legacyKind: 'temperature', installedAt },
  ]);
  await db.insert(prices).values([
    {
      propertyId: property!.id,
      quantity: 'heat-energy',
      price: '0.5',
      currency: 'DKK',
      validFrom: '2025-01-01',
      validTo: '2025-03-15',
    },
    {
      propertyId: property!.id,
      quantity: 'heat-energy',
      price: '1.0',
      currency: 'DKK',
      validFrom: '2025-03-15',
    },
  ]);

  const rows: (typeof hourlyConsumption.$inferInsert)[] = [];
  for (const range of DATA_RANGES) {
    for (const hour of hoursOf(range.from, range.to)) {
      const hourStart = new Date(hour.epochMilliseconds);
      rows.push({ measurementPointId: pHeatA!.id, hourStart, value: String(heatA(hour)) });
      rows.push({ measurementPointId: pHeatB!.id, hourStart, value: String(HEAT_B) });
      rows.push({ measurementPointId: pLiving!.id, hourStart, value: String(livingRoomTemp(hour)) });
      rows.push({ measurementPointId: pBedroom!.id, hourStart, value: String(BEDROOM_TEMP) });
    }
  }
  for (let i = 0; i < rows.length; i += 1000)
    await db.insert(hourlyConsumption).values(rows.slice(i, i + 1000));
  // Rollups as the ingestion path defines them: per Copenhagen day, then per month from the days.
  await db.execute(sql`INSERT INTO daily_rollups (measurement_point_id, day, sum, min, max, count)
    SELECT measurement_point_id, (hour_start AT TIME ZONE 'Europe/Copenhagen')::date, sum(value), min(value), max(value), count(*)
    FROM hourly_consumption GROUP BY 1, 2`);
  await db.execute(sql`INSERT INTO monthly_rollups (measurement_point_id, month, sum, min, max, count)
    SELECT measurement_point_id, date_trunc('month', day::timestamp)::date, sum(sum), min(min), max(max), sum(count)
    FROM daily_rollups GROUP BY 1, 2`);

  const ref = (u: typeof alice) => ({ id: u!.id, email: u!.email });
  return {
    users: { alice: ref(alice), bob: ref(bob), previous: ref(previous), inactive: ref(inactive) },
    apartmentA: aptA!.id,
    apartmentB: aptB!.id,
    points: { heatA: pHeatA!.id, heatB: pHeatB!.id, livingRoom: pLiving!.id, bedroom: pBedroom!.id },
    propertyId: property!.id,
    accountId: account!.id,
  };
}
