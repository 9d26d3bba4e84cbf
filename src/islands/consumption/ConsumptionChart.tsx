/**
 * A consumption chart drawn by ApexCharts, imported inside the effect so it stays out of the page's first JS.
 * Null values are gaps (never zero); partial buckets are drawn lighter, buckets with estimated hours grey (with a
 * legend under the chart). ApexCharts' keyboard module makes the
 * chart focusable and its points steppable with the arrow keys.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketLabel } from '../../lib/buckets.ts';
import type { Language } from '../../lib/languages.ts';
import type { ServerResolution } from '../../lib/periods.ts';
import { Spinner } from '../shared/Spinner.tsx';
import { COLORS, ESTIMATED_FILL } from './graphModel.ts';
import type { ValueFormat } from './valueFormat.ts';

/** One drawn series. */
export type ChartSeries = {
  key: string;
  name: string;
  values: (number | null)[];
  kind: 'bar' | 'line';
  color: string;
  dashed?: boolean;
  /** Bars only: a colour per bucket that overrides `color` (e.g. an alarm's breaching periods). */
  pointColors?: (string | null)[];
};

/** What a chart draws. */
export type GraphModel = {
  timestamps: string[];
  partial: boolean[];
  resolution: ServerResolution;
  series: ChartSeries[];
  format: ValueFormat;
  /** A note per bucket for the table alternative (e.g. "over the limit"), beside the partial-bucket note. */
  notes?: (string | null)[];
  /** The main series' buckets that count an estimated hour (tenantGraph's `estimated`); absent when not known. */
  estimated?: boolean[];
};

type Props = {
  model: GraphModel;
  lang: Language;
  title: string;
  height?: number;
  compact?: boolean;
  /** Shown instead of the spinner until ApexCharts has drawn (ChartSketch: the same chart in plain SVG). */
  placeholder?: ReactNode;
  /** Move focus to the drawn chart (the user focused the placeholder, which it replaces). */
  focusWhenDrawn?: boolean;
};

/** Axis labels: times for an hourly graph of one day, with the day when it spans several. */
export function axisLabels(model: GraphModel, lang: Language, weekWord: string): string[] {
  const days = new Set(model.timestamps.map((ts) => ts.slice(0, 10)));
  const labels = model.timestamps.map((ts) =>
    bucketLabel(ts, model.resolution, lang, { withDay: days.size > 1, weekWord }),
  );
  // The autumn DST change repeats an hour (02:00 twice); the UTC offset tells the two apart on a category axis.
  const seen = new Map<string, number>();
  for (const l of labels) seen.set(l, (seen.get(l) ?? 0) + 1);
  return labels.map((l, i) =>
    (seen.get(l) ?? 0) > 1 ? `${l} (${model.timestamps[i]?.slice(19) ?? ''})` : l,
  );
}

/**
 * ApexCharts names its legend toggles in English ("…, visible. Press Enter or Space to toggle.") and marks a
 * hidden series as pressed; this names them in the page's language, the state in words, whenever it redraws them.
 */
function localiseLegend(host: HTMLElement, label: (name: string, hidden: boolean) => string): () => void {
  const relabel = () => {
    for (const toggle of host.querySelectorAll<HTMLElement>('.apexcharts-legend-series[role="button"]')) {
      const name = toggle.querySelector('.apexcharts-legend-text')?.textContent ?? '';
      const hidden = toggle.classList.contains('apexcharts-inactive-legend');
      const wanted = label(name, hidden);
      if (toggle.getAttribute('aria-label') !== wanted) toggle.setAttribute('aria-label', wanted);
      if (toggle.hasAttribute('aria-pressed')) toggle.removeAttribute('aria-pressed');
    }
  };
  const observer = new MutationObserver(relabel);
  observer.observe(host, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-label', 'class'],
  });
  relabel();
  return () => observer.disconnect();
}

/** The chart. */
export function ConsumptionChart({
  model,
  lang,
  title,
  height = 320,
  compact = false,
  placeholder,
  focusWhenDrawn = false,
}: Props) {
  const { t } = useTranslation('consumption');
  const host = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const weekWord = t('chart.week_short');
  // Taken at mount and used by the first drawing only: a later redraw (another period) must not move focus.
  const focusOnDraw = useRef(focusWhenDrawn);

  useEffect(() => {
    let disposed = false;
    let chart: { destroy: () => void } | null = null;
    let stopLegend = () => {};
    setLoaded(false);
    (async () => {
      // Only what this chart uses: the dashboard's small bar charts need neither lines, legend nor keyboard.
      const hasLine = model.series.some((x) => x.kind === 'line');
      const hasBar = model.series.some((x) => x.kind === 'bar');
      const [{ default: ApexCharts }] = await Promise.all([
        import('apexcharts/core'),
        hasBar ? import('apexcharts/bar') : null,
        hasLine ? import('apexcharts/line') : null,
        compact ? null : import('apexcharts/features/keyboard'),
        compact ? null : import('apexcharts/features/legend'),
      ]);
      // Each chart draws in a task of its own: the dashboard's charts all wait for the same modules, and
      // drawing them in one go would be one long task (Lighthouse's Total Blocking Time).
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (disposed || !host.current) return;
      const labels = axisLabels(model, lang, weekWord);
      // Category axes do not thin their labels; show every n-th so they never overlap on a phone.
      const fit = Math.max(2, Math.floor(host.current.clientWidth / (model.resolution === 'HOUR' ? 84 : 64)));
      const step = Math.max(1, Math.ceil(labels.length / fit));
      const shown = new Set(labels.filter((_, i) => (labels.length - 1 - i) % step === 0));
      const instance = new ApexCharts(host.current, {
        chart: {
          type: hasBar ? 'bar' : 'line',
          height,
          fontFamily: 'inherit',
          toolbar: { show: false },
          zoom: { enabled: false },
          animations: { enabled: false },
          sparkline: { enabled: false },
          accessibility: {
            enabled: true,
            description: title,
            keyboard: { enabled: !compact, navigation: { enabled: !compact, wrapAround: false } },
          },
        },
        series: model.series.map((s) => ({
          name: s.name,
          type: s.kind === 'bar' ? 'bar' : 'line',
          data: s.values.map((y, i) => ({
            x: labels[i] ?? '',
            y,
            ...(s.kind === 'bar' && s.pointColors?.[i]
              ? { fillColor: s.pointColors[i] }
              : s.kind === 'bar' && s.key === 'main' && model.estimated?.[i]
                ? { fillColor: ESTIMATED_FILL }
                : s.kind === 'bar' && model.partial[i]
                  ? { fillColor: COLORS.partial }
                  : {}),
          })),
        })),
        colors: model.series.map((s) => s.color),
        stroke: {
          width: model.series.map((s) => (s.kind === 'bar' ? 0 : 2)),
          dashArray: model.series.map((s) => (s.dashed ? 5 : 0)),
          curve: 'straight',
        },
        markers: {
          size: model.series.map((s) => (s.kind === 'line' && model.timestamps.length < 40 ? 3 : 0)),
        },
        plotOptions: { bar: { borderRadius: 3, columnWidth: '62%' } },
        dataLabels: { enabled: false },
        legend: { show: !compact && model.series.length > 1, position: 'bottom', fontSize: '13px' },
        grid: { borderColor: '#e7e5e4', strokeDashArray: 3 },
        xaxis: {
          type: 'category',
          labels: {
            show: !compact,
            rotate: 0,
            hideOverlappingLabels: true,
            formatter: (value: string | number) => (shown.has(String(value)) ? String(value) : ''),
            style: { colors: '#57534e' },
          },
          axisTicks: { show: false },
          tooltip: { enabled: false },
        },
        yaxis: {
          show: !compact,
          title: compact
            ? undefined
            : { text: model.format.unit, style: { color: '#57534e', fontWeight: 500 } },
          labels: {
            formatter: (v: number) =>
              Number.isFinite(v)
                ? new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'da-DK', {
                    maximumFractionDigits: 2,
                  }).format(v)
                : '',
            style: { colors: '#57534e' },
          },
        },
        tooltip: {
          shared: true,
          intersect: false,
          x: {
            formatter: (_: unknown, opts?: { dataPointIndex?: number }) => {
              const i = opts?.dataPointIndex ?? -1;
              const ts = model.timestamps[i];
              if (!ts) return '';
              const text = bucketLabel(ts, model.resolution, lang, { long: true, weekWord: t('chart.week') });
              const marks = [
                model.partial[i] ? t('chart.partial') : '',
                model.estimated?.[i] ? t('chart.estimated') : '',
              ].filter(Boolean);
              return marks.length ? `${text} (${marks.join(', ')})` : text;
            },
          },
          y: { formatter: (v: number | null) => model.format.format(v ?? null) },
        },
        noData: { text: t('no_data') },
      });
      await instance.render();
      if (disposed) instance.destroy();
      else {
        chart = instance;
        stopLegend = localiseLegend(host.current, (name, hidden) =>
          t(hidden ? 'chart.legend_hidden' : 'chart.legend_shown', { name }),
        );
        setLoaded(true);
      }
    })().catch(() => {
      if (!disposed) setFailed(true);
    });
    return () => {
      disposed = true;
      stopLegend();
      chart?.destroy();
    };
  }, [model, lang, title, height, compact, weekWord, t]);

  // Once shown (a hidden host cannot take focus), the first drawing takes the focus its placeholder had.
  useEffect(() => {
    if (!loaded || !focusOnDraw.current) return;
    focusOnDraw.current = false;
    host.current?.querySelector<SVGElement>('svg[tabindex]')?.focus();
  }, [loaded]);

  return (
    // ApexCharts makes its host `height` + 15 px tall; the box has that height from the start (no shift).
    // With a placeholder, ApexCharts draws into a hidden host laid over it, shown in the same commit that
    // removes the placeholder: nothing shifts, and the two are never seen together.
    <div className="chart" style={{ minHeight: height + 15, position: placeholder ? 'relative' : undefined }}>
      {!loaded && (placeholder ?? (!failed && <Spinner label={t('chart.loading')} />))}
      {failed && <p className="alert error">{t('chart.failed')}</p>}
      <div
        ref={host}
        className="chart-host"
        style={
          placeholder && !loaded
            ? { position: 'absolute', top: 0, left: 0, right: 0, visibility: 'hidden' }
            : undefined
        }
      />
    </div>
  );
}
