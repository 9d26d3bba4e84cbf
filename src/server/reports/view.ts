/**
 * The monthly report as displayed text: every figure the page and the PDF show, formatted once here, so the two
 * can never disagree. Pure: a stored report (model.ts), a language and a translate function in, strings out.
 */
import type { ServerT } from '../../client/i18n.ts';
import { formatNumber, formatQuantity, MISSING, moneyFormat } from '../../lib/format.ts';
import { dateLocale, type Language } from '../../lib/languages.ts';
import { isQuantityId, quantityKey } from '../../lib/quantities.ts';
import type { MonthlyReport } from './model.ts';
import { addMonths } from './months.ts';

/** A translate function over namespaced keys ("reports:report.title"): serverT's, so the keys are checked. */
export type Translate = ServerT;

/** A labelled figure; `id` names it for tests and the page's data-testid. */
export interface Fact {
  id: string;
  label: string;
  value: string;
}

interface UseRow {
  quantity: string;
  label: string;
  /** This month, previous month, same month last year, you per m², building per m², cost, CO₂. */
  cells: string[];
  /** kWh estimates of allocator units under the first three cells, else null. */
  estimates: (string | null)[];
}

export interface ReportView {
  title: string;
  address: string;
  monthName: (month: string) => string;
  use: { columns: string[]; rows: UseRow[]; notes: string[] };
  hotWater: { facts: Fact[]; method: string } | null;
  climate: {
    intro: string;
    facts: Fact[];
    verdict: string | null;
    notes: string[];
    normalSource: { text: string; name: string; url: string };
  };
  cost: { facts: Fact[]; note: string } | { missing: string };
  fees: { columns: string[]; rows: string[][]; note: string } | null;
  supply: {
    fuelMix: { label: string; percent: number; text: string }[];
    facts: Fact[];
  };
  bodies: { description: string; name: string; url: string }[];
}

/** Formats a stored report for display in one language. */
export function reportView(report: MonthlyReport, lang: Language, t: Translate): ReportView {
  const locale = dateLocale(lang);
  const monthName = (month: string) =>
    new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${month}T12:00:00Z`),
    );
  const longDate = (day: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${day}T12:00:00Z`),
    );
  const qty = (value: number | null, quantity: string, normalized = false) =>
    value === null || !isQuantityId(quantity)
      ? MISSING
      : formatQuantity(value, quantity, lang, { normalized });
  const kwh = (value: number | null) =>
    value === null ? MISSING : `${formatNumber(value, lang, { maximumFractionDigits: 0 })} kWh`;
  const num = (value: number | null, digits: number) =>
    value === null ? MISSING : formatNumber(value, lang, { maximumFractionDigits: digits });
  const currency = report.cost?.currency ?? report.fees?.currency ?? null;
  const money = (value: number | null, code: string | null = currency) =>
    value === null || code === null ? MISSING : moneyFormat(code, lang).format(value);
  const estimate = (value: number | null | undefined) =>
    value == null ? null : t('reports:report.kwh_estimate', { value: num(value, 0) });
  const percent = (share: number) => `${formatNumber(share * 100, lang, { maximumFractionDigits: 0 })} %`;

  const rows: UseRow[] = report.quantities.map((q) => ({
    quantity: q.quantity,
    label: t(quantityKey(q.quantity)),
    cells: [
      qty(q.month, q.quantity),
      qty(q.previousMonth, q.quantity),
      qty(q.sameMonthLastYear, q.quantity),
      qty(q.perM2, q.quantity, true),
      qty(q.propertyPerM2, q.quantity, true),
      q.cost === null ? MISSING : money(q.cost),
      q.co2Kg === null ? MISSING : `${num(q.co2Kg, 1)} kg`,
    ],
    estimates: q.kwhEstimate
      ? [
          estimate(q.kwhEstimate.month),
          estimate(q.kwhEstimate.previousMonth),
          estimate(q.kwhEstimate.sameMonthLastYear),
        ]
      : [null, null, null],
  }));
  const useNotes = [
    ...report.quantities.flatMap((q) =>
      q.kwhEstimate
        ? [
            t('reports:report.hca_method'),
            // Reports stored before the method was recorded have none: the general text alone.
            ...(q.kwhEstimate.method === undefined
              ? []
              : [
                  q.kwhEstimate.method === null || q.kwhEstimate.kwhPerUnit == null
                    ? t('reports:allocator_method.none')
                    : t(`reports:allocator_method.${q.kwhEstimate.method}`, {
                        factor: num(q.kwhEstimate.kwhPerUnit, 3),
                      }),
                ]),
          ]
        : [],
    ),
    t('reports:report.property_note'),
    ...(report.quantities.some((q) => q.propertyPerM2 === null)
      ? [t('reports:report.property_floor', { count: 3 })]
      : []),
  ];

  const { climate } = report;
  const lastYear = addMonths(report.month, -12);
  const climateFacts: Fact[] = [
    {
      id: 'degree-days',
      label: `${t('reports:report.degree_days')}, ${monthName(report.month)}`,
      value: num(climate.degreeDays, 1),
    },
    {
      id: 'degree-days-last-year',
      label: `${t('reports:report.degree_days')}, ${monthName(lastYear)}`,
      value: num(climate.degreeDaysLastYear, 1),
    },
    {
      id: 'heat-kwh',
      label: `${t('reports:report.heat_kwh')}, ${monthName(report.month)}`,
      value: kwh(climate.heatKwh),
    },
    {
      id: 'corrected-last-year',
      label: t('reports:report.corrected_last_year'),
      value: kwh(climate.correctedLastYearKwh),
    },
    {
      id: 'hot-water-share',
      label: t('reports:report.hot_water_share'),
      value: percent(climate.hotWaterShare),
    },
  ];
  const change = climate.correctedChangePercent;

  const hw = report.hotWater;
  const fees = report.fees;
  const supply = report.supply;
  const supplyFacts: Fact[] = [];
  if (supply.co2GramPerKwh !== null)
    supplyFacts.push({
      id: 'co2-per-kwh',
      label: t('reports:report.co2_per_kwh_label'),
      value: `${num(supply.co2GramPerKwh, 0)} g`,
    });
  if (supply.networkCo2Tonnes !== null)
    supplyFacts.push({
      id: 'network-co2',
      label: t('reports:report.network_co2', { year: supply.networkYear ?? MISSING }),
      value: `${num(supply.networkCo2Tonnes, 0)} t CO₂`,
    });
  if (supply.networkCo2GramPerKwh !== null)
    supplyFacts.push({
      id: 'network-co2-per-kwh',
      label: t('reports:report.network_co2_per_kwh', { year: supply.networkYear ?? MISSING }),
      value: `${num(supply.networkCo2GramPerKwh, 0)} g`,
    });
  if (supply.primaryEnergyFactor !== null)
    supplyFacts.push({
      id: 'primary-energy-factor',
      label: t('reports:report.primary_energy_factor'),
      value: num(supply.primaryEnergyFactor, 2),
    });

  return {
    title: t('reports:report.title', { month: monthName(report.month) }),
    address: t('reports:report.for_address', {
      address: report.tenancy.address,
      zipcode: report.tenancy.zipcode,
      city: report.tenancy.city,
    }),
    monthName,
    use: {
      columns: [
        t('reports:report.col_quantity'),
        t('reports:report.col_month'),
        t('reports:report.col_previous'),
        t('reports:report.col_last_year'),
        t('reports:report.col_per_m2'),
        t('reports:report.col_property_per_m2'),
        t('reports:report.col_cost'),
        t('reports:report.col_co2'),
      ],
      rows,
      notes: useNotes,
    },
    hotWater: hw && {
      facts: [
        {
          id: 'hot-water-m3',
          label: t('reports:report.hot_water_m3'),
          value: qty(hw.m3, 'hot-water-volume'),
        },
        { id: 'hot-water-kwh', label: t('reports:report.hot_water_kwh'), value: kwh(hw.kwh) },
      ],
      method: t('reports:report.hot_water_method', { kwhPerM3: num(hw.kwhPerM3, 0) }),
    },
    climate: {
      intro: t('reports:report.climate_text', { base: climate.baseC }),
      facts: climateFacts,
      verdict:
        change === null
          ? null
          : num(Math.abs(change), 0) === num(0, 0)
            ? t('reports:report.corrected_change_same')
            : t(
                change < 0 ? 'reports:report.corrected_change_less' : 'reports:report.corrected_change_more',
                {
                  percent: num(Math.abs(change), 0),
                },
              ),
      notes: [
        ...(change === null ? [t('reports:report.climate_missing')] : []),
        t('reports:report.hot_water_share_note', { share: percent(climate.hotWaterShare) }),
        ...(climate.heatQuantity === 'hca' ? [t('reports:report.estimated_from_hca')] : []),
      ],
      normalSource: {
        text: t('reports:report.normal_source'),
        name: climate.normalSource.name,
        url: climate.normalSource.url,
      },
    },
    cost: report.cost
      ? {
          facts: [
            { id: 'cost-month', label: t('reports:report.cost_month'), value: money(report.cost.month) },
            {
              id: 'cost-so-far',
              label: t('reports:report.cost_so_far', { from: longDate(report.cost.from) }),
              value: money(report.cost.soFar),
            },
          ],
          note: t('reports:report.cost_note'),
        }
      : { missing: t('reports:report.cost_missing') },
    fees: fees && {
      columns: [
        t('reports:report.fee_col_kind'),
        t('reports:report.fee_col_year'),
        t('reports:report.fee_col_month'),
      ],
      rows: fees.items.map((f) => [
        t(`reports:fees.${f.kind}`),
        money(f.amountPerYear, fees.currency),
        money(f.month, fees.currency),
      ]),
      note: t('reports:report.fees_note'),
    },
    supply: {
      fuelMix: supply.fuelMix.map((f) => ({
        label: t(`reports:fuel.${f.source}`),
        percent: f.percent,
        text: `${num(f.percent, 1)} %`,
      })),
      facts: supplyFacts,
    },
    bodies: [...report.bodies.dispute, report.bodies.consumer].map((b) => ({
      description: t(`reports:bodies.${b.kind}`),
      name: b.name,
      url: b.url,
    })),
  };
}
