/**
 * What a complete statement adds to the allocation itself (EU Energy Efficiency Directive Annex VIIa, the
 * Danish billing order; issue 22): prices per unit and per m², the comparison with a normalised user and with
 * last year at this period's weather, and the property's supply, fees and bodies. Pure: figures from the stored
 * statement, the tenancy's previous statement and the property's report settings.
 */
import { type Co2CostSplit, co2CostSplit } from '../../lib/co2CostSplit.ts';
import { climateCorrect } from '../../lib/degreeDays.ts';
import type { Body, PropertyReportSettings } from '../../lib/reportSettings.ts';
import type { StatementMeterReading } from './meters.ts';
import type { StatementDetails } from './model.ts';

/** The tenancy's statement of the period just before, as far as the comparison needs it. */
export interface PreviousStatement {
  periodStart: string;
  periodEnd: string;
  details: StatementDetails;
}

export interface StatementExtras {
  /** Per expense: the variable part's price per consumption unit and the fixed part's price per m². */
  prices: { type: string; perUnit: number; perM2: number }[];
  /** What a home of the tenant's area would have used at the building's average use per m². */
  normalisedUser: { tenant: number; normal: number; changePercent: number } | null;
  /** Last period's use at this period's degree days (space-heating share only), against this period's use. */
  lastYear: {
    start: string;
    end: string;
    measured: number;
    corrected: number;
    tenant: number;
    changePercent: number;
  } | null;
  settings: PropertyReportSettings;
  bodies: { dispute: Body[]; consumer: Body };
  /** The flat's meters with their readings at the period's start and end (statementMeterReadings). */
  meters: StatementMeterReading[];
  /** German properties with a CO₂ basis: the CO2KostAufG split (amounts in minor units). */
  co2Split: Co2CostSplit | null;
}

/** Days from one ISO date to another, both inclusive. */
const daysOf = (start: string, end: string) =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * The CO2KostAufG split of a German property's statement: the building's emissions over its area per year give
 * the stage; the tenant's CO₂ cost is the building's by the tenant's share of the heating and hot-water cost.
 */
export function statementCo2Split(
  s: { periodStart: string; periodEnd: string; details: StatementDetails },
  country: string,
): Co2CostSplit | null {
  const { co2, expenses, area } = s.details;
  if (country !== 'DE' || !co2) return null;
  const heat = expenses.filter((e) => e.type === 'heating' || e.type === 'hot-water');
  const minor = (x: string) => Math.round(Number(x) * 100);
  const total = heat.reduce((sum, e) => sum + minor(e.propertyTotal), 0);
  const tenant = heat.reduce((sum, e) => sum + minor(e.tenantFixed) + minor(e.tenantVariable), 0);
  return co2CostSplit({
    buildingKg: co2.buildingKg,
    areaM2: area.propertyM2,
    days: daysOf(s.periodStart, s.periodEnd),
    co2Cost: minor(co2.cost),
    heatShare: total > 0 ? tenant / total : 0,
  });
}

/** Computes the extras of one statement. */
export function statementExtras(
  s: {
    periodStart: string;
    periodEnd: string;
    fixedSharePercent: string;
    variableSharePercent: string;
    details: StatementDetails;
    country: string;
  },
  previous: PreviousStatement | null,
  settings: PropertyReportSettings,
  bodies: StatementExtras['bodies'],
  meters: StatementMeterReading[] = [],
): StatementExtras {
  const { area, consumption, degreeDays } = s.details;
  const prices = s.details.expenses.map((e) => ({
    type: e.type,
    perUnit: (Number(e.propertyTotal) * Number(s.variableSharePercent)) / 100 / consumption.property,
    perM2: (Number(e.propertyTotal) * Number(s.fixedSharePercent)) / 100 / area.propertyM2,
  }));
  const normal = (consumption.property / area.propertyM2) * area.tenantM2;
  const change = (value: number, reference: number) => ((value - reference) / reference) * 100;
  let lastYear: StatementExtras['lastYear'] = null;
  const before = previous?.details;
  if (before && before.consumption.unit === consumption.unit && before.degreeDays.period > 0) {
    // The statement holds period totals only, so the period is corrected as one (the app corrects day by day).
    const corrected = climateCorrect(
      before.consumption.tenant,
      before.degreeDays.period,
      degreeDays.period,
      settings.hotWaterShare,
    );
    if (corrected !== null && corrected > 0)
      lastYear = {
        start: previous.periodStart,
        end: previous.periodEnd,
        measured: before.consumption.tenant,
        corrected,
        tenant: consumption.tenant,
        changePercent: change(consumption.tenant, corrected),
      };
  }
  return {
    prices,
    normalisedUser:
      normal > 0
        ? { tenant: consumption.tenant, normal, changePercent: change(consumption.tenant, normal) }
        : null,
    lastYear,
    settings,
    bodies,
    meters,
    co2Split: statementCo2Split(s, s.country),
  };
}
