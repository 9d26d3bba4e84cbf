/**
 * A dashboard card's small bar graph, drawn as plain SVG by React: no axes, no legend, one bar per bucket, gaps
 * for missing values, open buckets lighter. ApexCharts drew it before; its first drawing alone was the longest
 * task of the dashboard's load on a phone (docs/notes/lighthouse.md), and a card needs none of its features.
 * Pointing at a bar shows its time and value; the numbers are also in the table alternative below the graph.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketLabel } from '../../lib/buckets.ts';
import type { Language } from '../../lib/languages.ts';
import type { GraphModel } from './ConsumptionChart.tsx';

/** A lighter shade of the bar colour marks a bucket that is not over yet (as ConsumptionChart does). */
export const PARTIAL_FILL = '#fdba8c';

/** Each bucket's slot is this wide in the drawing's own units; the bar takes 62% of it. */
const SLOT = 10;
const BAR = 6.2;

/** Bar geometry in the drawing's units: from the zero line up (or down, for a negative value). */
export function barRects(
  values: (number | null)[],
  height: number,
): ({ x: number; y: number; width: number; height: number } | null)[] {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
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

/** The graph: the first bar series of the model. */
export function CompactBars({
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
  const series = model.series.find((s) => s.kind === 'bar') ?? model.series[0];
  if (!series) return null;
  const rects = barRects(series.values, height);
  const width = Math.max(1, rects.length) * SLOT;
  const indexAt = (event: React.PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const i = Math.floor(((event.clientX - box.left) / box.width) * rects.length);
    return i >= 0 && i < rects.length ? i : null;
  };
  const tip = pointed === null ? null : tooltipText(model, series.values[pointed] ?? null, pointed, lang, t);
  return (
    <div className="compact-bars" style={{ height }}>
      <svg
        className="compact-bars-svg"
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
        {rects.map((r, i) =>
          r ? (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: one bar per bucket, in bucket order
              key={i}
              className="compact-bar"
              x={r.x}
              y={r.y}
              width={r.width}
              height={r.height}
              fill={model.partial[i] ? PARTIAL_FILL : series.color}
              opacity={pointed === null || pointed === i ? 1 : 0.55}
            />
          ) : null,
        )}
      </svg>
      {tip && (
        <p className="compact-bars-tip" aria-hidden="true">
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
  t: (key: string) => string,
): string | null {
  const ts = model.timestamps[i];
  if (!ts) return null;
  const when = bucketLabel(ts, model.resolution, lang, { long: true, weekWord: t('chart.week') });
  const label = model.partial[i] ? `${when} (${t('chart.partial')})` : when;
  return `${label}: ${model.format.format(value)}`;
}
