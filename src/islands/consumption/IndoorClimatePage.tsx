/** consumption/indoor-climate: temperature and humidity per room with the satisfaction faces of SPEC §9. */
import { memo, useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTenantGraph } from '../../client/operations/tenantGraph.ts';
import { useTenantTable } from '../../client/operations/tenantTable.ts';
import { csvNumber } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { toServerDates, toServerMinuteRange } from '../../lib/periods.ts';
import { humidityFace, temperatureFace } from '../../lib/ratings.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { CsvButton, type TableModel } from './DataTable.tsx';
import { GraphPanel } from './GraphPanel.tsx';
import { objectsGraphModel } from './graphModel.ts';
import { FaceIcon } from './Kpis.tsx';
import { NoData } from './NoData.tsx';
import { PeriodBar } from './PeriodBar.tsx';
import { usePeriod } from './usePeriod.ts';
import { useTenancyData } from './useTenancyData.ts';
import { useWarmFormatters } from './useWarmFormatters.ts';
import { valueFormat } from './valueFormat.ts';

const TEMPERATURE = 'indoor-temperature';
const HUMIDITY = 'indoor-relative-humidity';

/** The island. */
export default function IndoorClimatePage({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <ClimateView />
    </Providers>
  );
}

/** A series is named by its room, else by its point. */
function nameOf(g: {
  object: { measurementPoint: { room: string | null; name: string } | null; id: string };
}) {
  return g.object.measurementPoint?.room ?? g.object.measurementPoint?.name ?? g.object.id;
}

function ClimateView() {
  // The page's texts, loaded before anything draws (the body reads them).
  useTranslation(['consumption', 'domain']);
  const { lang, ready, tenancy, unit, hasHourlyData } = useTenancyData();
  const state = usePeriod('default', hasHourlyData);
  const { period, serverResolution: resolution } = state;
  const unitId = unit?.unit.id ?? null;
  const table = useTenantTable(
    unitId
      ? {
          unitId,
          quantities: [TEMPERATURE, HUMIDITY],
          ...toServerDates(period),
          rows: 'METER',
          compareWith: 'LAST_PERIOD',
        }
      : null,
  );
  const rooms = useTenantTable(
    unitId
      ? {
          unitId,
          quantities: [TEMPERATURE, HUMIDITY],
          ...toServerDates(period),
          rows: 'ROOM',
          compareWith: 'LAST_PERIOD',
        }
      : null,
  );
  const points = table.data?.rows ?? [];
  const graph = useTenantGraph(
    points.length > 0
      ? {
          graphType: 'HOURLY_VALUES',
          resolution,
          ...toServerMinuteRange(period),
          objects: points.map((r) => ({ kind: 'MPOINT' as const, id: r.object.id })),
          quantities: [TEMPERATURE, HUMIDITY],
        }
      : null,
  );
  // One format per language (a new one each render would rebuild both graph models on each answer's update).
  const tempFormat = useMemo(() => valueFormat(TEMPERATURE, 'HOURLY_VALUES', lang), [lang]);
  const humFormat = useMemo(() => valueFormat(HUMIDITY, 'HOURLY_VALUES', lang), [lang]);
  const tempModel = useMemo(
    () => objectsGraphModel(graph.data, TEMPERATURE, resolution, tempFormat, nameOf),
    [graph.data, resolution, tempFormat],
  );
  const humModel = useMemo(
    () => objectsGraphModel(graph.data, HUMIDITY, resolution, humFormat, nameOf),
    [graph.data, resolution, humFormat],
  );
  // The answers draw the cards from a deferred value, rendered in slices that yield to the browser (see
  // QuantityPage); one object, so they never mix periods.
  const body = useDeferredValue<ClimateBodyProps>({
    lang,
    rooms,
    graphPending: graph.isPending && points.length > 0,
    tempModel,
    humModel,
    tempFormat,
    humFormat,
    periodText: state.periodText,
    period,
  });
  useWarmFormatters(lang);
  if (!ready) return null;

  return (
    <div className="consumption-page">
      <PeriodBar state={state} minDate={tenancy?.dataAvailability.start} />
      <ClimateBody {...body} />
    </div>
  );
}

type ClimateBodyProps = {
  lang: Language;
  rooms: ReturnType<typeof useTenantTable>;
  graphPending: boolean;
  tempModel: ReturnType<typeof objectsGraphModel>;
  humModel: ReturnType<typeof objectsGraphModel>;
  tempFormat: ReturnType<typeof valueFormat>;
  humFormat: ReturnType<typeof valueFormat>;
  periodText: string;
  period: ReturnType<typeof usePeriod>['period'];
};

/** The rooms and the two graphs: what the answers draw (rendered from the deferred value above). */
const ClimateBody = memo(function ClimateBody(props: ClimateBodyProps) {
  const { t } = useTranslation(['consumption', 'domain']);
  const { lang, rooms, graphPending, tempModel, humModel, tempFormat, humFormat, periodText, period } = props;

  const descriptors = rooms.data?.quantityDescriptors.map((d) => d.quantity) ?? [];
  const ti = descriptors.indexOf(TEMPERATURE);
  const hi = descriptors.indexOf(HUMIDITY);
  const roomRows = (rooms.data?.rows ?? []).filter(
    (r) => r.label !== null || r.values.some((v) => v !== null),
  );
  const model: TableModel = {
    columns: [
      t('climate_page.room'),
      `${t('climate_page.temperature')} (°C)`,
      `${t('climate_page.humidity')} (%)`,
    ],
    rows: roomRows.map((r) => {
      const label = r.label ?? t('climate_page.average');
      const temp = ti >= 0 ? (r.values[ti] ?? null) : null;
      const hum = hi >= 0 ? (r.values[hi] ?? null) : null;
      return [
        { text: label, csv: label },
        { text: tempFormat.format(temp), csv: csvNumber(temp, lang, 0) },
        { text: humFormat.format(hum), csv: csvNumber(hum, lang, 0) },
      ];
    }),
  };

  return (
    <>
      <section className="card" aria-labelledby="rooms-title">
        <h2 id="rooms-title" className="card-heading">
          {t('climate_page.per_room')}
        </h2>
        {rooms.isPending ? (
          <Spinner label={t('loading')} />
        ) : roomRows.length === 0 ? (
          <NoData inline />
        ) : (
          <>
            <ul className="room-climate" data-testid="room-climate">
              {roomRows.map((r, i) => {
                const temp = ti >= 0 ? (r.values[ti] ?? null) : null;
                const hum = hi >= 0 ? (r.values[hi] ?? null) : null;
                const tf = temp === null ? null : temperatureFace(temp);
                const hf = hum === null ? null : humidityFace(hum);
                return (
                  <li key={r.label ?? `row-${i}`} className="room-climate-row">
                    <h3>{model.rows[i]![0]!.text}</h3>
                    <p>
                      <span className="muted">{t('climate_page.temperature')}: </span>
                      <strong>{tempFormat.format(temp)}</strong>{' '}
                      {tf && <FaceIcon face={tf} label={t(`domain:faces.${tf}`)} />}
                    </p>
                    <p>
                      <span className="muted">{t('climate_page.humidity')}: </span>
                      <strong>{humFormat.format(hum)}</strong>{' '}
                      {hf && <FaceIcon face={hf} label={t(`domain:faces.${hf}`)} />}
                    </p>
                  </li>
                );
              })}
            </ul>
            <CsvButton
              model={model}
              lang={lang}
              fileParts={['indoor-climate', period.startDate, period.endDate]}
              label={t('climate_page.per_room')}
            />
          </>
        )}
      </section>
      {[
        { key: 'temp', title: t('climate_page.temperature'), model: tempModel, q: TEMPERATURE },
        { key: 'hum', title: t('climate_page.humidity'), model: humModel, q: HUMIDITY },
      ].map((g) => (
        <section key={g.key} className="card" aria-labelledby={`${g.key}-title`}>
          <h2 id={`${g.key}-title`} className="card-heading">
            {g.title}
          </h2>
          {graphPending ? (
            <div className="chart-skeleton">
              <Spinner label={t('chart.loading')} />
            </div>
          ) : (
            <GraphPanel
              showTitle={false}
              model={g.model}
              lang={lang}
              title={`${g.title}, ${periodText}`}
              fileParts={[g.q, period.startDate, period.endDate]}
            />
          )}
        </section>
      ))}
    </>
  );
});
