/** readoutMinMax (tenant backend, nucleus side): a meter's first and last readout in a period (SPEC §3, §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type ReadoutMinMaxQueryVariables as ReadoutMinMaxInput,
  ReadoutMinMaxDocument as readoutMinMaxDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** Query options for one meter's readouts. */
function readoutMinMaxQueryOptions(input: ReadoutMinMaxInput) {
  return queryOptions({
    queryKey: ['readoutMinMax', input],
    queryFn: async () => (await authorizedRequest('tenant', readoutMinMaxDocument, input)).readoutMinMax,
  });
}

/** Readouts, fetched once the input is known. */
export function useReadoutMinMax(input: ReadoutMinMaxInput | null) {
  return useQuery({
    ...readoutMinMaxQueryOptions(input ?? ({} as ReadoutMinMaxInput)),
    enabled: input !== null,
  });
}
