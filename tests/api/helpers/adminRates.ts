/**
 * The console's prices, fixed charges and CO₂ factors in the API tests (issue 21, /admin/prices): the operations,
 * and the role matrix's fixture with a heat meter, a heat price, a CO₂ factor and a fixed charge on P1.
 */
import { eq } from 'drizzle-orm';
import { localToday } from '../../../src/server/admin/rateImpact.ts';
import {
  apartments,
  auditLog,
  fixedCharges,
  prices,
  propertyCo2Factors,
  tenancies,
} from '../../../src/server/db/schema.ts';
import { type AdminMatrix, setUpAdminMatrix } from './adminMatrix.ts';
import { heatPoint } from './property.ts';

const IMPACT =
  'from to months alsoFuture issuedReports changesPast tenancies { reference apartment start end }';
const RATES =
  'propertyId prices { id quantity amount currency validFrom validTo } fixedCharges { id chargeKind quantity amount validFrom validTo } co2Factors { id quantity amount currency validFrom validTo }';
export const S = {
  rates: `query ($p: ID!) { propertyRates(propertyId: $p) { ${RATES} } }`,
  preview: `query ($i: RatePeriodInput!) { previewRatePeriod(input: $i) { ${IMPACT} } }`,
  add: `mutation ($i: RatePeriodInput!, $c: Boolean, $r: String) { addRatePeriod(input: $i, confirm: $c, reason: $r) { ${RATES} } }`,
  previewCorrection: `query ($i: RateCorrectionInput!) { previewRateCorrection(input: $i) { ${IMPACT} } }`,
  correct: `mutation ($i: RateCorrectionInput!, $c: Boolean, $r: String) { correctRate(input: $i, confirm: $c, reason: $r) { ${RATES} } }`,
} as const;

/** The months from `first` (YYYY-MM) to the current one, as the preview lists them. */
export function monthsFrom(first: string): string[] {
  const out: string[] = [];
  const end = localToday().slice(0, 7);
  let [y, mo] = first.split('-').map(Number) as [number, number];
  for (let key = first; key <= end; ) {
    out.push(key);
    mo += 1;
    if (mo > 12) [y, mo] = [y + 1, 1];
    key = `${y}-${String(mo).padStart(2, '0')}`;
  }
  return out;
}

/**
 * The preview of a heat period from a past day on, with no end: the months from its start to now, in the future
 * too, and the one tenancy of a flat with a heat meter (T-P1-1).
 */
export const openImpact = (from: string) => ({
  from,
  to: null,
  months: monthsFrom(from.slice(0, 7)),
  alsoFuture: true,
  issuedReports: 0,
  changesPast: true,
  tenancies: [{ reference: 'T-P1-1', apartment: 'st. tv', start: '2025-01-01', end: null }],
});

export interface RatesFixture {
  m: AdminMatrix;
  /** P1's heat price, 1.00 DKK from 2025-01-01. */
  priceId: number;
  /** P1's heat CO₂ factor, 100 g, valid from the beginning. */
  co2Id: number;
  /** How many audit log entries there are. */
  audits: () => Promise<number>;
  /** The first audit log entry of an action. */
  auditOf: (action: string) => Promise<typeof auditLog.$inferSelect | undefined>;
}

/**
 * The role matrix's fixture plus a heat meter on P1's flat, a second flat of P1 without one (tenancy T-P1-2 from
 * 2025-02-01), a heat price from 2025-01-01, a CO₂ factor from before validity dates and a reading-service charge.
 */
export async function setUpRates(): Promise<RatesFixture> {
  const m = await setUpAdminMatrix();
  const db = m.database.db;
  const [apt] = await db.select().from(apartments).where(eq(apartments.propertyId, m.fx.p1));
  await heatPoint(db, { propertyId: m.fx.p1, apartmentId: apt!.id });
  // A second flat of P1 without a heat meter: a heat price does not touch its tenancy.
  const [apt2] = await db
    .insert(apartments)
    .values({
      propertyId: m.fx.p1,
      uniqueId: 'U-P1-2',
      apartment: '1. tv',
      address: 'Street P1, 1. tv',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: '50',
      rooms: 2,
    })
    .returning();
  await db.insert(tenancies).values({ apartmentId: apt2!.id, tenancyId: 'T-P1-2', start: '2025-02-01' });
  const [p] = await db
    .insert(prices)
    .values({
      propertyId: m.fx.p1,
      quantity: 'heat-energy',
      price: '1.00',
      currency: 'DKK',
      validFrom: '2025-01-01',
    })
    .returning();
  // A factor from before validity dates: valid from the beginning.
  const [f] = await db
    .insert(propertyCo2Factors)
    .values({ propertyId: m.fx.p1, quantity: 'heat-energy', gramPerQuantityUnit: '100' })
    .returning();
  await db.insert(fixedCharges).values({
    propertyId: m.fx.p1,
    kind: 'reading-service',
    quantity: null,
    amountPerYear: '240',
    currency: 'DKK',
    validFrom: '2025-01-01',
  });
  const audits = async () => (await db.select().from(auditLog)).length;
  const auditOf = async (action: string) =>
    (await db.select().from(auditLog).where(eq(auditLog.action, action)))[0];
  return { m, priceId: p!.id, co2Id: f!.id, audits, auditOf };
}
