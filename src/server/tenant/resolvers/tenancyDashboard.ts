/**
 * `tenancyDashboard`: the dashboard of one tenancy in one request (issue 6 §3). It checks that the caller is a
 * member of the tenancy, then asks tenantUnits, tenantGraph and unitQuantityKpis for the unit of the tenancy's
 * apartment, so every figure, clip and refusal is exactly theirs (each checks the unit's access again).
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { tenancies, tenancyMembers } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { forbidden, parseInput } from '../../graphql/errors.ts';
import { dbId } from '../consumption/common.ts';
import { tenancyAccessOpen } from '../grace.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { tenantGraph } from './tenantGraph.ts';
import { tenantUnits } from './tenantUnits.ts';
import { unitQuantityKpis } from './unitQuantityKpis.ts';

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
  const userId = requireUserId(ctx);
  const { tenancyId } = parseInput(inputSchema, input);
  const [membership] = await ctx.db
    .select({ apartmentId: tenancies.apartmentId })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .where(
      and(eq(tenancyMembers.tenancyId, tenancyId), eq(tenancyMembers.userId, userId), tenancyAccessOpen),
    );
  if (!membership) throw forbidden();
  const unitId = String(membership.apartmentId);
  const { quantities } = input;
  const kpis = async (
    periodBegin: string,
    periodEnd: string,
    more: { graphType?: 'CO2'; normalized?: boolean },
  ) =>
    Promise.all(
      await callable(unitQuantityKpis)(
        parent,
        { input: { unitId, quantities, periodBegin, periodEnd, ...more } },
        ctx,
        info,
      ),
    );
  // One after another: PGlite has one connection, and PostgreSQL gains little for four small statements sets.
  const units = await Promise.all(await callable(tenantUnits)(parent, {}, ctx, info));
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
  return {
    units,
    unitId,
    tenantGraph: graph,
    kpis: await kpis(input.periodBegin, input.periodEnd, {}),
    co2: await kpis(input.periodBegin, input.periodEnd, { graphType: 'CO2' }),
    rating: await kpis(input.ratingBegin, input.ratingEnd, { normalized: true }),
  };
};
