/**
 * The first paint of a full chart, drawn as plain SVG by React while ApexCharts is not loaded (GraphPanel.tsx
 * loads it when the chart is pointed at, touched or focused, or when the browser is first idle on a device that
 * can hover). Same box, same colours as ConsumptionChart: a y-axis with its unit and values, time labels, every
 * series (bars side by side, lines with gaps for missing values, dashed where ApexCharts dashes them), buckets
 * with estimated hours grey, open buckets lighter, an alarm's own bar colours, and the legend's names.
 * ApexCharts then replaces it in place and adds the tooltips, keyboard stepping and legend toggles.
 */
import { useTranslation } from 'react-i18next';
import type { Language } from '../../lib/languages.ts';
import { axisLabels, type ChartSeries, type GraphModel } from './ConsumptionChart.tsx';
import { COLORS, ESTIMATED_FILL } from './graphModel.ts';

/** Each bucket's slot is this wide in the plot's own units; its bars take 62% of it (ApexCharts' columnWidth). */
const SLOT = 10;
const AXIS = '#57534e';
const GRID = '#e7e5e4';

/** About `count` round ticks (1, 2, 2.5 or 5 × 10ⁿ apart) covering low..high. */
export function niceTicks(low: number, high: number, count = 4): number[] {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
  if (high === low) {
    high = low + (Math.abs(low) || 1);
    if (low > 0) low = 0;
  }
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(low / step) * step;
  const ticks: number[] = [];
  for (let v = first; v < high + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A bar's fill, as ConsumptionChart gives it to ApexCharts. */
function barFill(model: GraphModel, s: ChartSeries, i: number): string {
  if (s.pointColors?.[i]) return s.pointColors[i];
  if (s.key === 'main' && model.estimated?.[i]) return ESTIMATED_FILL;
  if (model.partial[i]) return COLORS.partial;
  return s.color;
}

/** A line through the buckets' centres; a missing value breaks it, a value alone between gaps is a dot. */
function linePath(values: (number | null)[], y: (v: number) => number): string {
  let path = '';
  let drawing = false;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      drawing = false;
      return;
    }
    const point = `${i * SLOT + SLOT / 2} ${y(v).toFixed(2)}`;
    path += drawing ? ` L ${point}` : `${path ? ' ' : ''}M ${point} L ${point}`;
    drawing = true;
  });
  return path;
}

type Props = {
  model: GraphModel;
  lang: Language;
  title: string;
  /** ApexCharts' height; the box is 15 px taller, as ApexCharts' own. */
  height: number;
  /** Reachable by Tab (where ApexCharts loads only on use): focusing it loads the full chart. */
  focusable?: boolean;
};

export function ChartSketch({ model, lang, title, height, focusable = false }: Props) {
  const { t } = useTranslation('consumption');
  const legend = model.series.length > 1;
  const all = model.series
    .flatMap((s) => s.values)
    .filter((v): v is number => v !== null && Number.isFinite(v));
  const hasBar = model.series.some((s) => s.kind === 'bar');
  const low = Math.min(...all, ...(hasBar ? [0] : []));
  const high = Math.max(...all, ...(hasBar ? [0] : []));
  const ticks = niceTicks(low, high);
  const bottom = ticks[0] ?? 0;
  const top = ticks[ticks.length - 1] ?? 1;
  // The plot's height in px (the SVG stretches its own units to it): the box less time labels and legend.
  const plot = Math.max(40, height + 15 - 16 - 6 - 28 - (legend ? 26 : 0) - 4);
  const y = (v: number) => ((top - v) / (top - bottom || 1)) * plot;
  const count = Math.max(1, model.timestamps.length);
  const width = count * SLOT;
  const bars = model.series.filter((s) => s.kind === 'bar');
  const barWidth = (SLOT * 0.62) / Math.max(1, bars.length);
  const number = new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'da-DK', { maximumFractionDigits: 2 });
  const labels = axisLabels(model, lang, t('chart.week_short'));
  // Four time labels, counted from the last, as ConsumptionChart thins them on a phone-wide box.
  const step = Math.max(1, Math.ceil(labels.length / 4));
  return (
    // One image named by the chart's title (the numbers are in the table alternative below the chart).
    <div
      className="chart-sketch"
      data-testid="chart-sketch"
      style={{
        height: height + 15,
        display: 'flex',
        flexDirection: 'column',
        fontSize: 12,
        color: AXIS,
        overflow: 'hidden',
      }}
      role="img"
      aria-label={title}
      tabIndex={focusable ? 0 : undefined}
    >
      <div aria-hidden="true" style={{ height: 16, lineHeight: '16px', fontWeight: 500 }}>
        {model.format.unit}
      </div>
      <div style={{ display: 'flex', flex: '0 0 auto', paddingTop: 6 }}>
        <div
          aria-hidden="true"
          style={{ position: 'relative', width: 52, height: plot, flex: '0 0 auto', textAlign: 'right' }}
        >
          {ticks.map((v) => (
            <span
              key={v}
              style={{
                position: 'absolute',
                right: 6,
                top: y(v),
                transform: 'translateY(-50%)',
                lineHeight: 1,
              }}
            >
              {number.format(v)}
            </span>
          ))}
        </div>
        <svg
          className="chart-sketch-svg"
          aria-hidden="true"
          viewBox={`0 0 ${width} ${plot}`}
          preserveAspectRatio="none"
          width="100%"
          height={plot}
          style={{ flex: '1 1 auto', minWidth: 0, overflow: 'visible' }}
        >
          {ticks.map((v) => (
            <line
              key={v}
              x1={0}
              x2={width}
              y1={y(v)}
              y2={y(v)}
              stroke={GRID}
              strokeDasharray="3"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {bars.map((s, b) =>
            s.values.map((v, i) => {
              if (v === null || !Number.isFinite(v)) return null;
              const from = y(0);
              const to = y(v);
              return (
                <rect
                  // biome-ignore lint/suspicious/noArrayIndexKey: one bar per bucket, in bucket order
                  key={`${s.key}-${i}`}
                  className="chart-sketch-bar"
                  x={i * SLOT + SLOT * 0.19 + b * barWidth}
                  y={Math.min(from, to)}
                  width={barWidth}
                  height={Math.abs(to - from)}
                  fill={barFill(model, s, i)}
                />
              );
            }),
          )}
          {model.series
            .filter((s) => s.kind === 'line')
            .map((s) => (
              <path
                key={s.key}
                className="chart-sketch-line"
                d={linePath(s.values, y)}
                fill="none"
                stroke={s.color}
                strokeWidth={2}
                strokeDasharray={s.dashed ? '5' : undefined}
                strokeLinecap="round"
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
              />
            ))}
        </svg>
      </div>
      <div aria-hidden="true" style={{ position: 'relative', height: 22, marginLeft: 52, marginTop: 6 }}>
        {labels.map((label, i) =>
          (labels.length - 1 - i) % step === 0 ? (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: one label per bucket, in bucket order
              key={i}
              style={{
                position: 'absolute',
                // The last bucket's label ends at the plot's edge rather than past it.
                left: i === count - 1 ? '100%' : `${((i + 0.5) / count) * 100}%`,
                transform: i === count - 1 ? 'translateX(-100%)' : 'translateX(-50%)',
                whiteSpace: 'nowrap',
              }}
            >
              {label}
            </span>
          ) : null,
        )}
      </div>
      {legend && (
        <ul
          aria-hidden="true"
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'center',
            gap: '0 14px',
            listStyle: 'none',
            margin: 0,
            padding: 0,
            fontSize: 13,
          }}
        >
          {model.series.map((s) => (
            <li key={s.key}>
              <span
                style={{
                  display: 'inline-block',
                  width: 12,
                  height: 12,
                  borderRadius: 2,
                  background: s.color,
                  marginRight: 4,
                  verticalAlign: '-1px',
                }}
              />
              {s.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
