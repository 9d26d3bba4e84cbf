/**
 * consumption/{type}, its room and meter pages: the period bar, the graph with comparison and last-year series,
 * KPIs, the per-meter table, the per-m² and CO₂ views, and the degree-day correction of heat. What the page asks
 * the server is in useQuantityQueries, its options in useQuantityOptions; each card is a component of its own.
 */
import { memo, useDeferredValue, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { setCrumbLabel } from '../../client/crumbLabels.ts';
import type { Language } from '../../lib/languages.ts';
import { isQuantityId, quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { FunFacts } from './FunFacts.tsx';
import { GraphPanel } from './GraphPanel.tsx';
import { COLORS, quantityGraphModel } from './graphModel.ts';
import { MeterTable } from './MeterTable.tsx';
import { NoData } from './NoData.tsx';
import { PeriodBar } from './PeriodBar.tsx';
import { QuantityKpiCard } from './QuantityKpiCard.tsx';
import { QuantityOptions } from './QuantityOptions.tsx';
import type { Scope } from './quantityScope.ts';
import { ReadoutList } from './ReadoutList.tsx';
import { RoomList } from './RoomList.tsx';
import { usePeriod } from './usePeriod.ts';
import { useQuantityOptions } from './useQuantityOptions.ts';
import { useQuantityQueries } from './useQuantityQueries.ts';
import { useTenancyData } from './useTenancyData.ts';
import { useWarmFormatters } from './useWarmFormatters.ts';
import { valueFormat } from './valueFormat.ts';

type Props = { lang: Language; quantity: string; scope: Scope };

/** The island. */
export default function QuantityPage(props: Props) {
  return (
    <Providers lang={props.lang}>
      <QuantityView {...props} />
    </Providers>
  );
}

function QuantityView({ quantity, scope }: Props) {
  const { t } = useTranslation(['consumption', 'domain']);
  const { lang, ready, tenancy, unit, units, hasHourlyData } = useTenancyData();
  const state = usePeriod(scope.kind === 'unit' ? 'default' : scope.kind, hasHourlyData);
  const { period, comparison, serverResolution: resolution } = state;
  // null until the unit (and so its property's CO₂ factors) is known.
  const factorQuantities = useMemo(
    () => (unit ? (unit.path[0]?.property.co2Factors.map((f) => f.quantity) ?? []) : null),
    [unit],
  );
  const options = useQuantityOptions(quantity, scope, factorQuantities);
  const { graphType, normalized, climateOn } = options;
  const queries = useQuantityQueries({
    quantity,
    scope,
    unitId: unit?.unit.id ?? null,
    tenancyId: tenancy?.id ?? null,
    period: state,
    options,
  });
  const { table, scopedRows, graph, readout } = queries;

  // One format per view (a new one each render would rebuild the graph model, and redraw every card, on each
  // answer's update).
  const format = useMemo(
    () => valueFormat(quantity, graphType, lang, { normalized }),
    [quantity, graphType, lang, normalized],
  );
  const quantityName = isQuantityId(quantity) ? t(quantityKey(quantity)) : quantity;
  const comparisonName = comparison === 'property' ? t('series.property') : t('series.last_period');
  const model = useMemo(
    () =>
      quantityGraphModel(graph.data, quantity, resolution, format, t('series.yours'), [
        {
          type: comparison === 'property' ? 'PROPERTY' : 'LAST_PERIOD',
          name: comparisonName,
          color: COLORS.comparison,
          dashed: true,
        },
        climateOn
          ? { type: 'CLIMATE_LAST_YEAR', name: t('series.last_year_corrected'), color: COLORS.lastYear }
          : { type: 'LAST_YEAR', name: t('series.last_year'), color: COLORS.lastYear },
      ]),
    [graph.data, quantity, resolution, format, comparison, comparisonName, climateOn, t],
  );

  // SPEC §2 names a meter by its number: the URL (and so the server-rendered crumb and title) has only the
  // measurement point's internal id, so both are renamed once the unit's table has the point's meter.
  const meterId = scope.kind === 'meter' ? scope.id : null;
  const meterNumber = meterId
    ? (scopedRows[0]?.object.group?.meter?.number ?? readout.data?.meterNumber ?? null)
    : null;
  const meterWord = t('crumbs.meter');
  useEffect(() => {
    if (!meterId || !meterNumber) return;
    const label = `${meterWord} ${meterNumber}`;
    setCrumbLabel(`meter:${meterId}`, label);
    document.title = document.title.replace(`${meterWord} ${meterId}`, label);
  }, [meterId, meterNumber, meterWord]);

  const base = tenancy ? `/t/${encodeURIComponent(tenancy.id)}/consumption/${quantity}` : '';
  const failure = units.error ?? queries.failure;
  const graphTitle = graphType === 'CO2' ? t('graph.co2_title', { quantity: quantityName }) : quantityName;
  // The answers draw the cards (KPIs, graph, tables) in one render: as a deferred value React renders them in
  // slices that yield to the browser (the query's update itself is synchronous), so a phone's main thread is
  // never blocked for long while they arrive. The period bar and options above answer at once; every value the
  // cards show travels in this one object, so they never mix two periods or views.
  const body = useDeferredValue<BodyProps>({
    quantity,
    scope,
    queries,
    options,
    format,
    comparison,
    comparisonName,
    failure,
    lang,
    model,
    graphTitle,
    periodText: state.periodText,
    period,
    base,
  });
  useWarmFormatters(lang);

  if (!ready) return null;
  if (units.isSuccess && !unit) return <NoData />;
  if (scope.kind !== 'unit' && table.data && scopedRows.length === 0) {
    const back = tenancy ? `/t/${encodeURIComponent(tenancy.id)}/consumption/${quantity}` : '/';
    return (
      <div className="state-box" role="alert" data-testid="scope-not-found">
        <p>{t(scope.kind === 'meter' ? 'not_found.meter' : 'not_found.room')}</p>
        <a href={back}>{t('not_found.back')}</a>
      </div>
    );
  }

  return (
    <div className="consumption-page">
      {scope.kind === 'unit' && (
        <nav className="view-links" aria-label={t('views.label')}>
          <a href={base} aria-current="page">
            {t('views.consumption')}
          </a>
          <a href={`${base}/price`}>{t('views.price')}</a>
        </nav>
      )}
      <PeriodBar state={state} comparison minDate={tenancy?.dataAvailability.start} />
      <QuantityOptions options={options} />

      <QuantityBody {...body} />
    </div>
  );
}

type BodyProps = {
  quantity: string;
  scope: Scope;
  queries: ReturnType<typeof useQuantityQueries>;
  options: ReturnType<typeof useQuantityOptions>;
  format: ReturnType<typeof valueFormat>;
  comparison: ReturnType<typeof usePeriod>['comparison'];
  comparisonName: string;
  failure: unknown;
  lang: Language;
  model: ReturnType<typeof quantityGraphModel>;
  graphTitle: string;
  periodText: string;
  period: ReturnType<typeof usePeriod>['period'];
  base: string;
};

/** The cards below the options: what the answers draw (rendered from the deferred value above). */
const QuantityBody = memo(function QuantityBody(props: BodyProps) {
  const { t } = useTranslation(['consumption', 'domain']);
  const { quantity, scope, queries, options, format, comparison, comparisonName, failure, lang } = props;
  const { model, graphTitle, periodText, period, base } = props;
  const { table, scopedRows, graph, kpis, readout } = queries;
  const { graphType, normalized } = options;
  const kpi = kpis.data?.[0];
  // Fun facts compare whole grams, so they need the absolute total, not the per-m² one.
  const co2Total = graphType === 'CO2' && !normalized ? (kpi?.total ?? null) : null;
  return (
    <>
      {failure && (
        <div className="state-box" role="alert">
          <p>{t('failed')}</p>
          <button type="button" className="button secondary" onClick={queries.refetch}>
            {t('retry')}
          </button>
        </div>
      )}

      <QuantityKpiCard
        quantity={quantity}
        scope={scope}
        queries={queries}
        options={options}
        format={format}
        comparison={comparison}
        comparisonName={comparisonName}
        failed={Boolean(failure)}
        lang={lang}
      />

      <section className="card" aria-labelledby="graph-title">
        <h2 id="graph-title" className="card-heading">
          {graphTitle}
        </h2>
        {queries.graphInput && graph.isPending ? (
          <div className="chart-skeleton">
            <Spinner label={t('chart.loading')} />
          </div>
        ) : (
          <GraphPanel
            showTitle={false}
            model={model}
            lang={lang}
            title={`${graphTitle}, ${periodText}`}
            fileParts={[quantity, graphType === 'CO2' ? 'co2' : '', period.startDate, period.endDate]}
            testId="quantity-graph"
          />
        )}
        {graphType === 'CO2' && co2Total !== null && <FunFacts grams={co2Total} />}
      </section>

      {scope.kind === 'meter' && (
        <section className="card" aria-labelledby="readout-title">
          <h2 id="readout-title" className="card-heading">
            {t('readout.title')}
          </h2>
          {readout.data ? (
            <ReadoutList readout={readout.data} lang={lang} quantity={quantity} />
          ) : readout.isFetching ? (
            <Spinner label={t('chart.loading')} />
          ) : (
            <NoData inline />
          )}
        </section>
      )}

      {scope.kind === 'unit' && (
        <section className="card" aria-labelledby="table-title">
          <h2 id="table-title" className="card-heading">
            {t('table.meters_title')}
          </h2>
          {table.data ? (
            <MeterTable
              rows={scopedRows}
              lang={lang}
              format={format}
              comparisonName={comparisonName}
              base={base}
              fileParts={[quantity, 'meters', period.startDate, period.endDate]}
            />
          ) : (
            table.isPending && <Spinner label={t('chart.loading')} />
          )}
        </section>
      )}

      {scope.kind === 'unit' && kpi && kpi.rooms.length > 0 && (
        <section className="card" aria-labelledby="rooms-title">
          <h2 id="rooms-title" className="card-heading">
            {t('table.rooms_title')}
          </h2>
          <RoomList
            rooms={kpi.rooms}
            lang={lang}
            format={format}
            base={base}
            fileParts={[quantity, 'rooms', period.startDate, period.endDate]}
          />
        </section>
      )}
    </>
  );
});
