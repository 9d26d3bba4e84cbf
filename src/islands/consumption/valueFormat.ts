/** How a series' numbers are shown: consumption by its quantity (SPEC §9), CO₂ in grams, cost in money. */
import {
  CO2_KG_FROM_GRAMS,
  formatCo2Grams,
  formatCo2Kg,
  formatNumber,
  moneyFormat,
  PER_M2,
  quantityDecimals,
  roundTo,
  unitSymbol,
} from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { isQuantityId } from '../../lib/quantities.ts';

/** A series' display: the text of a value, the axis unit, and the decimals CSV rounds to. */
export type ValueFormat = {
  format: (v: number | null) => string;
  unit: string;
  decimals: number;
  /** CO₂ only: the format of figures that stand alone (KPI tiles) when they are large, in kg as the report. */
  large?: { from: number; format: (v: number | null) => string };
};

/** The format for a card of figures that stand alone: `large` when the card's main figure reaches its bound. */
export function standaloneFormat(format: ValueFormat, main: number | null | undefined): ValueFormat {
  return format.large && main != null && Math.abs(main) >= format.large.from
    ? { ...format, format: format.large.format }
    : format;
}

/** The graph type a view shows. */
export type GraphType = 'HOURLY_VALUES' | 'COST' | 'CO2';

/** The format of values of a quantity as the given graph type, in a language. */
export function valueFormat(
  quantity: string,
  graphType: GraphType,
  lang: Language,
  opts: { normalized?: boolean; currency?: string | null } = {},
): ValueFormat {
  const normalized = opts.normalized ?? false;
  const suffix = normalized ? ` ${PER_M2}` : '';
  if (graphType === 'CO2') {
    return {
      format: (v) => (v === null ? '–' : `${formatCo2Grams(v, lang)}${suffix}`),
      unit: `g CO₂${suffix}`,
      decimals: 0,
      large: {
        from: CO2_KG_FROM_GRAMS,
        format: (v) => (v === null ? '–' : `${formatCo2Kg(v, lang)}${suffix}`),
      },
    };
  }
  if (graphType === 'COST') {
    const currency = opts.currency ?? 'DKK';
    const money = moneyFormat(currency, lang);
    const symbol = money.formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
    return {
      format: (v) => (v === null || !Number.isFinite(v) ? '–' : `${money.format(v)}${suffix}`),
      unit: `${symbol}${suffix}`,
      decimals: 2,
    };
  }
  if (!isQuantityId(quantity)) {
    return {
      format: (v) => (v === null ? '–' : formatNumber(v, lang)),
      unit: '',
      decimals: 2,
    };
  }
  const spec = quantityDecimals(quantity, normalized);
  // SPEC §9 gives per-m² decimals only for hca; a day's heat per m² is well below 1 kWh, so whole numbers would
  // show 0. Per m², at least 2 fraction digits are shown.
  const decimals = normalized && spec.max < 2 ? { min: spec.min, max: 2 } : spec;
  return {
    format: (v) =>
      v === null || !Number.isFinite(v)
        ? '–'
        : // SPEC §9's plural follows the value as shown: an hour's 0.4 hca units reads "0 units", 1.4 "1 unit".
          `${formatNumber(v, lang, { minimumFractionDigits: decimals.min, maximumFractionDigits: decimals.max })} ${unitSymbol(quantity, roundTo(v, decimals.max), lang)}${suffix}`.trim(),
    unit: `${unitSymbol(quantity, 2, lang)}${suffix}`.trim(),
    decimals: decimals.max,
  };
}
