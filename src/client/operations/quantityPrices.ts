/** quantityPrices (tenant backend): unit prices with their validity (SPEC §3 Price, §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { type QuantityPricesInput, QuantityPricesDocument as quantityPricesDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** Query options for the prices of a unit's property. */
function quantityPricesQueryOptions(input: QuantityPricesInput) {
  return queryOptions({
    queryKey: ['quantityPrices', input],
    queryFn: async () =>
      (await authorizedRequest('tenant', quantityPricesDocument, { input })).quantityPrices,
  });
}

/** Prices, fetched once the input is known. */
export function useQuantityPrices(input: QuantityPricesInput | null) {
  return useQuery({
    ...quantityPricesQueryOptions(input ?? ({} as QuantityPricesInput)),
    enabled: input !== null,
  });
}
