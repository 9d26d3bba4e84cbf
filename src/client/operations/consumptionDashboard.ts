/**
 * The dashboard's data in one request: every quantity's graph with the property series, the period's KPIs,
 * the CO₂ KPIs, and the 365-day per-m² KPIs the rating is based on (aliases of tenantGraph and unitQuantityKpis).
 */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { ConsumptionDashboardDocument as consumptionDashboardDocument } from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import type { TenantGraph, TenantGraphInput } from './tenantGraph.ts';
import type { QuantityKpi, UnitQuantityKpisInput } from './unitQuantityKpis.ts';

export type ConsumptionDashboardInput = {
  graph: TenantGraphInput;
  kpis: UnitQuantityKpisInput;
  co2: UnitQuantityKpisInput;
  rating: UnitQuantityKpisInput;
};

export type ConsumptionDashboard = {
  tenantGraph: TenantGraph;
  kpis: QuantityKpi[];
  co2: QuantityKpi[];
  rating: QuantityKpi[];
};

/** Query options for the dashboard document. */
export function consumptionDashboardQueryOptions(input: ConsumptionDashboardInput) {
  return queryOptions({
    queryKey: ['consumptionDashboard', input],
    queryFn: () => authorizedRequest('tenant', consumptionDashboardDocument, input),
  });
}

/** The dashboard's data, fetched once the unit is known. */
export function useConsumptionDashboard(input: ConsumptionDashboardInput | null) {
  return useQuery({
    ...consumptionDashboardQueryOptions(input ?? ({} as ConsumptionDashboardInput)),
    enabled: input !== null,
  });
}

export { consumptionDashboardDocument };
