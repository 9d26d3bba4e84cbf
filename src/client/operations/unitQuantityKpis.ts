/** unitQuantityKpis (tenant backend): totals and comparisons per quantity for a unit and period (SPEC §3, §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type UnitQuantityKpisInput,
  UnitQuantityKpisDocument as unitQuantityKpisDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** Query options for the KPIs of a unit. */
function unitQuantityKpisQueryOptions(input: UnitQuantityKpisInput) {
  return queryOptions({
    queryKey: ['unitQuantityKpis', input],
    queryFn: async () =>
      (
        await authorizedRequest('tenant', unitQuantityKpisDocument, {
          input,
        })
      ).unitQuantityKpis,
  });
}

/** KPIs, fetched once the input is known. */
export function useUnitQuantityKpis(input: UnitQuantityKpisInput | null) {
  return useQuery({
    ...unitQuantityKpisQueryOptions(input ?? ({} as UnitQuantityKpisInput)),
    enabled: input !== null,
  });
}
