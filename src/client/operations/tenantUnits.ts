/** tenantUnits (tenant backend): the user's units with their path to the property. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';

export const tenantUnitsDocument = gql`
  query TenantUnits {
    tenantUnits {
      unit {
        id
        unitUniqueId
        name
        tenantName
      }
      path {
        property {
          id
          number
          settings {
            kind
          }
          co2Factors {
            quantity
            gramPerQuantityUnit
          }
        }
      }
    }
  }
`;

export type TenantUnit = {
  unit: { id: string; unitUniqueId: string; name: string; tenantName: string };
  path: {
    property: {
      id: string;
      number: string;
      settings: { kind: string }[];
      co2Factors: { quantity: string; gramPerQuantityUnit: number }[];
    };
  }[];
};

/** Query options for the signed-in user's units; the user id keeps caches of two users apart. */
export function tenantUnitsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['tenantUnits', userId],
    queryFn: async () =>
      (await authorizedRequest<{ tenantUnits: TenantUnit[] }>('tenant', tenantUnitsDocument, {})).tenantUnits,
  });
}

/** The signed-in user's units. */
export function useTenantUnits(userId: string | null) {
  return useQuery({ ...tenantUnitsQueryOptions(userId ?? ''), enabled: !!userId });
}
