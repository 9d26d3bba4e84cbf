/**
 * consumption/{type}, its room and meter pages: the period bar, the graph with comparison and last-year series,
 * KPIs, the per-meter table, the per-m² and CO₂ views, and the degree-day correction of heat. What the page asks
 * the server is in useQuantityQueries, its options in useQuantityOptions; each card is a component of its own.
 */
import { useEffect, useMemo } from 'react';
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
  const factorQuantities = useMemo(
    () => unit?.path[0]?.property.co2Factors.map((f) => f.quantity) ?? [],
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
  const { table, scopedRows, graph, kpis, readout } = queries;

  const format = valueFormat(quantity, graphType, lang, { normalized });
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
  const failure = units.error ?? queries.failure;
  const kpi = kpis.data?.[0];
  // Fun facts compare whole grams, so they need the absolute total, not the per-m² one.
  const co2Total = graphType === 'CO2' && !normalized ? (kpi?.total ?? null) : null;
  const base = tenancy ? `/t/${encodeURIComponent(tenancy.id)}/consumption/${quantity}` : '';
  const graphTitle = graphType === 'CO2' ? t('graph.co2_title', { quantity: quantityName }) : quantityName;

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
            title={`${graphTitle}, ${state.periodText}`}
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
    </div>
  );
}
