/** consumption/{type}/price: the cost graph, the price list with validity, fixed charges and the projection. */
import { memo, useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { orFallback } from '../../client/i18nKeys.ts';
import { useConsumptionProjection } from '../../client/operations/consumptionProjection.ts';
import { useFixedCharges } from '../../client/operations/fixedCharges.ts';
import { useQuantityPrices } from '../../client/operations/quantityPrices.ts';
import { type TenantGraphInput, useTenantGraph } from '../../client/operations/tenantGraph.ts';
import { useUnitQuantityKpis } from '../../client/operations/unitQuantityKpis.ts';
import { csvNumber } from '../../lib/csv.ts';
import { unitSymbol } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { formatDate, parseIsoDate, spanDays, toServerDates, toServerMinuteRange } from '../../lib/periods.ts';
import { isQuantityId, quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { CsvButton, DataTable, type TableModel } from './DataTable.tsx';
import { GraphPanel } from './GraphPanel.tsx';
import { COLORS, quantityGraphModel } from './graphModel.ts';
import { KpiGrid } from './Kpis.tsx';
import { NoData } from './NoData.tsx';
import { PeriodBar } from './PeriodBar.tsx';
import { usePeriod } from './usePeriod.ts';
import { useTenancyData } from './useTenancyData.ts';
import { useWarmFormatters } from './useWarmFormatters.ts';
import { valueFormat } from './valueFormat.ts';

type Props = { lang: Language; quantity: string };

/** The island. */
export default function PricePage(props: Props) {
  return (
    <Providers lang={props.lang}>
      <PriceView {...props} />
    </Providers>
  );
}

function PriceView({ quantity }: Props) {
  const { t } = useTranslation(['consumption', 'domain']);
  const { lang, ready, tenancy, unit, hasHourlyData } = useTenancyData();
  const state = usePeriod('default', hasHourlyData);
  const { period, serverResolution: resolution } = state;
  const unitId = unit?.unit.id ?? null;
  const dates = toServerDates(period);
  const graphInput: TenantGraphInput | null = unitId
    ? {
        graphType: 'COST',
        resolution,
        ...toServerMinuteRange(period),
        objects: [{ kind: 'UNIT', id: unitId }],
        quantities: [quantity],
        related: ['LAST_PERIOD'],
      }
    : null;
  const graph = useTenantGraph(graphInput);
  const kpis = useUnitQuantityKpis(
    unitId ? { unitId, quantities: [quantity], ...dates, graphType: 'COST' } : null,
  );
  const prices = useQuantityPrices(unitId ? { unitId, quantities: [quantity], ...dates } : null);
  const fixed = useFixedCharges(
    unitId ? { unitId, ...dates, resolution: spanDays(period) > 366 ? 'YEAR' : 'MONTH' } : null,
  );
  const month = useConsumptionProjection(unitId ? { unitId, quantities: [quantity], span: 'MONTH' } : null);
  const year = useConsumptionProjection(unitId ? { unitId, quantities: [quantity], span: 'YEAR' } : null);

  const currency = prices.data?.[0]?.currency ?? month.data?.[0]?.currency ?? 'DKK';
  // One format per currency (a new one each render would rebuild the graph model on each answer's update).
  const format = useMemo(() => valueFormat(quantity, 'COST', lang, { currency }), [quantity, lang, currency]);
  const quantityName = isQuantityId(quantity) ? t(quantityKey(quantity)) : quantity;
  const title = t('graph.cost_title', { quantity: quantityName });
  const model = useMemo(
    () =>
      quantityGraphModel(graph.data, quantity, resolution, format, t('series.cost'), [
        { type: 'LAST_PERIOD', name: t('series.last_period'), color: COLORS.comparison, dashed: true },
      ]),
    [graph.data, quantity, resolution, format, t],
  );
  // The six answers arrive one by one, each a synchronous update: the cards draw from a deferred value, which
  // React renders in slices that yield to the browser (see QuantityPage). One object, so they never mix periods.
  const body = useDeferredValue<PriceBodyProps>({
    quantity,
    lang,
    graphInput,
    graph,
    kpis,
    prices,
    fixed,
    month,
    year,
    format,
    title,
    model,
    periodText: state.periodText,
    period,
  });
  useWarmFormatters(lang, true);
  if (!ready) return null;
  const base = tenancy ? `/t/${encodeURIComponent(tenancy.id)}/consumption/${quantity}` : '';

  return (
    <div className="consumption-page">
      <nav className="view-links" aria-label={t('views.label')}>
        <a href={base}>{t('views.consumption')}</a>
        <a href={`${base}/price`} aria-current="page">
          {t('views.price')}
        </a>
      </nav>
      <PeriodBar state={state} minDate={tenancy?.dataAvailability.start} />
      <PriceBody {...body} />
    </div>
  );
}

type PriceBodyProps = {
  quantity: string;
  lang: Language;
  graphInput: TenantGraphInput | null;
  graph: ReturnType<typeof useTenantGraph>;
  kpis: ReturnType<typeof useUnitQuantityKpis>;
  prices: ReturnType<typeof useQuantityPrices>;
  fixed: ReturnType<typeof useFixedCharges>;
  month: ReturnType<typeof useConsumptionProjection>;
  year: ReturnType<typeof useConsumptionProjection>;
  format: ReturnType<typeof valueFormat>;
  title: string;
  model: ReturnType<typeof quantityGraphModel>;
  periodText: string;
  period: ReturnType<typeof usePeriod>['period'];
};

/** The cards below the period bar: what the answers draw (rendered from the deferred value above). */
const PriceBody = memo(function PriceBody(props: PriceBodyProps) {
  const { t } = useTranslation(['consumption', 'domain']);
  const { quantity, lang, graphInput, graph, kpis, prices, fixed, month, year, format, title, model } = props;
  const { periodText, period } = props;
  const kpi = kpis.data?.[0];
  return (
    <>
      {(graph.error || prices.error) && (
        <div className="state-box" role="alert">
          <p>{t('failed')}</p>
        </div>
      )}
      <section className="card" aria-labelledby="cost-title">
        <h2 id="cost-title" className="card-heading">
          {title}
        </h2>
        <KpiGrid
          count={2}
          loading={kpis.isPending && !kpis.error}
          tiles={[
            {
              key: 'cost',
              label: kpi?.partial ? t('kpi.total_so_far') : t('price.cost_kpi'),
              value: format.format(kpi?.total ?? null),
              testId: 'cost-total',
            },
            {
              key: 'previous',
              label: t('kpi.previous_period'),
              value: format.format(kpi?.previousPeriod ?? null),
            },
          ]}
        />
        {graphInput && graph.isPending ? (
          <div className="chart-skeleton">
            <Spinner label={t('chart.loading')} />
          </div>
        ) : (
          <GraphPanel
            showTitle={false}
            model={model}
            lang={lang}
            title={`${title}, ${periodText}`}
            fileParts={[quantity, 'cost', period.startDate, period.endDate]}
            testId="cost-graph"
          />
        )}
      </section>

      <section className="card" aria-labelledby="projection-title">
        <h2 id="projection-title" className="card-heading">
          {t('price.projection_title')}
        </h2>
        {[month, year].map((p, i) => {
          const row = p.data?.[0];
          if (p.isPending) return <div key={i === 0 ? 'month' : 'year'} className="placeholder-line" />;
          if (!row || row.projected === null)
            return (
              <p key={i === 0 ? 'month' : 'year'} className="muted">
                {t('price.projection_unavailable')}
              </p>
            );
          const money = valueFormat(quantity, 'COST', lang, { currency: row.currency });
          const amount = valueFormat(quantity, 'HOURLY_VALUES', lang);
          return (
            <p
              key={i === 0 ? 'month' : 'year'}
              data-testid={i === 0 ? 'projection-month' : 'projection-year'}
            >
              {t(i === 0 ? 'price.projection_month' : 'price.projection_year', {
                value: money.format(row.projectedCost),
                cost: amount.format(row.projected),
              })}{' '}
              <span className="muted small">
                {t('price.projection_so_far', {
                  value: money.format(row.costSoFar),
                  days: row.daysElapsed,
                  total: row.daysTotal,
                })}
              </span>
            </p>
          );
        })}
      </section>

      <section className="card" aria-labelledby="prices-title">
        <h2 id="prices-title" className="card-heading">
          {t('price.prices_title')}
        </h2>
        {prices.data ? (
          <PriceTable prices={prices.data} quantity={quantity} lang={lang} />
        ) : (
          <Spinner label={t('loading')} />
        )}
      </section>

      <section className="card" aria-labelledby="fixed-title">
        <h2 id="fixed-title" className="card-heading">
          {t('price.fixed_title')}
        </h2>
        {fixed.data ? (
          <FixedTable
            table={fixed.data}
            lang={lang}
            fileParts={['fixed-charges', period.startDate, period.endDate]}
          />
        ) : (
          fixed.isPending && <Spinner label={t('loading')} />
        )}
      </section>
    </>
  );
});

function dateText(date: string, lang: Language): string {
  const day = parseIsoDate(date);
  return day ? formatDate(day, lang) : date;
}

function PriceTable({
  prices,
  quantity,
  lang,
}: {
  prices: NonNullable<ReturnType<typeof useQuantityPrices>['data']>;
  quantity: string;
  lang: Language;
}) {
  const { t } = useTranslation('consumption');
  if (prices.length === 0) return <NoData inline />;
  const unit = isQuantityId(quantity) ? unitSymbol(quantity, 1, lang) : '';
  const model: TableModel = {
    columns: [
      t('price.valid_from'),
      t('price.valid_to'),
      `${t('price.price')} (${t('price.per_unit', { unit })})`,
    ],
    rows: prices.map((p) => {
      const money = valueFormat(quantity, 'COST', lang, { currency: p.currency });
      const lastDay = p.validTo
        ? (parseIsoDate(p.validTo)?.subtract({ days: 1 }).toString() ?? p.validTo)
        : null;
      return [
        { text: dateText(p.validFrom, lang), csv: p.validFrom },
        // validTo is exclusive; people read "valid until" as the last day it applies.
        { text: lastDay ? dateText(lastDay, lang) : t('price.open_ended'), csv: lastDay ?? '' },
        { text: money.format(p.price), csv: csvNumber(p.price, lang, 4) },
      ];
    }),
  };
  return (
    <>
      <DataTable model={model} caption={t('price.prices_title')} />
      <CsvButton model={model} lang={lang} fileParts={[quantity, 'prices']} label={t('price.prices_title')} />
    </>
  );
}

function FixedTable({
  table,
  lang,
  fileParts,
}: {
  table: NonNullable<ReturnType<typeof useFixedCharges>['data']>;
  lang: Language;
  fileParts: string[];
}) {
  const { t } = useTranslation(['consumption', 'domain']);
  if (table.charges.length === 0) return <NoData inline />;
  const sum = (values: (number | null)[]) => values.reduce<number>((a, v) => a + (v ?? 0), 0);
  const currency = table.charges[0]?.currency ?? 'DKK';
  const money = valueFormat('', 'COST', lang, { currency });
  const model: TableModel = {
    columns: [t('price.fixed_kind'), t('price.per_year'), t('price.in_period')],
    rows: [
      ...table.charges.map((c) => {
        const label = `${t(orFallback(`price.charge.${c.kind}`, 'price.charge_unknown'), { kind: c.kind })}${c.quantity ? ` (${t(quantityKey(c.quantity))})` : ''}`;
        const inPeriod = sum(c.values);
        return [
          { text: label, csv: label },
          { text: money.format(c.amountPerYear), csv: csvNumber(c.amountPerYear, lang, 2) },
          { text: money.format(inPeriod), csv: csvNumber(inPeriod, lang, 2) },
        ];
      }),
      [
        { text: t('price.total'), csv: t('price.total') },
        {
          text: money.format(table.charges.reduce((a, c) => a + c.amountPerYear, 0)),
          csv: csvNumber(
            table.charges.reduce((a, c) => a + c.amountPerYear, 0),
            lang,
            2,
          ),
        },
        { text: money.format(sum(table.totals)), csv: csvNumber(sum(table.totals), lang, 2) },
      ],
    ],
  };
  return (
    <>
      <DataTable model={model} caption={t('price.fixed_title')} />
      <CsvButton model={model} lang={lang} fileParts={fileParts} label={t('price.fixed_title')} />
    </>
  );
}
