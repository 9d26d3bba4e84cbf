/** tenantGraph (tenant backend): consumption per time bucket (SPEC §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import type { ServerResolution } from '../../lib/periods.ts';
import { authorizedRequest } from '../graphql.ts';

export const tenantGraphDocument = gql`
  query TenantGraph($graph: TenantGraphInput!) {
    tenantGraph(graph: $graph) {
      timestamps
      graphs {
        type
        consumption {
          quantityDescriptor {
            quantity
            normalized
            expressedAs
          }
          values
        }
      }
    }
  }
`;

export type TenantGraphInput = {
  graphType: 'HOURLY_VALUES' | 'COST' | 'CO2';
  resolution: ServerResolution;
  periodBegin: string;
  periodEnd: string;
  objects: { kind: 'PROPERTY' | 'UNIT' | 'SOURCE' | 'MPOINT'; id: string }[];
  quantities: string[];
  normalized?: boolean;
};

export type TenantGraph = {
  timestamps: string[];
  graphs: {
    type: string;
    consumption: {
      quantityDescriptor: { quantity: string; normalized: boolean; expressedAs: string | null };
      values: (number | null)[];
    }[];
  }[];
};

/** Query options for one graph request; the whole input is the key. */
export function tenantGraphQueryOptions(graph: TenantGraphInput) {
  return queryOptions({
    queryKey: ['tenantGraph', graph],
    queryFn: async () =>
      (await authorizedRequest<{ tenantGraph: TenantGraph }>('tenant', tenantGraphDocument, { graph }))
        .tenantGraph,
  });
}

/** A graph, fetched once its input is known. */
export function useTenantGraph(graph: TenantGraphInput | null) {
  return useQuery({
    ...tenantGraphQueryOptions(graph ?? ({} as TenantGraphInput)),
    enabled: graph !== null,
  });
}
