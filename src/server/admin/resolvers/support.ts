/** Support (issue 21): find a tenant, impersonate with a reason, deactivate or reactivate. */
import { actorOf } from '../audit.ts';
import { requireOperator } from '../scope.ts';
import {
  type SupportTenantView,
  searchTenants,
  setTenantActive as setActive,
  startImpersonation as start,
} from '../support.ts';
import type { MutationResolvers, QueryResolvers, SupportTenant } from '../types.generated.ts';

const toApi = (t: SupportTenantView): SupportTenant => ({
  id: String(t.id),
  email: t.email,
  name: t.name,
  isActive: t.isActive,
  canImpersonate: t.canImpersonate,
  tenancies: t.tenancies.map((x) => ({ ...x, id: String(x.id), propertyId: String(x.propertyId) })),
});

export const supportSearch: NonNullable<QueryResolvers['supportSearch']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return (await searchTenants(ctx.db, scope, args.query, args.first ?? 20)).map(toApi);
};

export const startImpersonation: NonNullable<MutationResolvers['startImpersonation']> = async (
  _p,
  args,
  ctx,
) => {
  const scope = await requireOperator(ctx);
  return start(ctx.db, scope, actorOf(scope), ctx.services.config.APP_URL, args.userId, args.reason);
};

export const setTenantActive: NonNullable<MutationResolvers['setTenantActive']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return toApi(await setActive(ctx.db, scope, actorOf(scope), args.userId, args.active, args.reason));
};
