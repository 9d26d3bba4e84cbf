/**
 * The dashboard's indoor-climate card body (SPEC §9 faces): the apartment's latest hourly temperature and humidity
 * (the average of its rooms, as the server averages the unit) with their satisfaction faces and the hour they are
 * from. Looks back over yesterday and today, so a sensor that missed the last hour still shows its latest value.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTenantGraph } from '../../client/operations/tenantGraph.ts';
import { bucketLabel } from '../../lib/buckets.ts';
import type { Language } from '../../lib/languages.ts';
import { todayInCopenhagen } from '../../lib/periods.ts';
import { humidityFace, temperatureFace } from '../../lib/ratings.ts';
import { FaceIcon } from './Kpis.tsx';
import { valueFormat } from './valueFormat.ts';

const TEMPERATURE = 'indoor-temperature';
const HUMIDITY = 'indoor-relative-humidity';

type Latest = { value: number; timestamp: string } | null;

/** The last bucket with a value of a quantity in a graph, or null. */
function latestValue(
  graph:
    | {
        timestamps: string[];
        graphs: { consumption: { quantityDescriptor: { quantity: string }; values: (number | null)[] }[] }[];
      }
    | undefined,
  quantity: string,
): Latest {
  if (!graph) return null;
  for (const g of graph.graphs) {
    const series = g.consumption.find((c) => c.quantityDescriptor.quantity === quantity);
    if (!series) continue;
    for (let i = series.values.length - 1; i >= 0; i--) {
      const value = series.values[i];
      if (value !== null && value !== undefined && Number.isFinite(value))
        return { value, timestamp: graph.timestamps[i] ?? '' };
    }
  }
  return null;
}

/** The card's current values; nothing but a short note while loading or without a recent reading. */
export function ClimateNow({ unitId, lang }: { unitId: string; lang: Language }) {
  const { t } = useTranslation(['consumption', 'domain']);
  const input = useMemo(() => {
    const today = todayInCopenhagen();
    return {
      graphType: 'HOURLY_VALUES' as const,
      resolution: 'HOUR' as const,
      periodBegin: `${today.subtract({ days: 1 }).toString()}T00:00`,
      periodEnd: `${today.add({ days: 1 }).toString()}T00:00`,
      objects: [{ kind: 'UNIT' as const, id: unitId }],
      quantities: [TEMPERATURE, HUMIDITY],
    };
  }, [unitId]);
  const graph = useTenantGraph(input);
  if (graph.isPending) return <div className="placeholder-line" aria-hidden="true" />;
  const temperature = latestValue(graph.data, TEMPERATURE);
  const humidity = latestValue(graph.data, HUMIDITY);
  if (!temperature && !humidity) return <p className="muted small">{t('dashboard.climate_none')}</p>;
  const rows = [
    {
      key: TEMPERATURE,
      label: t('climate_page.temperature'),
      latest: temperature,
      face: temperature ? temperatureFace(temperature.value) : null,
    },
    {
      key: HUMIDITY,
      label: t('climate_page.humidity'),
      latest: humidity,
      face: humidity ? humidityFace(humidity.value) : null,
    },
  ];
  const newest = [temperature, humidity]
    .filter((x): x is NonNullable<Latest> => x !== null)
    .map((x) => x.timestamp)
    .sort()
    .at(-1);
  return (
    <>
      <dl className="climate-now" data-testid="climate-now">
        {rows.map((r) => (
          <div key={r.key} className="climate-now-item">
            <dt>{r.label}</dt>
            <dd>
              <strong>{valueFormat(r.key, 'HOURLY_VALUES', lang).format(r.latest?.value ?? null)}</strong>
              {r.face && <FaceIcon face={r.face} label={t(`domain:faces.${r.face}`)} />}
            </dd>
          </div>
        ))}
      </dl>
      {newest && (
        <p className="muted small">
          {t('dashboard.climate_at', { time: bucketLabel(newest, 'HOUR', lang, { withDay: true }) })}
        </p>
      )}
    </>
  );
}
