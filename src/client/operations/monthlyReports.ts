/** monthlyReports (account backend): a tenancy's monthly consumption reports, newest month first. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { MonthlyReportsDocument as monthlyReportsDocument } from '../gql/account.ts';
import { authorizedRequest } from '../graphql.ts';

/** Query options for one tenancy's monthly reports. */
function monthlyReportsQueryOptions(tenancyId: string) {
  return queryOptions({
    queryKey: ['monthlyReports', tenancyId],
    queryFn: async () =>
      (await authorizedRequest('account', monthlyReportsDocument, { tenancyId })).monthlyReports,
  });
}

/** A tenancy's monthly reports, once a tenancy is selected. */
export function useMonthlyReports(tenancyId: string | null) {
  return useQuery({ ...monthlyReportsQueryOptions(tenancyId ?? ''), enabled: !!tenancyId });
}
