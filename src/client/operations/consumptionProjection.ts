/** consumptionProjection (tenant backend): month- or year-to-date and where it ends at the same pace. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';
import type { QuantityDescriptor } from './objectDetails.ts';

export const consumptionProjectionDocument = gql`
  query ConsumptionProjection($input: ProjectionInput!) {
    consumptionProjection(input: $input) {
      quantityDescriptor { quantity normalized expressedAs }
      periodBegin periodEnd daysElapsed daysTotal
      soFar costSoFar projected projectedCost fixedCharges currency method
    }
  }
`;

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
      (
        await authorizedRequest<{ consumptionProjection: Projection[] }>(
          'tenant',
          consumptionProjectionDocument,
          { input },
        )
      ).consumptionProjection,
  });
}

/** Projections, fetched once the input is known. */
export function useConsumptionProjection(input: ProjectionInput | null) {
  return useQuery({
    ...consumptionProjectionQueryOptions(input ?? ({} as ProjectionInput)),
    enabled: input !== null,
  });
}
