/** quantityPrices (tenant backend): unit prices with their validity (SPEC §3 Price, §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';

export const quantityPricesDocument = gql`
  query QuantityPrices($input: QuantityPricesInput!) {
    quantityPrices(input: $input) { quantity price currency validFrom validTo }
  }
`;

export type QuantityPricesInput = {
  unitId: string;
  quantities?: string[];
  periodBegin: string;
  periodEnd: string;
};

/** A price; validTo is exclusive and null while open-ended. */
export type Price = {
  quantity: string;
  price: number;
  currency: string;
  validFrom: string;
  validTo: string | null;
};

/** Query options for the prices of a unit's property. */
export function quantityPricesQueryOptions(input: QuantityPricesInput) {
  return queryOptions({
    queryKey: ['quantityPrices', input],
    queryFn: async () =>
      (await authorizedRequest<{ quantityPrices: Price[] }>('tenant', quantityPricesDocument, { input }))
        .quantityPrices,
  });
}

/** Prices, fetched once the input is known. */
export function useQuantityPrices(input: QuantityPricesInput | null) {
  return useQuery({
    ...quantityPricesQueryOptions(input ?? ({} as QuantityPricesInput)),
    enabled: input !== null,
  });
}
