/** tenantUnits (tenant backend): the user's units with their path to the property. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TenantUnitsDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** Query options for the signed-in user's units; the user id keeps caches of two users apart. */
export function tenantUnitsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['tenantUnits', userId],
    queryFn: async () => (await authorizedRequest('tenant', TenantUnitsDocument, {})).tenantUnits,
  });
}

/** The signed-in user's units; with `fetch` false, only what another request put in the cache. */
export function useTenantUnits(userId: string | null, fetch = true) {
  return useQuery({ ...tenantUnitsQueryOptions(userId ?? ''), enabled: !!userId && fetch });
}
