/** A graph with its accessible table alternative and CSV download; the table holds the same shown values. */
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketLabel, localTimestamp } from '../../lib/buckets.ts';
import { csvNumber } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { Spinner } from '../shared/Spinner.tsx';
import { CompactGraph } from './CompactGraph.tsx';
import type { GraphModel } from './ConsumptionChart.tsx';
import { CsvButton, DataTable, type TableModel } from './DataTable.tsx';
import { ESTIMATED_FILL } from './graphModel.ts';

// The full chart (and, inside it, ApexCharts) loads only where one is drawn: the dashboard's cards use CompactGraph.
const ConsumptionChart = lazy(() =>
  import('./ConsumptionChart.tsx').then((m) => ({ default: m.ConsumptionChart })),
);

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
  // A small graph's table and CSV button sit behind the disclosure: built when it opens, not with the page
  // (a dashboard of several cards would format every bucket of every card while it loads: Total Blocking Time).
  const [open, setOpen] = useState(false);
  const needsTable = open || !compact;
  const table = useMemo(
    () =>
      needsTable
        ? graphTable(model, lang, {
            time: t('table.time'),
            note: t('table.note'),
            partial: t('chart.partial'),
            week: t('chart.week'),
            estimated: t('table.estimated'),
            yes: t('table.yes'),
            no: t('table.no'),
          })
        : null,
    [needsTable, model, lang, t],
  );
  const hasData = model.series.some((s) => s.values.some((v) => v !== null));
  const csv = table && <CsvButton model={table} lang={lang} fileParts={fileParts} label={title} />;
  return (
    <figure className={compact ? 'graph-panel compact' : 'graph-panel'} data-testid={testId}>
      <figcaption className={compact ? 'visually-hidden' : 'graph-caption'}>
        <span className={showTitle && !compact ? 'graph-title' : 'visually-hidden'}>{title}</span>
        {!compact && csv}
      </figcaption>
      {hasData && compact ? (
        <CompactGraph model={model} lang={lang} title={title} height={height ?? 140} />
      ) : hasData ? (
        <Suspense
          fallback={
            // The same box ConsumptionChart draws in, so nothing shifts when it arrives.
            <div className="chart" style={{ minHeight: (height ?? 320) + 15 }}>
              <Spinner label={t('chart.loading')} />
            </div>
          }
        >
          <ConsumptionChart model={model} lang={lang} title={title} height={height} compact={compact} />
        </Suspense>
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
