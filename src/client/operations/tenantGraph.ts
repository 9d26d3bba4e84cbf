/** tenantGraph (tenant backend): consumption, cost or CO₂ per time bucket, with related series (SPEC §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type RelatedKind,
  type TenantGraphFieldsFragment,
  type TenantGraphInput,
  TenantGraphDocument as tenantGraphDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** Related series kinds (contract: docs/notes/consumption-contract.md). */
export type { RelatedKind, TenantGraphInput };

/** A graph: bucket starts, and per object its consumption series (the fields of consumptionFields.graphql). */
export type TenantGraph = TenantGraphFieldsFragment;

/** One consumption series of a graph. */
export type GraphConsumption = TenantGraph['graphs'][number]['consumption'][number];

/** Query options for one graph request; the whole input is the key. */
function tenantGraphQueryOptions(graph: TenantGraphInput) {
  return queryOptions({
    queryKey: ['tenantGraph', graph],
    queryFn: async () => (await authorizedRequest('tenant', tenantGraphDocument, { graph })).tenantGraph,
  });
}

/** A graph, fetched once its input is known. */
export function useTenantGraph(graph: TenantGraphInput | null) {
  return useQuery({
    ...tenantGraphQueryOptions(graph ?? ({} as TenantGraphInput)),
    enabled: graph !== null,
  });
}
