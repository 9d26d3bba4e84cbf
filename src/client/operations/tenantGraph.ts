/** tenantGraph (tenant backend): consumption per time bucket (SPEC §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TenantGraphDocument, type TenantGraphInput, type TenantGraphQuery } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** The input of one graph request, as the schema defines it. */
export type { TenantGraphInput };

/** One answer of tenantGraph. */
export type TenantGraph = TenantGraphQuery['tenantGraph'];

/** Query options for one graph request; the whole input is the key. */
export function tenantGraphQueryOptions(graph: TenantGraphInput) {
  return queryOptions({
    queryKey: ['tenantGraph', graph],
    queryFn: async () => (await authorizedRequest('tenant', TenantGraphDocument, { graph })).tenantGraph,
  });
}

/** A graph, fetched once its input is known. */
export function useTenantGraph(graph: TenantGraphInput | null) {
  return useQuery({
    ...tenantGraphQueryOptions(graph ?? ({} as TenantGraphInput)),
    enabled: graph !== null,
  });
}
