/** `tenantUnits`: the caller's units (one per apartment of their tenancies) with their path to the property. */
import { inArray } from 'drizzle-orm';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { propertyCo2Factors, propertySettings } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { callerUnits } from '../access.ts';
import { unitDetails, unitObject } from '../objects.ts';
import type { QueryResolvers } from '../types.generated.ts';

type FactorRow = typeof propertyCo2Factors.$inferSelect;

/**
 * One CO₂ factor per quantity of a property: the period valid today, else the latest one. The figures use each
 * day's own factor (graph/series.ts); this list says which quantities have CO₂ at all, and today's grams.
 */
function currentFactors(rows: FactorRow[], propertyId: number) {
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: TIME_ZONE }).format(new Date());
  const byQuantity = new Map<string, FactorRow>();
  const rank = (r: FactorRow) =>
    `${(r.validFrom ?? '') <= today && (r.validTo === null || r.validTo > today) ? 1 : 0}${r.validFrom ?? ''}`;
  for (const r of rows) {
    if (r.propertyId !== propertyId) continue;
    const known = byQuantity.get(r.quantity);
    if (!known || rank(r) > rank(known)) byQuantity.set(r.quantity, r);
  }
  return [...byQuantity.values()]
    .sort((a, b) => a.quantity.localeCompare(b.quantity))
    .map((f) => ({ quantity: f.quantity, gramPerQuantityUnit: Number(f.gramPerQuantityUnit) }));
}

export const tenantUnits: NonNullable<QueryResolvers['tenantUnits']> = async (_parent, _args, ctx) => {
  const userId = requireUserId(ctx);
  const units = await callerUnits(ctx.db, userId);
  const propertyIds = [...new Set([...units.values()].map((u) => u.property.id))];
  const settings = propertyIds.length
    ? await ctx.db.select().from(propertySettings).where(inArray(propertySettings.propertyId, propertyIds))
    : [];
  const factors = propertyIds.length
    ? await ctx.db
        .select()
        .from(propertyCo2Factors)
        .where(inArray(propertyCo2Factors.propertyId, propertyIds))
    : [];
  return [...units.values()].map(({ apartment, property, tenant }) => ({
    unit: unitDetails(apartment, tenant),
    object: unitObject(apartment, property, tenant),
    path: [
      {
        property: {
          id: String(property.id),
          number: property.number,
          settings: settings.filter((s) => s.propertyId === property.id).map((s) => ({ kind: s.kind })),
          co2Factors: currentFactors(factors, property.id),
        },
      },
    ],
  }));
};
