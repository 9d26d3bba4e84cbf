/** `fixedCharges`: the property's fixed charges per MONTH or YEAR bucket of a date period, inside the tenancy. */
import { z } from 'zod';
import { requireUserId } from '../../graphql/context.ts';
import { badInput, parseInput } from '../../graphql/errors.ts';
import { unitAccess } from '../access.ts';
import { dbId, isoDate } from '../consumption/common.ts';
import { chargeBetween, chargesOverlapping } from '../consumption/fixedCharges.ts';
import { checkedPeriod } from '../consumption/unitData.ts';
import { formatBucket, nextBucket, planBuckets } from '../graph/buckets.ts';
import type { QueryResolvers } from '../types.generated.ts';

const inputSchema = z.object({
  unitId: dbId,
  periodBegin: isoDate,
  periodEnd: isoDate,
  resolution: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']),
});

export const fixedCharges: NonNullable<QueryResolvers['fixedCharges']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const input = parseInput(inputSchema, args.input);
  if (input.resolution !== 'MONTH' && input.resolution !== 'YEAR')
    throw badInput('fixedCharges is given per MONTH or YEAR');
  const period = checkedPeriod(input.periodBegin, input.periodEnd);
  const access = (await unitAccess(ctx.db, userId, [input.unitId])).get(input.unitId)!;
  const plan = planBuckets(input.resolution, period.from, period.to);
  const rows = await chargesOverlapping(ctx.db, access.property.id, period.fromDate, period.toDate);
  // Buckets are whole months/years, but only the asked days count.
  const bucketDays = plan.starts.map((start) => {
    const a = start.toPlainDate();
    const b = nextBucket(start, input.resolution).toPlainDate();
    return {
      from: a.until(period.fromDate).sign > 0 ? period.fromDate : a,
      to: b.until(period.toDate).sign < 0 ? period.toDate : b,
    };
  });
  const charges = rows.map((r) => ({
    kind: r.kind,
    quantity: r.quantity,
    amountPerYear: Number(r.amountPerYear),
    currency: r.currency,
    validFrom: r.validFrom,
    validTo: r.validTo,
    values: bucketDays.map((d) => chargeBetween(r, d.from, d.to, access)),
  }));
  const totals = plan.starts.map((_, i) => {
    const parts = charges.map((c) => c.values[i] ?? null).filter((v): v is number => v !== null);
    return parts.length ? Math.round(parts.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  });
  return { timestamps: plan.starts.map(formatBucket), charges, totals };
};
