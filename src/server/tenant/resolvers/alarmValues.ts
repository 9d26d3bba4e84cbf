/**
 * `alarmValues`: a quantity's totals (or averages) over the latest complete periods, from the daily rollups.
 * "Latest complete" is judged by the services' clock, the same injectable clock the worker evaluates with.
 * Only days inside the tenancy's dates count (values.ts), so a period that is not wholly the tenancy's is null.
 */
import { z } from 'zod';
import { requireUserId } from '../../graphql/context.ts';
import { parseInput, plainText } from '../../graphql/errors.ts';
import { type AlarmFrequency, recentPeriods } from '../../jobs/alarmPeriods.ts';
import { systemClock } from '../../jobs/clock.ts';
import { periodValue } from '../../jobs/evaluator.ts';
import { alarmSource, dailyTotals } from '../../jobs/values.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { requireTenancy } from './alarmShared.ts';

export const alarmValues: NonNullable<QueryResolvers['alarmValues']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const tenancy = await requireTenancy(ctx.db, userId, args.input.tenancyId);
  const { count, quantity } = parseInput(
    z.object({ count: z.number().int().min(1).max(24).nullish(), quantity: plainText }),
    { count: args.input.count, quantity: args.input.quantity },
  );
  const frequency = args.input.frequency.toLowerCase() as AlarmFrequency;
  const periods = recentPeriods((ctx.services.clock ?? systemClock).now(), frequency, count ?? 1);
  // Only the tenancy's own days: a period partly before move-in or after move-out has no value.
  const source = await alarmSource(ctx.db, tenancy.id, quantity);
  const days = await dailyTotals(ctx.db, source, { start: periods[0]!.start, end: periods.at(-1)!.end });
  const average = args.input.type === 'INDOOR_CLIMATE';
  return periods.map((p) => ({
    periodStart: p.start,
    periodEnd: p.end,
    value: source.points.length ? periodValue(p, days, average) : null,
  }));
};
