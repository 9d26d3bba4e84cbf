/** A graph with its accessible table alternative and CSV download; the table holds the same shown values. */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketLabel, localTimestamp } from '../../lib/buckets.ts';
import { csvNumber } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { ChartSketch } from './ChartSketch.tsx';
import { CompactGraph } from './CompactGraph.tsx';
import type { GraphModel } from './ConsumptionChart.tsx';
import { CsvButton, DataTable, type TableModel } from './DataTable.tsx';
import { ESTIMATED_FILL } from './graphModel.ts';

// The full chart (and, inside it, ApexCharts) loads only where one is drawn: the dashboard's cards use CompactGraph.
const loadChart = () => import('./ConsumptionChart.tsx').then((m) => ({ default: m.ConsumptionChart }));
const ConsumptionChart = lazy(loadChart);

/** Calls `run` once the page has loaded and the browser is first idle; returns a cancel. */
function whenIdle(run: () => void): () => void {
  let cancel = () => {};
  const idle = () => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(run, { timeout: 3000 });
      cancel = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(run, 300);
      cancel = () => clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') idle();
  else {
    window.addEventListener('load', idle, { once: true });
    cancel = () => window.removeEventListener('load', idle);
  }
  return () => cancel();
}

type ChartProps = { model: GraphModel; lang: Language; title: string; height: number };

/**
 * A full chart: first drawn as plain SVG (ChartSketch: axes, unit, series, legend names), then replaced in place
 * by ApexCharts (tooltips, keyboard stepping, legend toggles). ApexCharts (about 190 KB gzip, and the longest
 * task of a chart page's load on a phone) loads when the chart is pointed at, touched or focused; on a device
 * that can hover also when the browser is first idle after load, so the tooltips are there when the mouse comes.
 * On a touch-only device (a phone) it loads on the first touch or focus: a phone that only looks pays nothing.
 */
function DeferredChart({ model, lang, title, height }: ChartProps) {
  const [wanted, setWanted] = useState(false);
  const [touchOnly, setTouchOnly] = useState(false);
  const focused = useRef(false);
  useEffect(() => {
    if (wanted) return;
    if (window.matchMedia?.('(hover: none)').matches) {
      setTouchOnly(true);
      return;
    }
    return whenIdle(() => setWanted(true));
  }, [wanted]);
  const want = () => setWanted(true);
  const sketch = (
    <ChartSketch model={model} lang={lang} title={title} height={height} focusable={touchOnly} />
  );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointing, touching or focusing the chart only loads the full chart
    <div
      className="deferred-chart"
      onPointerEnter={want}
      onPointerDown={want}
      onFocus={() => {
        // Focus on the sketch (before ApexCharts): move it to ApexCharts' chart when drawn.
        if (!wanted) focused.current = true;
        want();
      }}
    >
      {wanted ? (
        <Suspense fallback={sketch}>
          <ConsumptionChart
            model={model}
            lang={lang}
            title={title}
            height={height}
            placeholder={sketch}
            focusWhenDrawn={focused.current}
          />
        </Suspense>
      ) : (
        sketch
      )}
    </div>
  );
}

/**
 * The table of a graph: one row per bucket (local time), one column per series, a column saying which buckets
 * count estimated hours (when any does), and a note on open buckets.
 */
export function graphTable(
  model: GraphModel,
  lang: Language,
  words: {
    time: string;
    note: string;
    partial: string;
    week: string;
    estimated: string;
    yes: string;
    no: string;
  },
): TableModel {
  const noteOf = (i: number) =>
    [model.partial[i] ? words.partial : '', model.notes?.[i] ?? ''].filter(Boolean).join(', ');
  const anyNote = model.timestamps.some((_, i) => noteOf(i) !== '');
  const unit = model.format.unit ? ` (${model.format.unit})` : '';
  const anyEstimated = model.estimated?.some(Boolean) ?? false;
  const columns = [
    words.time,
    ...model.series.map((s) => `${s.name}${unit}`),
    ...(anyEstimated ? [words.estimated] : []),
    ...(anyNote ? [words.note] : []),
  ];
  const rows = model.timestamps.map((ts, i) => [
    {
      text: bucketLabel(ts, model.resolution, lang, { long: true, weekWord: words.week }),
      csv: localTimestamp(ts),
    },
    ...model.series.map((s) => {
      const v = s.values[i] ?? null;
      return { text: model.format.format(v), csv: csvNumber(v, lang, model.format.decimals) };
    }),
    ...(anyEstimated
      ? [model.estimated?.[i] ? words.yes : words.no].map((text) => ({ text, csv: text }))
      : []),
    ...(anyNote ? [{ text: noteOf(i), csv: noteOf(i) }] : []),
  ]);
  return { columns, rows };
}

type Props = {
  model: GraphModel;
  lang: Language;
  title: string;
  fileParts: string[];
  height?: number;
  testId?: string;
  /** False when a heading above already names the graph; the caption then names it for screen readers only. */
  showTitle?: boolean;
  /** A small graph (dashboard card): no axes or legend; the CSV button sits with the table. */
  compact?: boolean;
};

/** The panel: chart, the partial-bucket note, a CSV button and the table behind a disclosure. */
export function GraphPanel({
  model,
  lang,
  title,
  fileParts,
  height,
  testId,
  showTitle = true,
  compact = false,
}: Props) {
  const { t } = useTranslation('consumption');
  // The table is built when its disclosure opens, not with the page: formatting every bucket (of every card on
  // the dashboard, of the big graph on a chart page) while the page loads is Total Blocking Time on a phone. A
  // small graph's CSV button sits behind the disclosure too; a big graph's builds the table when pressed.
  const [open, setOpen] = useState(false);
  const build = useCallback(
    () =>
      graphTable(model, lang, {
        time: t('table.time'),
        note: t('table.note'),
        partial: t('chart.partial'),
        week: t('chart.week'),
        estimated: t('table.estimated'),
        yes: t('table.yes'),
        no: t('table.no'),
      }),
    [model, lang, t],
  );
  const table = useMemo(() => (open ? build() : null), [open, build]);
  const hasData = model.series.some((s) => s.values.some((v) => v !== null));
  const csv = compact ? (
    table && <CsvButton model={table} lang={lang} fileParts={fileParts} label={title} />
  ) : (
    <CsvButton
      model={table ?? build}
      empty={model.timestamps.length === 0}
      lang={lang}
      fileParts={fileParts}
      label={title}
    />
  );
  return (
    <figure className={compact ? 'graph-panel compact' : 'graph-panel'} data-testid={testId}>
      <figcaption className={compact ? 'visually-hidden' : 'graph-caption'}>
        <span className={showTitle && !compact ? 'graph-title' : 'visually-hidden'}>{title}</span>
        {!compact && csv}
      </figcaption>
      {hasData && compact ? (
        <CompactGraph model={model} lang={lang} title={title} height={height ?? 140} />
      ) : hasData ? (
        <DeferredChart model={model} lang={lang} title={title} height={height ?? 320} />
      ) : (
        <div className="state-box empty">
          <p>{t('no_data')}</p>
        </div>
      )}
      {!compact && model.partial.some(Boolean) && hasData && model.series.some((x) => x.kind === 'bar') && (
        <p className="muted small">{t('chart.partial_note')}</p>
      )}
      {hasData && model.estimated?.some(Boolean) && (
        <p className="muted small estimated-legend" data-testid="estimated-legend">
          <span className="legend-swatch" style={{ background: ESTIMATED_FILL }} aria-hidden="true" />
          {t('chart.estimated_note')}
        </p>
      )}
      <details className="table-alternative" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          {t('table.show')}
          {compact && <span className="visually-hidden"> ({title})</span>}
        </summary>
        {table && <DataTable model={table} caption={title} />}
        {compact && csv}
      </details>
    </figure>
  );
}
