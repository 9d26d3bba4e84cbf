/** unitQuantityKpis (tenant backend): totals and comparisons per quantity for a unit and period (SPEC §3, §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';
import {
  CLIMATE_CORRECTION_FIELDS,
  type ClimateCorrection,
  OBJECT_DETAILS_FIELDS,
  type ObjectDetails,
  type QuantityDescriptor,
} from './objectDetails.ts';

/** The KPI selection, shared with the dashboard document. */
export const QUANTITY_KPI_FIELDS = `
  quantityDescriptor { quantity normalized expressedAs }
  total previousPeriod previousYear propertyComparison partial
  previousYearClimateCorrected totalNormalYear
  climateCorrection { ${CLIMATE_CORRECTION_FIELDS} }
  kwhEstimate kwhEstimateMethod
  rooms { label value }
  meters { object { ${OBJECT_DETAILS_FIELDS} } value }
`;

export const unitQuantityKpisDocument = gql`
  query UnitQuantityKpis($input: UnitQuantityKpisInput!) {
    unitQuantityKpis(input: $input) { ${QUANTITY_KPI_FIELDS} }
  }
`;

export type UnitQuantityKpisInput = {
  unitId: string;
  quantities: string[];
  periodBegin: string;
  periodEnd: string;
  graphType?: 'HOURLY_VALUES' | 'COST' | 'CO2';
  normalized?: boolean;
  climateCorrection?: { hotWaterShare?: number };
  hcaKwhEstimate?: boolean;
};

export type QuantityKpi = {
  quantityDescriptor: QuantityDescriptor;
  total: number | null;
  previousPeriod: number | null;
  previousYear: number | null;
  propertyComparison: number | null;
  partial: boolean;
  previousYearClimateCorrected: number | null;
  totalNormalYear: number | null;
  climateCorrection: ClimateCorrection | null;
  kwhEstimate: number | null;
  kwhEstimateMethod: string | null;
  rooms: { label: string; value: number | null }[];
  meters: { object: ObjectDetails; value: number | null }[];
};

/** Query options for the KPIs of a unit. */
export function unitQuantityKpisQueryOptions(input: UnitQuantityKpisInput) {
  return queryOptions({
    queryKey: ['unitQuantityKpis', input],
    queryFn: async () =>
      (
        await authorizedRequest<{ unitQuantityKpis: QuantityKpi[] }>('tenant', unitQuantityKpisDocument, {
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
