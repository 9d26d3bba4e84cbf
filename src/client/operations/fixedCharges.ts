/** fixedCharges (tenant backend): subscriptions and meter rent per bucket of a period. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  FixedChargesDocument as fixedChargesDocument,
  type FixedChargesInput as GeneratedFixedChargesInput,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** The schema's input, with the resolutions it accepts (others are refused). */
export type FixedChargesInput = GeneratedFixedChargesInput & { resolution: 'MONTH' | 'YEAR' };

/** Query options for the fixed charges of a unit. */
function fixedChargesQueryOptions(input: FixedChargesInput) {
  return queryOptions({
    queryKey: ['fixedCharges', input],
    queryFn: async () => (await authorizedRequest('tenant', fixedChargesDocument, { input })).fixedCharges,
  });
}

/** Fixed charges, fetched once the input is known. */
export function useFixedCharges(input: FixedChargesInput | null) {
  return useQuery({
    ...fixedChargesQueryOptions(input ?? ({} as FixedChargesInput)),
    enabled: input !== null,
  });
}
