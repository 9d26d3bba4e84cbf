/**
 * The monthly report (SPEC §2 report/:code; EU Energy Efficiency Directive Annex VIIa): a pure function from
 * the figures read for one tenancy and month to the snapshot stored with the report and shown on the page.
 */

import type { FuelShare } from '../../lib/reportSettings.ts';
import { climateCorrected, type DailyMean, DEGREE_DAY_BASE_C, degreeDays } from './degreeDays.ts';
import { addMonths, monthsBetween } from './months.ts';

/** Consumption quantities a report covers, in the order shown. */
export const REPORT_QUANTITIES = [
  'heat-energy',
  'hca',
  'hot-water-volume',
  'cold-water-volume',
  'total-water-volume',
  'electricity-energy',
  'cooling-energy',
  'gas-volume',
] as const;

export type { FuelShare } from '../../lib/reportSettings.ts';

export interface Price {
  quantity: string;
  price: number;
  currency: string;
  validFrom: string;
  validTo: string | null;
}

/** Everything the generator reads for one tenancy and month. Sums are per month ('YYYY-MM-01'). */
export interface ReportInput {
  month: string;
  /** First month of "cost so far": the billing period's start month, else January of the report's year. */
  costFrom: string;
  tenancy: { address: string; apartment: string; zipcode: string; city: string; areaM2: number };
  landlord: { name: string; phone: string | null; email: string | null };
  /** The apartment's consumption per quantity: unit and monthly sums (within the tenancy's dates). */
  apartment: Record<string, { unit: string; months: Record<string, number> }>;
  /** The property's consumption per m² per quantity and month. */
  propertyPerM2: Record<string, Record<string, number>>;
  /** The property's totals of heat energy (kWh) and allocator units per month, for the hca estimate. */
  propertyHeat: Record<string, { heatKwh: number; hcaUnits: number }>;
  /** Daily mean outdoor temperatures of the report month and of the same month last year. */
  outdoor: { month: DailyMean[]; lastYear: DailyMean[] };
  prices: Price[];
  /** Grams of CO2 per unit of each quantity. */
  co2: Record<string, number>;
  fuelMix: FuelShare[];
}

export interface QuantityFigures {
  quantity: string;
  unit: string;
  month: number | null;
  previousMonth: number | null;
  sameMonthLastYear: number | null;
  /** The apartment's use per m², and the property's average per m², this month. */
  perM2: number | null;
  propertyPerM2: number | null;
  /** Allocator units as estimated kWh: units × the building's kWh per unit that month. */
  kwhEstimate: {
    month: number | null;
    previousMonth: number | null;
    sameMonthLastYear: number | null;
  } | null;
  cost: number | null;
  co2Kg: number | null;
}

export interface MonthlyReport {
  version: 1;
  month: string;
  tenancy: ReportInput['tenancy'];
  landlord: ReportInput['landlord'];
  quantities: QuantityFigures[];
  climate: {
    baseC: number;
    degreeDays: number | null;
    degreeDaysLastYear: number | null;
    /** The quantity the correction applies to: heat-energy, else the hca estimate in kWh. */
    heatQuantity: 'heat-energy' | 'hca' | null;
    heatKwh: number | null;
    heatKwhLastYear: number | null;
    /** Last year's heat at this year's weather. */
    correctedLastYearKwh: number | null;
    /** (this month − corrected last year) / corrected last year, in percent. */
    correctedChangePercent: number | null;
  };
  cost: { currency: string; month: number; soFar: number; from: string } | null;
  supply: { fuelMix: FuelShare[]; co2GramPerKwh: number | null };
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
const maybe = (x: number | undefined | null, digits = 3) =>
  x === undefined || x === null ? null : round(x, digits);

/** The price of a quantity valid on a day (validFrom inclusive, validTo exclusive). */
export function priceOn(prices: readonly Price[], quantity: string, day: string): Price | null {
  return (
    prices.find(
      (p) => p.quantity === quantity && p.validFrom <= day && (p.validTo === null || day < p.validTo),
    ) ?? null
  );
}

function hcaKwh(units: number | undefined, heat: { heatKwh: number; hcaUnits: number } | undefined) {
  if (units === undefined || !heat || heat.hcaUnits <= 0) return null;
  return round((units * heat.heatKwh) / heat.hcaUnits, 1);
}

/** Builds the report snapshot. Pure: the same input gives the same report. */
export function buildMonthlyReport(input: ReportInput): MonthlyReport {
  const { month } = input;
  const previous = addMonths(month, -1);
  const lastYear = addMonths(month, -12);
  const costMonths = monthsBetween(input.costFrom, month);
  let currency: string | null = null;
  let costMonth = 0;
  let costSoFar = 0;

  const quantities: QuantityFigures[] = [];
  for (const quantity of REPORT_QUANTITIES) {
    const series = input.apartment[quantity];
    if (!series) continue;
    const at = (m: string) => series.months[m];
    const value = at(month);
    if (value === undefined && at(previous) === undefined && at(lastYear) === undefined) continue;

    let cost: number | null = null;
    for (const m of costMonths) {
      const used = at(m);
      const price = priceOn(input.prices, quantity, m);
      // Allocator units share out the same heat that a heat meter measures: never charge both.
      if (quantity === 'hca' && input.apartment['heat-energy']?.months[m] !== undefined) continue;
      if (used === undefined || !price) continue;
      currency ??= price.currency;
      if (price.currency !== currency) continue;
      costSoFar += used * price.price;
      if (m === month) {
        cost = used * price.price;
        costMonth += cost;
      }
    }
    const gram = input.co2[quantity];
    quantities.push({
      quantity,
      unit: series.unit,
      month: maybe(value),
      previousMonth: maybe(at(previous)),
      sameMonthLastYear: maybe(at(lastYear)),
      perM2: value === undefined ? null : round(value / input.tenancy.areaM2, 4),
      propertyPerM2: maybe(input.propertyPerM2[quantity]?.[month], 4),
      kwhEstimate:
        quantity === 'hca'
          ? {
              month: hcaKwh(value, input.propertyHeat[month]),
              previousMonth: hcaKwh(at(previous), input.propertyHeat[previous]),
              sameMonthLastYear: hcaKwh(at(lastYear), input.propertyHeat[lastYear]),
            }
          : null,
      cost: cost === null ? null : round(cost, 2),
      co2Kg: value === undefined || gram === undefined ? null : round((value * gram) / 1000, 1),
    });
  }

  const dd = degreeDays(input.outdoor.month);
  const ddLastYear = degreeDays(input.outdoor.lastYear);
  const heat = quantities.find((q) => q.quantity === 'heat-energy' && q.month !== null);
  const hca = quantities.find((q) => q.quantity === 'hca' && q.kwhEstimate?.month != null);
  const heatNow = heat ? heat.month : (hca?.kwhEstimate?.month ?? null);
  const heatThen = heat ? heat.sameMonthLastYear : (hca?.kwhEstimate?.sameMonthLastYear ?? null);
  const corrected =
    heatThen !== null && dd !== null && ddLastYear !== null
      ? climateCorrected(heatThen, ddLastYear, dd)
      : null;

  return {
    version: 1,
    month,
    tenancy: input.tenancy,
    landlord: input.landlord,
    quantities,
    climate: {
      baseC: DEGREE_DAY_BASE_C,
      degreeDays: dd,
      degreeDaysLastYear: ddLastYear,
      heatQuantity: heat ? 'heat-energy' : hca ? 'hca' : null,
      heatKwh: heatNow,
      heatKwhLastYear: heatThen,
      correctedLastYearKwh: corrected === null ? null : round(corrected, 1),
      correctedChangePercent:
        corrected && heatNow !== null ? round(((heatNow - corrected) / corrected) * 100, 1) : null,
    },
    cost:
      currency === null
        ? null
        : { currency, month: round(costMonth, 2), soFar: round(costSoFar, 2), from: input.costFrom },
    supply: { fuelMix: input.fuelMix, co2GramPerKwh: input.co2['heat-energy'] ?? null },
  };
}
