/** consumptionProjection (tenant backend): month- or year-to-date and where it ends at the same pace. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ConsumptionProjectionDocument as consumptionProjectionDocument,
  type ProjectionInput as GeneratedProjectionInput,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** The schema's input, with the spans it accepts (this month, this year). */
export type ProjectionInput = GeneratedProjectionInput & { span: 'MONTH' | 'YEAR' };

/** Query options for a projection. */
function consumptionProjectionQueryOptions(input: ProjectionInput) {
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
