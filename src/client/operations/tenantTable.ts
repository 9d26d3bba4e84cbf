/** tenantTable (tenant backend): one row per room or meter with comparison values (SPEC §3, §7). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { TenantTableDocument as tenantTableDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import type { ObjectDetails, QuantityDescriptor } from './objectDetails.ts';

export type TenantTableInput = {
  unitId: string;
  quantities: string[];
  periodBegin: string;
  periodEnd: string;
  compareWith?: 'PROPERTY' | 'LAST_PERIOD';
  rows?: 'ROOM' | 'METER';
  graphType?: 'HOURLY_VALUES' | 'COST' | 'CO2';
  normalized?: boolean;
};

export type TableRow = {
  object: ObjectDetails;
  label: string | null;
  values: (number | null)[];
  comparisonValues: (number | null)[];
};

export type TenantTable = {
  quantityDescriptors: QuantityDescriptor[];
  compareWith: 'PROPERTY' | 'LAST_PERIOD';
  partial: boolean;
  rows: TableRow[];
};

/** Query options for one table request. */
export function tenantTableQueryOptions(table: TenantTableInput) {
  return queryOptions({
    queryKey: ['tenantTable', table],
    queryFn: async () => (await authorizedRequest('tenant', tenantTableDocument, { table })).tenantTable,
  });
}

/** A table, fetched once its input is known. */
export function useTenantTable(table: TenantTableInput | null) {
  return useQuery({
    ...tenantTableQueryOptions(table ?? ({} as TenantTableInput)),
    enabled: table !== null,
  });
}

export { tenantTableDocument };
