/** `tenantUnits`: the caller's units (one per apartment of their tenancies) with their path to the property. */
import { asc, eq, inArray } from 'drizzle-orm';
import { propertyCo2Factors, propertySettings, tenancies, tenancyMembers } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { loadUnits, unitDetails, unitObject } from '../objects.ts';
import type { QueryResolvers, TenantUnit } from '../types.generated.ts';

export const tenantUnits: NonNullable<QueryResolvers['tenantUnits']> = async (_parent, _args, ctx) => {
  const userId = requireUserId(ctx);
  const memberships = await ctx.db
    .select({ apartmentId: tenancies.apartmentId, tenant: tenancies.tenant })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .where(eq(tenancyMembers.userId, userId))
    .orderBy(asc(tenancies.start), asc(tenancies.id));
  // The latest tenancy in an apartment names its tenant.
  const tenantOf = new Map(memberships.map((m) => [m.apartmentId, m.tenant]));
  const units = await loadUnits(ctx.db, [...tenantOf.keys()]);
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
  const result: TenantUnit[] = [];
  for (const [apartmentId, tenant] of tenantOf) {
    const found = units.get(apartmentId);
    if (!found) continue;
    const { apartment, property } = found;
    result.push({
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
    });
  }
  return result;
};
