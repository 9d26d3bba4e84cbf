/**
 * The quantity page's KPI card: on the unit page the period's total, previous period, previous year (or its
 * weather-corrected value), property and, on request, the kWh estimate and the normal year; on a room or meter
 * page its total and comparison. Under them, the weather correction's and the kWh estimate's notes.
 */
import { useTranslation } from 'react-i18next';
import { formatQuantity } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { ClimateNote } from './ClimateNote.tsx';
import { consumptionOf } from './graphModel.ts';
import { ComparisonSmiley, KpiGrid, type KpiTile } from './Kpis.tsx';
import { KwhMethodNote } from './KwhMethodNote.tsx';
import { NoData } from './NoData.tsx';
import type { Scope } from './quantityScope.ts';
import type { PeriodState } from './usePeriod.ts';
import type { QuantityOptionsState } from './useQuantityOptions.ts';
import type { QuantityQueries } from './useQuantityQueries.ts';
import { standaloneFormat, type ValueFormat } from './valueFormat.ts';

type Props = {
  quantity: string;
  scope: Scope;
  queries: QuantityQueries;
  options: QuantityOptionsState;
  format: ValueFormat;
  comparison: PeriodState['comparison'];
  comparisonName: string;
  failed: boolean;
  lang: Language;
};

export function QuantityKpiCard({
  quantity,
  scope,
  queries,
  options,
  format: seriesFormat,
  comparison,
  comparisonName,
  failed,
  lang,
}: Props) {
  const { t } = useTranslation('consumption');
  const { kpis, table, graph } = queries;
  const { climateOn, estimateOn, normalized } = options;
  const kpi = kpis.data?.[0];
  // A large CO₂ total and its comparisons in kg, as the report writes them; the graph keeps grams per bucket.
  const format = standaloneFormat(seriesFormat, kpi?.total);
  const correction = consumptionOf(graph.data, quantity)?.climateCorrection ?? kpi?.climateCorrection ?? null;

  const tiles: KpiTile[] = [];
  if (scope.kind === 'unit' && kpi) {
    const reference = comparison === 'property' ? kpi.propertyComparison : kpi.previousPeriod;
    tiles.push(
      {
        key: 'total',
        label: kpi.partial ? t('kpi.total_so_far') : t('kpi.total'),
        value: format.format(kpi.total),
        extra: (
          <>
            <ComparisonSmiley value={kpi.total} reference={reference} />
            {kpi.estimatedHours > 0 && (
              <span className="kpi-note muted small" data-testid="kpi-estimated">
                {t('kpi.includes_estimated', { count: kpi.estimatedHours })}
              </span>
            )}
          </>
        ),
        testId: 'kpi-total',
      },
      { key: 'previous', label: t('kpi.previous_period'), value: format.format(kpi.previousPeriod) },
      {
        key: 'year',
        label: climateOn ? t('kpi.previous_year_corrected') : t('kpi.previous_year'),
        value: format.format(climateOn ? kpi.previousYearClimateCorrected : kpi.previousYear),
      },
      { key: 'property', label: t('kpi.property'), value: format.format(kpi.propertyComparison) },
    );
    if (estimateOn)
      tiles.push({
        key: 'kwh',
        label: t('kpi.kwh_estimate'),
        value:
          kpi.kwhEstimate === null
            ? '–'
            : `≈ ${formatQuantity(kpi.kwhEstimate, 'heat-energy', lang, { normalized })}`,
        testId: 'kpi-kwh-estimate',
      });
    if (climateOn && kpi.totalNormalYear !== null)
      tiles.push({ key: 'normal', label: t('kpi.normal_year'), value: format.format(kpi.totalNormalYear) });
  } else if (scope.kind !== 'unit' && table.data && (scope.kind === 'meter' || queries.roomTable.data)) {
    // The meter's own row, or the room's row as the server aggregates the room.
    const row = scope.kind === 'meter' ? queries.scopedRows[0] : queries.roomRow;
    const value = row?.values[0] ?? null;
    const reference = row?.comparisonValues[0] ?? null;
    tiles.push(
      {
        key: 'total',
        label: table.data.partial ? t('kpi.total_so_far') : t('kpi.total'),
        value: format.format(value),
        extra: <ComparisonSmiley value={value} reference={reference} />,
        testId: 'kpi-total',
      },
      { key: 'comparison', label: comparisonName, value: format.format(reference) },
    );
  }

  return (
    <section className="card" aria-labelledby="kpi-title">
      <h2 id="kpi-title" className="card-heading">
        {t('kpi.title')}
      </h2>
      <KpiGrid
        tiles={tiles}
        loading={tiles.length === 0 && !failed && (kpis.isPending || queries.tablesPending)}
      />
      {tiles.length === 0 && !kpis.isPending && !table.isPending && <NoData inline />}
      {climateOn && correction && <ClimateNote correction={correction} />}
      {estimateOn && kpi?.kwhEstimateMethod && (
        <KwhMethodNote method={kpi.kwhEstimateMethod} kwhPerUnit={kpi.kwhPerUnit} lang={lang} />
      )}
    </section>
  );
}
