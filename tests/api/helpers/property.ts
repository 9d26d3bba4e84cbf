import type { Db } from '../../../src/server/db/client.ts';
import { accounts, apartments, properties } from '../../../src/server/db/schema.ts';

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
