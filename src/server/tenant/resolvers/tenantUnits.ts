/** `tenantUnits`: the caller's units (one per apartment of their tenancies) with their path to the property. */
import { inArray } from 'drizzle-orm';
import { propertyCo2Factors, propertySettings } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { callerUnits } from '../access.ts';
import { unitDetails, unitObject } from '../objects.ts';
import type { QueryResolvers } from '../types.generated.ts';

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
          co2Factors: factors
            .filter((f) => f.propertyId === property.id)
            .map((f) => ({ quantity: f.quantity, gramPerQuantityUnit: Number(f.gramPerQuantityUnit) })),
        },
      },
    ],
  }));
};
