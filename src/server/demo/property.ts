/** The demo landlord and its property: the account, the property, its settings, CO2 factors, prices and fixed charges. */
import type { Db } from '../db/client.ts';
import { accounts, prices, properties, propertyCo2Factors, propertySettings } from '../db/schema.ts';
import { insertDemoFixedCharges } from '../tenant/consumption/fixedCharges.ts';
import { CITY, type DemoPlan, PROPERTY_NUMBER, ZIPCODE } from './model.ts';

/** Price per quantity unit (DKK) in the first year of history. */
const PRICES: { quantity: string; price: number }[] = [
  { quantity: 'heat-energy', price: 0.78 },
  { quantity: 'hca', price: 0.95 },
  { quantity: 'hot-water-volume', price: 98.5 },
  { quantity: 'cold-water-volume', price: 72.25 },
  { quantity: 'electricity-energy', price: 2.35 },
];

/** Grams of CO2 per quantity unit. */
const CO2: { quantity: string; gram: string }[] = [
  { quantity: 'heat-energy', gram: '62' },
  { quantity: 'hot-water-volume', gram: '7800' },
  { quantity: 'cold-water-volume', gram: '310' },
  { quantity: 'electricity-energy', gram: '118' },
];

/** Creates the account and its property with prices from the plan's first year to `year`; returns their ids. */
export async function seedProperty(
  tx: Db,
  plan: DemoPlan,
  year: number,
): Promise<{ accountId: number; propertyId: number }> {
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
  return { accountId: account!.id, propertyId };
}
