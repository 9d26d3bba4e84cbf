/**
 * `tenancyDashboard`: the dashboard of one tenancy in one request (issue 6 §3): what tenantUnits, tenantGraph and
 * three unitQuantityKpis calls (the period, its CO₂, the normalized rating) give for the unit of the tenancy's
 * apartment, with exactly their figures, clips and refusals, in a fixed five statements (issue 20; before, 18):
 * 1. the caller's token and tenancies, with what the unit list shows of their properties (callerTenancies);
 * 2–3. tenantGraph's own two (it is called as it is);
 * 4. the unit's points of the quantities and their current meters;
 * 5. every series of the three KPI sets in one statement (consumption/kpis.ts).
 */
import { z } from 'zod';
import { readDbOf, tokenToCheck } from '../../graphql/context.ts';
import { forbidden, parseInput } from '../../graphql/errors.ts';
import { callerTenancies } from '../callerTenancies.ts';
import { dbId } from '../consumption/common.ts';
import { kpiInput, planKpis } from '../consumption/kpis.ts';
import { pointsAndMeters, seriesCollector } from '../consumption/unitData.ts';
import { seriesTotalsAndValues } from '../graph/series.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { tenantGraph } from './tenantGraph.ts';
import { unitList } from './tenantUnits.ts';

/** The resolvers used here are plain functions; their generated type also allows the `{ resolve }` form. */
function callable<R>(resolver: R): Extract<R, (...args: never[]) => unknown> {
  if (typeof resolver !== 'function') throw new Error('expected a resolver function');
  return resolver as Extract<R, (...args: never[]) => unknown>;
}

const inputSchema = z.looseObject({ tenancyId: dbId });

export const tenancyDashboard: NonNullable<QueryResolvers['tenancyDashboard']> = async (
  parent,
  { input },
  ctx,
  info,
) => {
  // The caller's token is checked with their tenancies (callerCheckPlugin leaves it to this field).
  const caller = tokenToCheck(ctx);
  const { tenancyId } = parseInput(inputSchema, input);
  const tenancies = await callerTenancies(ctx.db, caller);
  // Only an open tenancy of the caller's (grace.ts): unknown ids and other people's get the same FORBIDDEN.
  const apartmentId = tenancies.apartmentOfTenancy.get(tenancyId);
  if (apartmentId === undefined) throw forbidden();
  const access = tenancies.units.get(apartmentId)!;
  const unitId = String(apartmentId);
  const { quantities } = input;
  const graph = await callable(tenantGraph)(
    parent,
    {
      graph: {
        graphType: 'HOURLY_VALUES',
        resolution: input.resolution,
        periodBegin: input.graphBegin,
        periodEnd: input.graphEnd,
        objects: [{ kind: 'UNIT', id: unitId }],
        quantities,
        related: input.related,
      },
    },
    ctx,
    info,
  );
  // The three KPI sets' inputs, checked as unitQuantityKpis checks them, in the order it was called in.
  const sets = [
    kpiInput({ unitId, quantities, periodBegin: input.periodBegin, periodEnd: input.periodEnd }),
    kpiInput({
      unitId,
      quantities,
      periodBegin: input.periodBegin,
      periodEnd: input.periodEnd,
      graphType: 'CO2',
    }),
    kpiInput({
      unitId,
      quantities,
      periodBegin: input.ratingBegin,
      periodEnd: input.ratingEnd,
      normalized: true,
    }),
  ];
  const { points, meters } = await pointsAndMeters(ctx.db, apartmentId, sets[0]!.quantities);
  const collector = seriesCollector();
  const finishes = sets.map((set) => planKpis(set, access, points, collector));
  // The data from the read replica when set and fresh, as unitQuantityKpis reads it.
  const result = await seriesTotalsAndValues(readDbOf(ctx), collector.queries);
  const [kpis, co2, rating] = finishes.map((finish) => finish(result, meters, null));
  return { units: unitList(tenancies), unitId, tenantGraph: graph, kpis: kpis!, co2: co2!, rating: rating! };
};
