/** The daily bar chart. ApexCharts is imported inside the effect, so it is not in the page's initial JS. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatQuantity } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { Spinner } from '../shared/Spinner.tsx';

type Props = { labels: string[]; values: (number | null)[]; lang: Language; title: string };

/** A bar chart of heat energy per day. */
export function HeatChart({ labels, values, lang, title }: Props) {
  const { t } = useTranslation('common');
  const host = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let disposed = false;
    let chart: { destroy: () => void } | null = null;
    (async () => {
      const [{ default: ApexCharts }] = await Promise.all([
        import('apexcharts/core'),
        import('apexcharts/bar'),
      ]);
      if (disposed || !host.current) return;
      // Category axes do not thin their labels; show every n-th so they never overlap on a phone.
      const fit = Math.max(3, Math.floor(host.current.clientWidth / 64));
      const step = Math.max(1, Math.ceil(labels.length / fit));
      const shown = new Set(labels.filter((_, i) => (labels.length - 1 - i) % step === 0));
      const instance = new ApexCharts(host.current, {
        chart: {
          type: 'bar',
          height: 320,
          fontFamily: 'inherit',
          toolbar: { show: false },
          zoom: { enabled: false },
          animations: { enabled: false },
        },
        series: [{ name: title, data: values }],
        colors: ['#d9480f'],
        plotOptions: { bar: { borderRadius: 3, columnWidth: '62%' } },
        dataLabels: { enabled: false },
        grid: { borderColor: '#e7e5e4', strokeDashArray: 3 },
        xaxis: {
          categories: labels,
          labels: {
            rotate: 0,
            formatter: (value: string) => (shown.has(value) ? value : ''),
            style: { colors: '#57534e' },
          },
          axisTicks: { show: false },
        },
        yaxis: {
          labels: {
            formatter: (v: number) => formatNumber(v, lang, { maximumFractionDigits: 0 }),
            style: { colors: '#57534e' },
          },
        },
        tooltip: {
          x: {
            formatter: (_: unknown, opts?: { dataPointIndex?: number }) =>
              labels[opts?.dataPointIndex ?? -1] ?? '',
          },
          y: { formatter: (v: number) => formatQuantity(v, 'heat-energy', lang) },
        },
        noData: { text: '' },
      });
      await instance.render();
      if (disposed) instance.destroy();
      else {
        chart = instance;
        setLoaded(true);
      }
    })().catch(() => {
      if (!disposed) setFailed(true);
    });
    return () => {
      disposed = true;
      chart?.destroy();
    };
  }, [labels, values, lang, title]);

  return (
    <figure className="chart" aria-label={t('dashboard.chart_label')}>
      {!loaded && !failed && <Spinner label={t('dashboard.loading')} />}
      {failed && <p className="alert error">{t('dashboard.error')}</p>}
      <div ref={host} className="chart-host" />
    </figure>
  );
}
