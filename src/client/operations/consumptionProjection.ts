/** consumptionProjection (tenant backend): month- or year-to-date and where it ends at the same pace. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { ConsumptionProjectionDocument as consumptionProjectionDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import type { QuantityDescriptor } from './objectDetails.ts';

export type ProjectionInput = { unitId: string; quantities: string[]; span: 'MONTH' | 'YEAR' };

export type Projection = {
  quantityDescriptor: QuantityDescriptor;
  periodBegin: string;
  periodEnd: string;
  daysElapsed: number;
  daysTotal: number;
  soFar: number | null;
  costSoFar: number | null;
  projected: number | null;
  projectedCost: number | null;
  fixedCharges: number | null;
  currency: string | null;
  method: string;
};

/** Query options for a projection. */
export function consumptionProjectionQueryOptions(input: ProjectionInput) {
  return queryOptions({
    queryKey: ['consumptionProjection', input],
    queryFn: async () =>
      (await authorizedRequest('tenant', consumptionProjectionDocument, { input })).consumptionProjection,
  });
}

/** Projections, fetched once the input is known. */
export function useConsumptionProjection(input: ProjectionInput | null) {
  return useQuery({
    ...consumptionProjectionQueryOptions(input ?? ({} as ProjectionInput)),
    enabled: input !== null,
  });
}

export { consumptionProjectionDocument };
