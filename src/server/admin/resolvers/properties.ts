/** Properties as the caller's role reaches them. */
import type { properties as propertiesTable } from '../../db/schema.ts';
import { reachableProperties, requireOperator, requireProperty } from '../scope.ts';
import type { PropertySummary, QueryResolvers } from '../types.generated.ts';

const summary = (p: typeof propertiesTable.$inferSelect): PropertySummary => ({
  id: String(p.id),
  number: p.number,
  name: p.name,
  address: p.address,
  zipcode: p.zipcode,
  city: p.city,
});

export const properties: NonNullable<QueryResolvers['properties']> = async (_p, _a, ctx) => {
  const scope = await requireOperator(ctx);
  return (await reachableProperties(ctx.db, scope)).map(summary);
};

export const property: NonNullable<QueryResolvers['property']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return summary(await requireProperty(ctx.db, scope, args.id));
};
