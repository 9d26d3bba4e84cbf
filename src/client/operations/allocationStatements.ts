/** allocationStatements (account backend): a tenancy's allocation statements, newest period first. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type AllocationStatementsQuery,
  AllocationStatementsDocument as allocationStatementsDocument,
} from '../gql/account.ts';
import { authorizedRequest } from '../graphql.ts';

export type AllocationStatementSummary = AllocationStatementsQuery['allocationStatements'][number];

/** Query options for one tenancy's statements. */
function allocationStatementsQueryOptions(tenancyId: string) {
  return queryOptions({
    queryKey: ['allocationStatements', tenancyId],
    queryFn: async () =>
      (await authorizedRequest('account', allocationStatementsDocument, { tenancyId })).allocationStatements,
  });
}

/** A tenancy's statements, once a tenancy is selected. */
export function useAllocationStatements(tenancyId: string | null) {
  return useQuery({ ...allocationStatementsQueryOptions(tenancyId ?? ''), enabled: !!tenancyId });
}
