/**
 * An alarm's latest periods against its limit, drawn by the consumption pages' chart (axis, unit, tooltips,
 * table alternative): bars in the breach colour only where a period broke the rule, the limit as dashed lines.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmPeriodValue } from '../../client/operations/alarmQueries.ts';
import { type AlarmRuleShape, alarmBreaches, alarmLimitLines } from '../../lib/alarmChart.ts';
import type { Language } from '../../lib/languages.ts';
import type { ServerResolution } from '../../lib/periods.ts';
import { quantityKey } from '../../lib/quantities.ts';
import type { ChartSeries, GraphModel } from '../consumption/ConsumptionChart.tsx';
import { GraphPanel } from '../consumption/GraphPanel.tsx';
import { valueFormat } from '../consumption/valueFormat.ts';

/** The breach colour and the colour of a period within the rule. */
const ALARM_COLORS = { breach: '#b91c1c', ok: '#2563eb', limit: '#1c1917' } as const;

type Props = {
  rule: AlarmRuleShape & { quantity: string; frequency: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR' };
  values: AlarmPeriodValue[];
  /** Period starts the alarm fired for (its history), e.g. a leak the period totals cannot show. */
  fired: string[];
  lang: Language;
  title: string;
};

/** The chart with its legend of colours and the table alternative. */
export function AlarmChart({ rule, values, fired, lang, title }: Props) {
  const { t } = useTranslation(['alarms', 'domain']);
  // A new array each render, the same periods: the chart redraws only when they change.
  const firedKey = fired.join(',');
  const model = useMemo((): GraphModel => {
    const breaches = alarmBreaches(rule, values, new Set(firedKey.split(',')));
    const format = valueFormat(rule.quantity, 'HOURLY_VALUES', lang);
    const series: ChartSeries[] = [
      {
        key: 'value',
        name: t(quantityKey(rule.quantity)),
        values: values.map((v) => v.value),
        kind: 'bar',
        color: ALARM_COLORS.ok,
        pointColors: breaches.map((b) => (b ? ALARM_COLORS.breach : ALARM_COLORS.ok)),
      },
      ...alarmLimitLines(rule, values).map(
        (line): ChartSeries => ({
          key: line.key,
          name: t(`detail.limit.${line.key}`, { percent: rule.threshold ?? 0 }),
          values: line.values,
          kind: 'line',
          color: ALARM_COLORS.limit,
          dashed: true,
        }),
      ),
    ];
    return {
      // Period starts as bucket timestamps: labels and the table read only the date.
      timestamps: values.map((v) => `${v.periodStart}T00:00:00`),
      partial: values.map(() => false),
      resolution: rule.frequency satisfies ServerResolution,
      series,
      format,
      notes: breaches.map((b) => (b ? t('detail.breach') : null)),
    };
  }, [rule, values, firedKey, lang, t]);
  const anyBreach = model.notes?.some(Boolean) ?? false;
  return (
    <div className="alarm-chart" data-testid="alarm-chart">
      <GraphPanel model={model} lang={lang} title={title} fileParts={['alarm', rule.quantity]} height={240} />
      <p className="alarm-chart-key muted small">
        <span className="swatch" style={{ background: ALARM_COLORS.ok }} aria-hidden="true" />{' '}
        {t('detail.key_ok')}
        {anyBreach && (
          <>
            {' '}
            <span className="swatch" style={{ background: ALARM_COLORS.breach }} aria-hidden="true" />{' '}
            {t('detail.key_breach')}
          </>
        )}
      </p>
    </div>
  );
}
