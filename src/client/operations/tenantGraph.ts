/** tenantGraph (tenant backend): consumption, cost or CO₂ per time bucket, with related series (SPEC §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ServerResolution } from '../../lib/periods.ts';
import { TenantGraphDocument as tenantGraphDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import type { ClimateCorrection, ObjectDetails, QuantityDescriptor } from './objectDetails.ts';

/** A related series kind (contract: docs/notes/consumption-contract.md). */
export type RelatedKind = 'PROPERTY' | 'LAST_PERIOD' | 'LAST_YEAR';

export type TenantGraphInput = {
  graphType: 'HOURLY_VALUES' | 'COST' | 'CO2';
  resolution: ServerResolution;
  periodBegin: string;
  periodEnd: string;
  objects: { kind: 'PROPERTY' | 'UNIT' | 'SOURCE' | 'MPOINT'; id: string; scaleToUnitId?: string }[];
  quantities: string[];
  normalized?: boolean;
  related?: RelatedKind[];
  climateCorrection?: { hotWaterShare?: number };
  hcaKwhEstimate?: boolean;
};

/** One consumption series of a graph. */
export type GraphConsumption = {
  quantityDescriptor: QuantityDescriptor;
  values: (number | null)[];
  relatedValues: { type: string; values: (number | null)[] }[];
  climateCorrection: ClimateCorrection | null;
  kwhEstimateMethod: string | null;
  /** Per bucket: true when an hour in it is estimated (filled in between readings far apart). */
  estimated: boolean[];
};

export type TenantGraph = {
  timestamps: string[];
  partial: boolean[];
  graphs: { type: string; object: ObjectDetails; consumption: GraphConsumption[] }[];
};

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
