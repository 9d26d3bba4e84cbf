/**
 * What a complete statement adds to the allocation itself (EU Energy Efficiency Directive Annex VIIa, the
 * Danish billing order; issue 22): prices per unit and per m², the comparison with a normalised user and with
 * last year at this period's weather, and the property's supply, fees and bodies. Pure: figures from the stored
 * statement, the tenancy's previous statement and the property's report settings.
 */
import { climateCorrect } from '../../lib/degreeDays.ts';
import type { Body, PropertyReportSettings } from '../../lib/reportSettings.ts';
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
}

/** Computes the extras of one statement. */
export function statementExtras(
  s: { fixedSharePercent: string; variableSharePercent: string; details: StatementDetails },
  previous: PreviousStatement | null,
  settings: PropertyReportSettings,
  bodies: StatementExtras['bodies'],
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
  };
}
