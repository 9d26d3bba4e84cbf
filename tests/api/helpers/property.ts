import type { Db } from '../../../src/server/db/client.ts';
import {
  accounts,
  apartments,
  measurementPoints,
  meters,
  properties,
} from '../../../src/server/db/schema.ts';

/** An account with one property (P1, Testvej 1, Aarhus) and its apartments; returns their ids in order. */
export async function testProperty(
  db: Db,
  flats: { uniqueId: string; areaM2: string }[],
  number = 'P1',
): Promise<{ propertyId: number; apartmentIds: number[] }> {
  const [account] = await db.insert(accounts).values({ name: 'Test' }).returning();
  const [property] = await db
    .insert(properties)
    .values({ accountId: account!.id, number, address: 'Testvej 1', zipcode: '8000', city: 'Aarhus' })
    .returning();
  const rows = await db
    .insert(apartments)
    .values(
      flats.map((f) => ({
        propertyId: property!.id,
        uniqueId: f.uniqueId,
        apartment: 'st. tv',
        address: 'Testvej 1',
        zipcode: '8000',
        city: 'Aarhus',
        areaM2: f.areaM2,
        rooms: 2,
      })),
    )
    .returning();
  return { propertyId: property!.id, apartmentIds: rows.map((r) => r.id) };
}

/** A register measurement point of an apartment with one meter (installed 2020-01-01); returns the point's id. */
export async function registerMeter(
  db: Db,
  at: { propertyId: number; apartmentId: number },
  quantity: string,
  number: string,
): Promise<number> {
  const [point] = await db
    .insert(measurementPoints)
    .values({ ...at, quantity, unit: 'kilo-watt-hour', name: quantity, readingKind: 'register' })
    .returning();
  await db.insert(meters).values({
    measurementPointId: point!.id,
    number,
    legacyKind: 'energy',
    installedAt: new Date('2020-01-01T00:00:00Z'),
  });
  return point!.id;
}

/** A register heat point named "Heat" (kWh) of an apartment, without a meter; returns its id. */
export async function heatPoint(db: Db, at: { propertyId: number; apartmentId: number }): Promise<number> {
  const [point] = await db
    .insert(measurementPoints)
    .values({ ...at, quantity: 'heat-energy', unit: 'kilo-watt-hour', name: 'Heat', readingKind: 'register' })
    .returning();
  return point!.id;
}
