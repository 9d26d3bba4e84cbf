/**
 * The consumption tests' dataset: the shared API fixture (property 1001, apartments A and B, DST-spanning hourly
 * heat) plus a third apartment C (so property figures may be shown), an outdoor-temperature point whose March 2025
 * degree days equal the normal year's March, heat-cost allocators, fixed charges, register readings for
 * A's heat meter, and a second property with a tenant of its own (Dave). Rollups as ingestion defines them.
 */

import { sql } from 'drizzle-orm';
import type { Temporal } from 'temporal-polyfill';
import { hashPassword } from '../../src/server/auth/password.ts';
import type { Db } from '../../src/server/db/client.ts';
import {
  apartments,
  fixedCharges,
  hourlyConsumption,
  measurementPoints,
  meters,
  properties,
  registerReadings,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { refreshAllDegreeDays } from '../../src/server/tenant/degreeDays.ts';
import { DATA_RANGES, type Fixture, hoursOf, PASSWORD, seedFixture } from './helpers/fixtures.ts';
import { rollUpHours } from './helpers/rollups.ts';

/** Heat of apartment C: a constant 2 kWh an hour. */
export const HEAT_C = 2;
/** Allocator units per hour: A's living room 0.5, A's bedroom 0.25, B 1, C 0.75. */
export const HCA = { aLiving: 0.5, aBedroom: 0.25, b: 1, c: 0.75 } as const;
export const AREA = { a: 80, b: 50, c: 70 } as const;

/**
 * Outdoor temperature (°C) on a local day: in March 2025, 3.125 on every day but the 31st (3.25), so March has
 * 30 × 13.875 + 13.75 = 430 degree days, the normal March; 10 °C on every other day (7 degree days).
 */
function outdoorOn(day: Temporal.PlainDate): number {
  if (day.year === 2025 && day.month === 3) return day.day === 31 ? 3.25 : 3.125;
  return 10;
}

export interface ConsumptionFixture extends Fixture {
  apartmentC: number;
  property2: number;
  apartmentD: number;
  tenancyA: number;
  tenancyB: number;
  dave: { id: number; email: string };
  points: Fixture['points'] & {
    heatC: number;
    outdoor: number;
    hcaALiving: number;
    hcaABedroom: number;
    hcaB: number;
    hcaC: number;
    heatD: number;
  };
  /** A's heat meter, read at every hour start of March 2025: 10000 plus A's heat since 1 March. */
  meterHeatA: number;
}

export async function seedConsumptionFixture(db: Db): Promise<ConsumptionFixture> {
  const fx = await seedFixture(db);
  const propertyId = fx.propertyId;
  const [aptC] = await db
    .insert(apartments)
    .values({
      propertyId,
      uniqueId: 'U-1001-C',
      apartment: '2. tv',
      address: 'Testvej 1, 2. tv',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: String(AREA.c),
      rooms: 3,
    })
    .returning();
  const [property2] = await db
    .insert(properties)
    .values({
      accountId: fx.accountId,
      number: '2002',
      address: 'Andenvej 2',
      zipcode: '8000',
      city: 'Aarhus C',
    })
    .returning();
  const [aptD] = await db
    .insert(apartments)
    .values({
      propertyId: property2!.id,
      uniqueId: 'U-2002-D',
      apartment: 'st.',
      address: 'Andenvej 2, st.',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: '60',
      rooms: 2,
    })
    .returning();
  const [dave] = await db
    .insert(users)
    .values({ email: 'dave@test.test', name: 'Dave', passwordHash: await hashPassword(PASSWORD) })
    .returning();
  const [tenancyD] = await db
    .insert(tenancies)
    .values({ apartmentId: aptD!.id, tenancyId: 'T-D-2024', tenant: 'Dave D.', start: '2024-01-01' })
    .returning();
  await db.insert(tenancyMembers).values({ tenancyId: tenancyD!.id, userId: dave!.id });
  const ids = await db.execute(sql`SELECT t.id, t.tenancy_id FROM tenancies t`);
  const tenancyRows = (Array.isArray(ids) ? ids : (ids as { rows: unknown[] }).rows) as {
    id: number;
    tenancy_id: string;
  }[];
  const tenancyId = (ref: string) => Number(tenancyRows.find((t) => t.tenancy_id === ref)!.id);

  const point = (
    pid: number,
    apartmentId: number | null,
    quantity: string,
    unit: string,
    room: string | null,
    readingKind: 'register' | 'instantaneous',
  ) => ({ propertyId: pid, apartmentId, quantity, unit, room, name: room ?? quantity, readingKind });
  const [pHeatC, pOutdoor, pHcaAL, pHcaAB, pHcaB, pHcaC, pHeatD] = await db
    .insert(measurementPoints)
    .values([
      point(propertyId, aptC!.id, 'heat-energy', 'kilo-watt-hour', null, 'register'),
      point(propertyId, null, 'outdoor-temperature', 'degree-celsius', null, 'instantaneous'),
      point(propertyId, fx.apartmentA, 'hca', 'hca-unit', 'Living room', 'register'),
      point(propertyId, fx.apartmentA, 'hca', 'hca-unit', 'Bedroom', 'register'),
      point(propertyId, fx.apartmentB, 'hca', 'hca-unit', 'Living room', 'register'),
      point(propertyId, aptC!.id, 'hca', 'hca-unit', 'Living room', 'register'),
      point(property2!.id, aptD!.id, 'heat-energy', 'kilo-watt-hour', null, 'register'),
    ])
    .returning();
  const installedAt = new Date('2020-01-01T00:00:00Z');
  await db.insert(meters).values([
    { measurementPointId: pHeatC!.id, number: 'M-HEAT-C', legacyKind: 'energy', installedAt },
    { measurementPointId: pOutdoor!.id, number: 'M-OUT', legacyKind: 'temperature', installedAt },
    { measurementPointId: pHcaAL!.id, number: 'M-HCA-A1', legacyKind: 'radiator', installedAt },
    { measurementPointId: pHcaAB!.id, number: 'M-HCA-A2', legacyKind: 'radiator', installedAt },
    { measurementPointId: pHcaB!.id, number: 'M-HCA-B1', legacyKind: 'radiator', installedAt },
    { measurementPointId: pHcaC!.id, number: 'M-HCA-C1', legacyKind: 'radiator', installedAt },
    { measurementPointId: pHeatD!.id, number: 'M-HEAT-D', legacyKind: 'energy', installedAt },
  ]);
  await db.insert(fixedCharges).values([
    {
      propertyId,
      kind: 'subscription',
      quantity: 'heat-energy',
      amountPerYear: '365',
      currency: 'DKK',
      validFrom: '2025-01-01',
      validTo: '2025-07-01',
    },
    {
      propertyId,
      kind: 'subscription',
      quantity: 'heat-energy',
      amountPerYear: '730',
      currency: 'DKK',
      validFrom: '2025-07-01',
    },
    {
      propertyId: property2!.id,
      kind: 'subscription',
      quantity: 'heat-energy',
      amountPerYear: '999',
      currency: 'DKK',
      validFrom: '2025-01-01',
    },
  ]);

  const rows: (typeof hourlyConsumption.$inferInsert)[] = [];
  for (const range of DATA_RANGES) {
    for (const hour of hoursOf(range.from, range.to)) {
      const hourStart = new Date(hour.epochMilliseconds);
      const day = hour.toZonedDateTimeISO('Europe/Copenhagen').toPlainDate();
      rows.push({ measurementPointId: pHeatC!.id, hourStart, value: String(HEAT_C) });
      rows.push({ measurementPointId: pOutdoor!.id, hourStart, value: String(outdoorOn(day)) });
      rows.push({ measurementPointId: pHcaAL!.id, hourStart, value: String(HCA.aLiving) });
      rows.push({ measurementPointId: pHcaAB!.id, hourStart, value: String(HCA.aBedroom) });
      rows.push({ measurementPointId: pHcaB!.id, hourStart, value: String(HCA.b) });
      rows.push({ measurementPointId: pHcaC!.id, hourStart, value: String(HCA.c) });
      rows.push({ measurementPointId: pHeatD!.id, hourStart, value: '5' });
    }
  }
  for (let i = 0; i < rows.length; i += 1000)
    await db.insert(hourlyConsumption).values(rows.slice(i, i + 1000));

  // A's heat meter readings: one at every hour start of March 2025, the running total of A's heat.
  const march = hoursOf('2025-03-01', '2025-04-01');
  const readings: (typeof registerReadings.$inferInsert)[] = [];
  let register = 10_000;
  const meterA = await db.execute(sql`SELECT id FROM meters WHERE number = 'M-HEAT-A'`);
  const meterHeatA = Number(
    ((Array.isArray(meterA) ? meterA : (meterA as { rows: unknown[] }).rows)[0] as { id: number }).id,
  );
  for (const hour of march) {
    readings.push({ meterId: meterHeatA, ts: new Date(hour.epochMilliseconds), value: register.toFixed(2) });
    register += 1 + ((hour.epochMilliseconds / 3_600_000) % 5) * 0.25;
  }
  for (let i = 0; i < readings.length; i += 1000)
    await db.insert(registerReadings).values(readings.slice(i, i + 1000));

  // Rollups of the new points as ingestion defines them (the shared fixture made those of its own points).
  const newPoints = [pHeatC, pOutdoor, pHcaAL, pHcaAB, pHcaB, pHcaC, pHeatD].map((p) => p!.id);
  await rollUpHours(db, newPoints);
  await refreshAllDegreeDays(db);

  return {
    ...fx,
    apartmentC: aptC!.id,
    property2: property2!.id,
    apartmentD: aptD!.id,
    tenancyA: tenancyId('T-A-2025'),
    tenancyB: tenancyId('T-B-2024'),
    dave: { id: dave!.id, email: dave!.email },
    points: {
      ...fx.points,
      heatC: pHeatC!.id,
      outdoor: pOutdoor!.id,
      hcaALiving: pHcaAL!.id,
      hcaABedroom: pHcaAB!.id,
      hcaB: pHcaB!.id,
      hcaC: pHcaC!.id,
      heatD: pHeatD!.id,
    },
    meterHeatA,
  };
}
