/**
 * Fixed charges (subscription, meter rent, reading service): yearly amounts spread evenly over the days of each
 * year, summed per bucket, inside the charge's validity and the caller's tenancy windows.
 */
import { and, asc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import type { Db } from '../../db/client.ts';
import { fixedCharges } from '../../db/schema.ts';
import type { UnitAccess } from '../access.ts';

export type FixedChargeRow = typeof fixedCharges.$inferSelect;

/** The property's charges valid at any time in [from, to) (dates), oldest first; one statement. */
export function chargesOverlapping(
  db: Db,
  propertyId: number,
  from: Temporal.PlainDate,
  to: Temporal.PlainDate,
): Promise<FixedChargeRow[]> {
  return db
    .select()
    .from(fixedCharges)
    .where(
      and(
        eq(fixedCharges.propertyId, propertyId),
        lte(fixedCharges.validFrom, to.subtract({ days: 1 }).toString()),
        or(isNull(fixedCharges.validTo), gte(fixedCharges.validTo, from.add({ days: 1 }).toString())),
      ),
    )
    .orderBy(asc(fixedCharges.kind), asc(fixedCharges.validFrom));
}

/** Whether a local date lies in one of the unit's tenancy windows. */
function inTenancy(day: Temporal.PlainDate, access: UnitAccess): boolean {
  return access.windows.some(
    (w) =>
      Temporal.PlainDate.compare(day, w.from.toPlainDate()) >= 0 &&
      (w.to === null || Temporal.PlainDate.compare(day, w.to.toPlainDate()) < 0),
  );
}

/**
 * A charge's amount in [from, to) (dates): per day amountPerYear / days of that year, for the days inside its
 * validity and the tenancy. Null when no day of the range is inside the tenancy.
 */
export function chargeBetween(
  charge: Pick<FixedChargeRow, 'amountPerYear' | 'validFrom' | 'validTo'>,
  from: Temporal.PlainDate,
  to: Temporal.PlainDate,
  access: UnitAccess,
): number | null {
  const validFrom = Temporal.PlainDate.from(charge.validFrom);
  const validTo = charge.validTo ? Temporal.PlainDate.from(charge.validTo) : null;
  const perYear = Number(charge.amountPerYear);
  let total = 0;
  let tenancyDays = 0;
  for (let d = from; Temporal.PlainDate.compare(d, to) < 0; d = d.add({ days: 1 })) {
    if (!inTenancy(d, access)) continue;
    tenancyDays++;
    if (Temporal.PlainDate.compare(d, validFrom) < 0) continue;
    if (validTo && Temporal.PlainDate.compare(d, validTo) >= 0) continue;
    total += perYear / d.daysInYear;
  }
  return tenancyDays === 0 ? null : Math.round(total * 100) / 100;
}

/**
 * Demo fixed charges (DKK per year), loaded with the demo property's prices (src/server/demo/property.ts).
 */
const DEMO_FIXED_CHARGES = [
  { kind: 'subscription', quantity: 'heat-energy', amountPerYear: '1450' },
  { kind: 'meter-rent', quantity: 'cold-water-volume', amountPerYear: '180' },
  { kind: 'meter-rent', quantity: 'hot-water-volume', amountPerYear: '180' },
  { kind: 'reading-service', quantity: null, amountPerYear: '240' },
] as const;

/** Inserts DEMO_FIXED_CHARGES for a property, valid from 1 January of `firstYear`, open-ended; one statement. */
export async function insertDemoFixedCharges(db: Db, propertyId: number, firstYear: number): Promise<void> {
  await db.insert(fixedCharges).values(
    DEMO_FIXED_CHARGES.map((c) => ({
      propertyId,
      kind: c.kind,
      quantity: c.quantity,
      amountPerYear: c.amountPerYear,
      currency: 'DKK',
      validFrom: `${firstYear}-01-01`,
    })),
  );
}
