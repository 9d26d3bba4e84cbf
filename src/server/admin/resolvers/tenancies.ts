/** Tenancies in the console: a property's flats and tenancies, move-out, move-in and the grace period. */
import { asc, eq } from 'drizzle-orm';
import { apartments } from '../../db/schema.ts';
import { actorOf } from '../audit.ts';
import { assertOrgAdmin, requireOperator, requireProperty } from '../scope.ts';
import {
  graceMonths,
  moveIn as moveTenantIn,
  moveOut as moveTenantOut,
  requireTenancy,
  setGraceMonths,
  type TenancyView,
  tenancyView,
  tenancyViews,
} from '../tenancies.ts';
import type { AdminTenancy, MutationResolvers, QueryResolvers } from '../types.generated.ts';

const tenancyToApi = (v: TenancyView): AdminTenancy => ({
  id: String(v.id),
  reference: v.reference,
  tenant: v.tenant,
  apartmentId: String(v.apartmentId),
  propertyId: String(v.propertyId),
  start: v.start,
  end: v.end,
  accessEndsAt: v.accessEndsAt,
  members: v.members.map((m) => ({ ...m, userId: String(m.userId) })),
  interimReadings: v.interimReadings.map((r) => ({
    ...r,
    source: r.source === 'meter' ? 'METER' : r.source === 'operator' ? 'OPERATOR' : 'MISSING',
  })),
});

export const tenancyApartments: NonNullable<QueryResolvers['tenancyApartments']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  const property = await requireProperty(ctx.db, scope, args.propertyId);
  const flats = await ctx.db
    .select()
    .from(apartments)
    .where(eq(apartments.propertyId, property.id))
    .orderBy(asc(apartments.address), asc(apartments.id));
  const views = await tenancyViews(ctx.db, { apartmentIds: flats.map((f) => f.id) });
  return flats.map((f) => ({
    id: String(f.id),
    uniqueId: f.uniqueId,
    apartment: f.apartment,
    address: f.address,
    tenancies: views.filter((v) => v.apartmentId === f.id).map(tenancyToApi),
  }));
};

export const tenancy: NonNullable<QueryResolvers['tenancy']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  const found = await requireTenancy(ctx.db, scope, args.id);
  return tenancyToApi(await tenancyView(ctx.db, found.tenancy.id));
};

export const moveOutGraceMonths: NonNullable<QueryResolvers['moveOutGraceMonths']> = async (_p, _a, ctx) => {
  const scope = await requireOperator(ctx);
  return graceMonths(ctx.db, scope.accountId);
};

export const moveOut: NonNullable<MutationResolvers['moveOut']> = async (_p, { input }, ctx) => {
  const scope = await requireOperator(ctx);
  return tenancyToApi(await moveTenantOut(ctx.db, scope, actorOf(scope), input));
};

export const moveIn: NonNullable<MutationResolvers['moveIn']> = async (_p, { input }, ctx) => {
  const scope = await requireOperator(ctx);
  return tenancyToApi(await moveTenantIn(ctx.db, scope, actorOf(scope), input));
};

export const setMoveOutGraceMonths: NonNullable<MutationResolvers['setMoveOutGraceMonths']> = async (
  _p,
  args,
  ctx,
) => {
  const scope = await requireOperator(ctx);
  assertOrgAdmin(scope);
  return setGraceMonths(ctx.db, actorOf(scope), scope.accountId, args.months);
};
