/** tenantTable (tenant backend): one row per room or meter with comparison values (SPEC §3, §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { type TenantTableInput, TenantTableDocument as tenantTableDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

export type { TenantTableInput };

/** Query options for one table request. */
function tenantTableQueryOptions(table: TenantTableInput) {
  return queryOptions({
    queryKey: ['tenantTable', table],
    queryFn: async () => (await authorizedRequest('tenant', tenantTableDocument, { table })).tenantTable,
  });
}

/** A table, fetched once its input is known. */
export function useTenantTable(table: TenantTableInput | null) {
  return useQuery({
    ...tenantTableQueryOptions(table ?? ({} as TenantTableInput)),
    enabled: table !== null,
  });
}
