/**
 * The dashboard's data in one request: every quantity's graph with the property series, the period's KPIs,
 * the CO₂ KPIs, and the 365-day per-m² KPIs the rating is based on (aliases of tenantGraph and unitQuantityKpis).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';
import { TENANT_GRAPH_FIELDS, type TenantGraph, type TenantGraphInput } from './tenantGraph.ts';
import { QUANTITY_KPI_FIELDS, type QuantityKpi, type UnitQuantityKpisInput } from './unitQuantityKpis.ts';

export const consumptionDashboardDocument = gql`
  query ConsumptionDashboard(
    $graph: TenantGraphInput!
    $kpis: UnitQuantityKpisInput!
    $co2: UnitQuantityKpisInput!
    $rating: UnitQuantityKpisInput!
  ) {
    tenantGraph(graph: $graph) { ${TENANT_GRAPH_FIELDS} }
    kpis: unitQuantityKpis(input: $kpis) { ${QUANTITY_KPI_FIELDS} }
    co2: unitQuantityKpis(input: $co2) { ${QUANTITY_KPI_FIELDS} }
    rating: unitQuantityKpis(input: $rating) { ${QUANTITY_KPI_FIELDS} }
  }
`;

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
    queryFn: () => authorizedRequest<ConsumptionDashboard>('tenant', consumptionDashboardDocument, input),
  });
}

/** The dashboard's data, fetched once the unit is known. */
export function useConsumptionDashboard(input: ConsumptionDashboardInput | null) {
  return useQuery({
    ...consumptionDashboardQueryOptions(input ?? ({} as ConsumptionDashboardInput)),
    enabled: input !== null,
  });
}
