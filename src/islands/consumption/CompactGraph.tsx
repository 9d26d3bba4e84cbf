/**
 * A dashboard card's small graph, drawn as plain SVG by React: no axes, no legend; bars for summed quantities
 * (one per bucket, open buckets lighter), a line for averaged ones; missing values are gaps, never zero.
 * ApexCharts drew it before: its first drawing alone was the longest task of the dashboard's load on a phone
 * (docs/notes/lighthouse.md), and a card used none of its axes, legend or keyboard navigation.
 * Pointing at (or touching) a bucket shows its time and value; so does the keyboard (Tab to the graph, then the
 * arrow keys, Home and End). The top of the scale is written with its unit, and a bucket that counts estimated
 * hours is grey, as on the quantity pages. The numbers are also in the table below.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketLabel } from '../../lib/buckets.ts';
import type { Language } from '../../lib/languages.ts';
import type { GraphModel } from './ConsumptionChart.tsx';
import { COLORS, ESTIMATED_FILL } from './graphModel.ts';

/** Each bucket's slot is this wide in the drawing's own units; a bar takes 62% of it. */
const SLOT = 10;
const BAR = 6.2;

type Rect = { x: number; y: number; width: number; height: number };

const finiteOf = (values: (number | null)[]) =>
  values.filter((v): v is number => v !== null && Number.isFinite(v));

/** Bar geometry in the drawing's units: from the zero line up (or down, for a negative value). */
export function barRects(values: (number | null)[], height: number): (Rect | null)[] {
  const finite = finiteOf(values);
  const top = Math.max(0, ...finite);
  const bottom = Math.min(0, ...finite);
  const span = top - bottom || 1;
  const zero = (top / span) * height;
  return values.map((v, i) => {
    if (v === null || !Number.isFinite(v)) return null;
    const size = (Math.abs(v) / span) * height;
    return { x: i * SLOT + (SLOT - BAR) / 2, y: v >= 0 ? zero - size : zero, width: BAR, height: size };
  });
}

/**
 * A line through the buckets' centres, scaled from the lowest to the highest value (an average has no zero
 * to stand on), with 2 units of room at top and bottom for the stroke. A missing value breaks the line; a
 * value alone between gaps is a dot (a zero-length segment with round caps).
 */
export function linePath(values: (number | null)[], height: number): string {
  const finite = finiteOf(values);
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const span = high - low;
  const y = (v: number) => (span === 0 ? height / 2 : 2 + ((high - v) / span) * (height - 4));
  let path = '';
  let drawing = false;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      drawing = false;
      return;
    }
    const point = `${i * SLOT + SLOT / 2} ${y(v)}`;
    path += drawing ? ` L ${point}` : `${path ? ' ' : ''}M ${point} L ${point}`;
    drawing = true;
  });
  return path;
}

/** The graph: the model's main (first) series. */
export function CompactGraph({
  model,
  lang,
  title,
  height,
}: {
  model: GraphModel;
  lang: Language;
  title: string;
  height: number;
}) {
  const { t } = useTranslation('consumption');
  const [pointed, setPointed] = useState<number | null>(null);
  const series = model.series[0];
  if (!series) return null;
  const last = series.values.length - 1;
  const onKey = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const at = pointed ?? last;
    const next =
      event.key === 'ArrowLeft'
        ? Math.max(0, at - 1)
        : event.key === 'ArrowRight'
          ? Math.min(last, at + 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setPointed(next);
  };
  const finite = finiteOf(series.values);
  // The scale's ends with the unit: a bar stands on zero, a line spans its lowest to its highest value.
  const top = series.kind === 'bar' ? Math.max(0, ...finite) : Math.max(...finite);
  const bottom = series.kind === 'bar' ? null : Math.min(...finite);
  const count = Math.max(1, series.values.length);
  const width = count * SLOT;
  const indexAt = (event: React.PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const i = Math.floor(((event.clientX - box.left) / box.width) * count);
    return i >= 0 && i < series.values.length ? i : null;
  };
  const tip = pointed === null ? null : tooltipText(model, series.values[pointed] ?? null, pointed, lang, t);
  return (
    // A slider over the buckets for the keyboard: the arrow keys, Home and End pick one, read out as its text.
    <div
      className="compact-graph"
      style={{ height }}
      tabIndex={0}
      role="slider"
      aria-label={title}
      aria-valuemin={0}
      aria-valuemax={last}
      aria-valuenow={pointed ?? last}
      aria-valuetext={
        tooltipText(model, series.values[pointed ?? last] ?? null, pointed ?? last, lang, t) ?? ''
      }
      onKeyDown={onKey}
      onFocus={() => setPointed((p) => p ?? last)}
      onBlur={() => setPointed(null)}
    >
      <svg
        className="compact-graph-svg"
        role="img"
        aria-label={title}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        width="100%"
        height={height}
        onPointerMove={(e) => setPointed(indexAt(e))}
        onPointerDown={(e) => setPointed(indexAt(e))}
        onPointerLeave={() => setPointed(null)}
      >
        {series.kind === 'bar' ? (
          barRects(series.values, height).map((r, i) =>
            r ? (
              <rect
                // biome-ignore lint/suspicious/noArrayIndexKey: one bar per bucket, in bucket order
                key={i}
                className="compact-bar"
                x={r.x}
                y={r.y}
                width={r.width}
                height={r.height}
                fill={
                  model.estimated?.[i] ? ESTIMATED_FILL : model.partial[i] ? COLORS.partial : series.color
                }
                opacity={pointed === null || pointed === i ? 1 : 0.55}
              />
            ) : null,
          )
        ) : (
          <>
            <path
              className="compact-line"
              d={linePath(series.values, height)}
              fill="none"
              stroke={series.color}
              strokeWidth={2}
              strokeLinecap="round"
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
            {pointed !== null && (
              <line
                x1={pointed * SLOT + SLOT / 2}
                x2={pointed * SLOT + SLOT / 2}
                y1={0}
                y2={height}
                stroke="#a8a29e"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
              />
            )}
          </>
        )}
      </svg>
      {finite.length > 0 && (
        <span className="compact-graph-scale compact-graph-top" aria-hidden="true">
          {model.format.format(top)}
        </span>
      )}
      {bottom !== null && finite.length > 0 && (
        <span className="compact-graph-scale compact-graph-bottom" aria-hidden="true">
          {model.format.format(bottom)}
        </span>
      )}
      {tip && (
        <p className="compact-graph-tip" aria-hidden="true">
          {tip}
        </p>
      )}
    </div>
  );
}

function tooltipText(
  model: GraphModel,
  value: number | null,
  i: number,
  lang: Language,
  t: (key: 'chart.week' | 'chart.partial' | 'chart.estimated') => string,
): string | null {
  const ts = model.timestamps[i];
  if (!ts) return null;
  const when = bucketLabel(ts, model.resolution, lang, { long: true, weekWord: t('chart.week') });
  const notes = [
    model.partial[i] ? t('chart.partial') : null,
    model.estimated?.[i] ? t('chart.estimated') : null,
  ];
  const shown = notes.filter(Boolean).join(', ');
  const label = shown ? `${when} (${shown})` : when;
  return `${label}: ${model.format.format(value)}`;
}
