/** `quantityPrices`: the unit prices of the unit's property valid at any time in a date period. */
import { and, asc, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import { z } from 'zod';
import { prices } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { parseInput } from '../../graphql/errors.ts';
import { unitAccess } from '../access.ts';
import { dbId, isoDate, quantityId } from '../consumption/common.ts';
import { checkedPeriod } from '../consumption/unitData.ts';
import type { QueryResolvers } from '../types.generated.ts';

const inputSchema = z.object({
  unitId: dbId,
  quantities: z.array(quantityId).max(25).nullish(),
  periodBegin: isoDate,
  periodEnd: isoDate,
});

export const quantityPrices: NonNullable<QueryResolvers['quantityPrices']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const input = parseInput(inputSchema, args.input);
  const period = checkedPeriod(input.periodBegin, input.periodEnd);
  const access = (await unitAccess(ctx.db, userId, [input.unitId])).get(input.unitId)!;
  const rows = await ctx.db
    .select()
    .from(prices)
    .where(
      and(
        eq(prices.propertyId, access.property.id),
        input.quantities?.length ? inArray(prices.quantity, input.quantities) : undefined,
        lte(prices.validFrom, input.periodEnd),
        or(isNull(prices.validTo), gte(prices.validTo, period.fromDate.add({ days: 1 }).toString())),
      ),
    )
    .orderBy(asc(prices.quantity), asc(prices.validFrom));
  return rows.map((r) => ({
    quantity: r.quantity,
    price: Number(r.price),
    currency: r.currency,
    validFrom: r.validFrom,
    validTo: r.validTo,
  }));
};
