/**
 * consumption/{type}, its room and meter pages: the period bar, the graph with comparison and last-year series,
 * KPIs, the per-meter table, the per-m² and CO₂ views, and the degree-day correction of heat.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReadoutMinMax } from '../../client/operations/readoutMinMax.ts';
import type { GraphConsumption } from '../../client/operations/tenantGraph.ts';
import {
  type RelatedKind,
  type TenantGraphInput,
  useTenantGraph,
} from '../../client/operations/tenantGraph.ts';
import { type TenantTableInput, useTenantTable } from '../../client/operations/tenantTable.ts';
import { useUnitQuantityKpis } from '../../client/operations/unitQuantityKpis.ts';
import { localTimestamp } from '../../lib/buckets.ts';
import { csvNumber } from '../../lib/csv.ts';
import { formatNumber, formatQuantity } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { toServerDates, toServerMinuteRange } from '../../lib/periods.ts';
import { isQuantityId, QUANTITIES, quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { CsvButton, type TableModel, TableScroll } from './DataTable.tsx';
import { FunFacts } from './FunFacts.tsx';
import { GraphPanel } from './GraphPanel.tsx';
import { COLORS, consumptionOf, quantityGraphModel, roomSlug } from './graphModel.ts';
import { ComparisonSmiley, KpiGrid, type KpiTile } from './Kpis.tsx';
import { NoData } from './NoData.tsx';
import { PeriodBar } from './PeriodBar.tsx';
import { usePeriod } from './usePeriod.ts';
import { useTenancyData } from './useTenancyData.ts';
import { type GraphType, valueFormat } from './valueFormat.ts';

/** Which objects the page is about. */
type Scope = { kind: 'unit' } | { kind: 'room'; slug: string } | { kind: 'meter'; id: string };

type Props = { lang: Language; quantity: string; scope: Scope };

/** The island. */
export default function QuantityPage(props: Props) {
  return (
    <Providers lang={props.lang}>
      <QuantityView {...props} />
    </Providers>
  );
}

const HEAT = new Set(['heat-energy', 'heat-volume', 'hca']);

function QuantityView({ quantity, scope }: Props) {
  const { t } = useTranslation(['consumption', 'domain']);
  const { lang, ready, tenancy, unit, units, hasHourlyData } = useTenancyData();
  const state = usePeriod(scope.kind === 'unit' ? 'default' : scope.kind, hasHourlyData);
  const { period, comparison, serverResolution: resolution } = state;
  const [graphType, setGraphType] = useState<GraphType>('HOURLY_VALUES');
  const [normalizedPick, setNormalized] = useState(false);
  const [lastYear, setLastYear] = useState(true);
  const [climate, setClimate] = useState(false);
  const [kwhEstimate, setKwhEstimate] = useState(false);
  const info = isQuantityId(quantity) ? QUANTITIES[quantity] : null;
  const normalized = normalizedPick && (info?.normalizable ?? false);
  const canClimate = HEAT.has(quantity) && graphType === 'HOURLY_VALUES' && scope.kind === 'unit';
  const climateOn = canClimate && climate;
  // Heat-cost allocator units mean little alone; on request the server converts them to a kWh estimate.
  const estimateOn =
    quantity === 'hca' && graphType === 'HOURLY_VALUES' && scope.kind === 'unit' && kwhEstimate;
  const unitId = unit?.unit.id ?? null;
  const dates = toServerDates(period);

  // The table of meters: the page's rows, and for room and meter pages where their objects come from.
  const tableInput: TenantTableInput | null = unitId
    ? {
        unitId,
        quantities: [quantity],
        ...dates,
        compareWith: comparison === 'property' ? 'PROPERTY' : 'LAST_PERIOD',
        rows: 'METER',
        graphType,
        normalized,
      }
    : null;
  const table = useTenantTable(tableInput);
  const scopedRows = useMemo(() => {
    const rows = table.data?.rows ?? [];
    if (scope.kind === 'room')
      return rows.filter((r) => roomSlug(r.object.measurementPoint?.room ?? r.label ?? '') === scope.slug);
    if (scope.kind === 'meter') return rows.filter((r) => r.object.id === scope.id);
    return rows;
  }, [table.data, scope]);

  const relatedKinds: RelatedKind[] = [comparison === 'property' ? 'PROPERTY' : 'LAST_PERIOD'];
  if (lastYear) relatedKinds.push('LAST_YEAR');
  const objects: TenantGraphInput['objects'] | null =
    scope.kind === 'unit'
      ? unitId
        ? [{ kind: 'UNIT', id: unitId }]
        : null
      : // A room or meter is asked for only once the unit's table lists it: an id from a stale or edited URL
        // gets the "not found" box below instead of a refusal from the server.
        table.data
        ? scopedRows.map((r) => ({ kind: 'MPOINT' as const, id: r.object.id }))
        : null;
  const graphInput: TenantGraphInput | null =
    objects && objects.length > 0
      ? {
          graphType,
          resolution,
          ...toServerMinuteRange(period),
          objects,
          quantities: [quantity],
          normalized,
          related: relatedKinds,
          ...(climateOn ? { climateCorrection: {} } : {}),
        }
      : null;
  const graph = useTenantGraph(graphInput);
  const kpis = useUnitQuantityKpis(
    unitId && scope.kind === 'unit'
      ? {
          unitId,
          quantities: [quantity],
          ...dates,
          graphType,
          normalized,
          ...(climateOn ? { climateCorrection: {} } : {}),
          ...(estimateOn ? { hcaKwhEstimate: true } : {}),
        }
      : null,
  );
  const meterRow = scope.kind === 'meter' ? scopedRows[0] : undefined;
  const meterNumber = meterRow?.object.group?.meter?.number ?? null;
  const readout = useReadoutMinMax(
    scope.kind === 'meter' && meterNumber && tenancy
      ? {
          tenancyId: Number(tenancy.id),
          meterNumber,
          quantity,
          fromDate: dates.periodBegin,
          toDate: dates.periodEnd,
        }
      : null,
  );

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
  const failure = units.error ?? graph.error ?? kpis.error ?? table.error;
  const kpi = kpis.data?.[0];
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
  } else if (scope.kind !== 'unit' && table.data) {
    const value = scopedRows.length
      ? sumOrAvg(
          quantity,
          scopedRows.map((r) => r.values[0] ?? null),
        )
      : null;
    const reference = scopedRows.length
      ? sumOrAvg(
          quantity,
          scopedRows.map((r) => r.comparisonValues[0] ?? null),
        )
      : null;
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

  // Fun facts compare whole grams, so they need the absolute total, not the per-m² one.
  const co2Total = graphType === 'CO2' && !normalized ? (kpi?.total ?? null) : null;
  const base = tenancy ? `/t/${encodeURIComponent(tenancy.id)}/consumption/${quantity}` : '';

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
      <fieldset className="view-options">
        <legend className="visually-hidden">{t('options.label')}</legend>
        <div className="segmented" role="radiogroup" aria-label={t('options.show')}>
          {(['HOURLY_VALUES', 'CO2'] as const).map((type) => (
            <label key={type} className={graphType === type ? 'segment active' : 'segment'}>
              <input
                className="segment-input"
                type="radio"
                name="graph-type"
                value={type}
                checked={graphType === type}
                onChange={() => setGraphType(type)}
              />
              {type === 'CO2' ? t('options.co2') : t('options.consumption')}
            </label>
          ))}
        </div>
        {info?.normalizable && (
          <label className="check">
            <input
              type="checkbox"
              checked={normalizedPick}
              onChange={(e) => setNormalized(e.target.checked)}
            />
            {t('options.per_m2')}
          </label>
        )}
        <label className="check">
          <input
            className="check-input"
            type="checkbox"
            checked={lastYear}
            onChange={(e) => setLastYear(e.target.checked)}
          />
          {t('options.last_year')}
        </label>
        {quantity === 'hca' && graphType === 'HOURLY_VALUES' && scope.kind === 'unit' && (
          <label className="check">
            <input
              className="check-input"
              type="checkbox"
              checked={kwhEstimate}
              onChange={(e) => setKwhEstimate(e.target.checked)}
            />
            {t('options.kwh_estimate')}
          </label>
        )}
        {canClimate && (
          <label className="check">
            <input
              className="check-input"
              type="checkbox"
              checked={climate}
              onChange={(e) => setClimate(e.target.checked)}
            />
            {t('options.climate')}
          </label>
        )}
      </fieldset>

      {failure && (
        <div className="state-box" role="alert">
          <p>{t('failed')}</p>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              void graph.refetch();
              void kpis.refetch();
              void table.refetch();
            }}
          >
            {t('retry')}
          </button>
        </div>
      )}

      <section className="card" aria-labelledby="kpi-title">
        <h2 id="kpi-title" className="card-heading">
          {t('kpi.title')}
        </h2>
        <KpiGrid
          tiles={tiles}
          loading={tiles.length === 0 && !failure && (kpis.isPending || table.isPending)}
        />
        {tiles.length === 0 && !kpis.isPending && !table.isPending && <NoData inline />}
        {climateOn && correction && <ClimateNote correction={correction} />}
        {estimateOn && kpi?.kwhEstimateMethod && (
          <p className="note" data-testid="kwh-method">
            {t('kpi.kwh_method', {
              // Codes, one per way a month's kWh per unit was found (docs/domain.md), each translated.
              method: [
                ...kpi.kwhEstimateMethod
                  .split(',')
                  .filter(isKwhMethod)
                  .map((code) => t(`kpi.kwh_methods.${code}`)),
                ...(kpi.kwhPerUnit == null
                  ? []
                  : [
                      t('kpi.kwh_factor', {
                        factor: formatNumber(kpi.kwhPerUnit, lang, { maximumFractionDigits: 3 }),
                      }),
                    ]),
              ].join(' '),
            })}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="graph-title">
        <h2 id="graph-title" className="card-heading">
          {graphType === 'CO2' ? t('graph.co2_title', { quantity: quantityName }) : quantityName}
        </h2>
        {graphInput && graph.isPending ? (
          <div className="chart-skeleton">
            <Spinner label={t('chart.loading')} />
          </div>
        ) : (
          <GraphPanel
            showTitle={false}
            model={model}
            lang={lang}
            title={`${graphType === 'CO2' ? t('graph.co2_title', { quantity: quantityName }) : quantityName}, ${state.periodText}`}
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

/** The KPI's per-room values (SPEC §3 KPI rooms), each linking to its room page. */
function RoomList({
  rooms,
  lang,
  format,
  base,
  fileParts,
}: {
  rooms: { label: string; value: number | null }[];
  lang: Language;
  format: ReturnType<typeof valueFormat>;
  base: string;
  fileParts: string[];
}) {
  const { t } = useTranslation('consumption');
  const unit = format.unit ? ` (${format.unit})` : '';
  const model: TableModel = {
    columns: [t('table.room'), `${t('table.value')}${unit}`],
    rows: rooms.map((r) => [
      { text: r.label, csv: r.label },
      { text: format.format(r.value), csv: csvNumber(r.value, lang, format.decimals) },
    ]),
  };
  return (
    <>
      <TableScroll label={t('table.rooms_title')}>
        <table className="data-table" data-testid="room-table">
          <thead>
            <tr>
              <th scope="col">{model.columns[0]}</th>
              <th scope="col" className="num">
                {model.columns[1]}
              </th>
            </tr>
          </thead>
          <tbody>
            {rooms.map((r, i) => (
              <tr key={r.label}>
                <th scope="row">
                  <a href={`${base}/room/${roomSlug(r.label)}`}>{r.label}</a>
                </th>
                <td className="num">{model.rows[i]![1]!.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <CsvButton model={model} lang={lang} fileParts={fileParts} label={t('table.rooms_title')} />
    </>
  );
}

function sumOrAvg(quantity: string, values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length === 0) return null;
  const sum = present.reduce((a, b) => a + b, 0);
  return isQuantityId(quantity) && QUANTITIES[quantity].aggregation === 'avg' ? sum / present.length : sum;
}

/** The codes of kwhEstimateMethod (docs/domain.md); one this client does not know is left out. */
const KWH_METHODS = ['supply-meter', 'metered-flats', 'operator-factor', 'none'] as const;
const isKwhMethod = (code: string): code is (typeof KWH_METHODS)[number] =>
  (KWH_METHODS as readonly string[]).includes(code);

/** The server's reason code (docs/domain.md) in the user's language; an unknown code generically. */
function notAppliedKey(
  reason: string | null,
): 'climate.no_outdoor_data' | 'climate.not_heating' | 'climate.not_applied' {
  if (reason === 'degree_days_missing') return 'climate.no_outdoor_data';
  if (reason === 'not_heating_quantity') return 'climate.not_heating';
  return 'climate.not_applied';
}

function ClimateNote({ correction }: { correction: GraphConsumption['climateCorrection'] }) {
  const { t, i18n } = useTranslation('consumption');
  if (!correction) return null;
  const lang = (i18n.language as Language) ?? 'en';
  if (correction.applied === 'NONE')
    return (
      <p className="note" data-testid="climate-note">
        {t(notAppliedKey(correction.reason))}
      </p>
    );
  return (
    <p className="note" data-testid="climate-note">
      {t('climate.applied', {
        base: formatNumber(correction.baseTemperature, lang),
        share: formatNumber((1 - correction.hotWaterShare) * 100, lang, { maximumFractionDigits: 0 }),
        degreeDays: formatNumber(correction.degreeDays ?? Number.NaN, lang, { maximumFractionDigits: 0 }),
        lastYear: formatNumber(correction.lastYearDegreeDays ?? Number.NaN, lang, {
          maximumFractionDigits: 0,
        }),
        normal: formatNumber(correction.normalDegreeDays ?? Number.NaN, lang, { maximumFractionDigits: 0 }),
      })}
    </p>
  );
}

function ReadoutList({
  readout,
  lang,
  quantity,
}: {
  readout: NonNullable<ReturnType<typeof useReadoutMinMax>['data']>;
  lang: Language;
  quantity: string;
}) {
  const { t } = useTranslation('consumption');
  const format = valueFormat(quantity, 'HOURLY_VALUES', lang);
  const model: TableModel = {
    columns: [t('readout.which'), t('readout.time'), t('readout.value')],
    rows: [
      [
        { text: t('readout.first'), csv: t('readout.first') },
        {
          text: localTimestamp(readout.firstReadoutTimestamp),
          csv: localTimestamp(readout.firstReadoutTimestamp),
        },
        {
          text: format.format(readout.firstReadoutValue),
          csv: csvNumber(readout.firstReadoutValue, lang, 3),
        },
      ],
      [
        { text: t('readout.last'), csv: t('readout.last') },
        {
          text: localTimestamp(readout.lastReadoutTimestamp),
          csv: localTimestamp(readout.lastReadoutTimestamp),
        },
        { text: format.format(readout.lastReadoutValue), csv: csvNumber(readout.lastReadoutValue, lang, 3) },
      ],
    ],
  };
  return (
    <>
      <p data-testid="meter-number">
        {t('readout.meter_number')}: <strong>{readout.meterNumber}</strong>
      </p>
      <KpiGrid
        count={2}
        tiles={model.rows.map((row) => ({
          key: row[0]!.csv,
          label: row[0]!.text,
          value: row[2]!.text,
          extra: <span className="muted small readout-time">{row[1]!.text}</span>,
        }))}
      />
      <CsvButton
        model={model}
        lang={lang}
        fileParts={['readout', readout.meterNumber]}
        label={t('readout.title')}
      />
    </>
  );
}

function MeterTable({
  rows,
  lang,
  format,
  comparisonName,
  base,
  fileParts,
}: {
  rows: NonNullable<ReturnType<typeof useTenantTable>['data']>['rows'];
  lang: Language;
  format: ReturnType<typeof valueFormat>;
  comparisonName: string;
  base: string;
  fileParts: string[];
}) {
  const { t } = useTranslation('consumption');
  const unit = format.unit ? ` (${format.unit})` : '';
  const model: TableModel = {
    columns: [t('table.meter'), t('table.room'), `${t('table.value')}${unit}`, `${comparisonName}${unit}`],
    rows: rows.map((r) => {
      const name = r.object.measurementPoint?.name ?? r.label ?? r.object.id;
      const room = r.object.measurementPoint?.room ?? '';
      const v = r.values[0] ?? null;
      const c = r.comparisonValues[0] ?? null;
      return [
        { text: name, csv: name },
        { text: room, csv: room },
        { text: format.format(v), csv: csvNumber(v, lang, format.decimals) },
        { text: format.format(c), csv: csvNumber(c, lang, format.decimals) },
      ];
    }),
  };
  if (rows.length === 0) return <NoData inline />;
  return (
    <>
      <TableScroll label={t('table.meters_title')}>
        <table className="data-table" data-testid="meter-table">
          <thead>
            <tr>
              {model.columns.map((c, i) => (
                <th key={c} scope="col" className={i > 1 ? 'num' : undefined}>
                  {c}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{t('table.smiley')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const room = r.object.measurementPoint?.room;
              const cells = model.rows[i]!;
              return (
                <tr key={r.object.id}>
                  <th scope="row">
                    <a href={`${base}/meter/${encodeURIComponent(r.object.id)}`}>{cells[0]!.text}</a>
                  </th>
                  <td>{room ? <a href={`${base}/room/${roomSlug(room)}`}>{room}</a> : ''}</td>
                  <td className="num">{cells[2]!.text}</td>
                  <td className="num">{cells[3]!.text}</td>
                  <td>
                    <ComparisonSmiley value={r.values[0] ?? null} reference={r.comparisonValues[0] ?? null} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <CsvButton model={model} lang={lang} fileParts={fileParts} label={t('table.meters_title')} />
    </>
  );
}
