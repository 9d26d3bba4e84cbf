/**
 * The dashboard's data in one request after the session (issue 6 §3): `tenancyDashboard` asks by tenancy, so no
 * tenantUnits request has to come first. The units it brings go into the tenantUnits cache, where the shell's
 * menu reads them.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  TenancyDashboardDocument,
  type TenancyDashboardInput,
  type TenancyDashboardQuery,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import { queryClient } from '../queryClient.ts';
import { tenantUnitsQueryOptions } from './tenantUnits.ts';

export type { TenancyDashboardInput };
export type TenancyDashboard = TenancyDashboardQuery['tenancyDashboard'];

/** Query options for one tenancy's dashboard; `userId` names the tenantUnits cache the units go to. */
function tenancyDashboardQueryOptions(input: TenancyDashboardInput, userId: string) {
  return queryOptions({
    queryKey: ['tenancyDashboard', userId, input],
    queryFn: async () => {
      try {
        const { tenancyDashboard } = await authorizedRequest('tenant', TenancyDashboardDocument, { input });
        queryClient.setQueryData(tenantUnitsQueryOptions(userId).queryKey, tenancyDashboard.units);
        return tenancyDashboard;
      } catch (error) {
        // The menu still needs the units: ask for them alone.
        fetchUnitsAlone(userId);
        throw error;
      }
    },
  });
}

/** Fills the tenantUnits cache with its own request, for a dashboard that failed or asks for nothing. */
export function fetchUnitsAlone(userId: string): void {
  queryClient.query(tenantUnitsQueryOptions(userId)).catch(() => {});
}

/** The dashboard of a tenancy, fetched once the input is known. */
export function useTenancyDashboard(input: TenancyDashboardInput | null, userId: string | null) {
  return useQuery({
    ...tenancyDashboardQueryOptions(input ?? ({} as TenancyDashboardInput), userId ?? ''),
    enabled: input !== null && userId !== null,
  });
}
