/** The period bar: presets, a custom range, previous and next, the label, the resolution and the comparison. */
import { useSelector } from '@xstate/react';
import { type SubmitEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isPeriodPreset, PERIOD_PRESETS, type Resolution } from '../../lib/periods.ts';
import { type Comparison, parseComparison } from '../../machines/period.machine.ts';
import type { PeriodState } from './usePeriod.ts';

type Props = { state: PeriodState; comparison?: boolean; minDate?: string | null };

/** Keyboard users reach every control in order; the label is announced when the period changes. */
export function PeriodBar({ state, comparison = false, minDate }: Props) {
  const { t } = useTranslation(['consumption', 'domain']);
  const id = useId();
  const { actor } = state;
  const preset = useSelector(actor, (s) => s.context.preset);
  const choosingCustom = useSelector(actor, (s) => s.matches('choosingCustom'));
  const canNext = useSelector(actor, (s) => s.can({ type: 'period.next' }));
  const today = useSelector(actor, (s) => s.context.today);
  // A control that disappears or turns disabled under the keyboard's focus would drop focus to the page body:
  // focus moves on to the period choice, the control that follows (and that opened the custom range).
  const presetRef = useRef<HTMLSelectElement>(null);
  const focusPreset = () => presetRef.current?.focus();

  return (
    <section className="period-bar" aria-label={t('period.bar_label')}>
      <div className="period-stepper">
        <button
          type="button"
          className="icon-button period-step"
          onClick={() => actor.send({ type: 'period.previous' })}
          aria-label={t('domain:periods.previous')}
          data-testid="period-previous"
        >
          <span aria-hidden="true">‹</span>
        </button>
        <p className="period-label" aria-live="polite" data-testid="period-label">
          {state.periodText}
        </p>
        <button
          type="button"
          className="icon-button period-step"
          onClick={(e) => {
            actor.send({ type: 'period.next' });
            if (
              e.currentTarget === document.activeElement &&
              !actor.getSnapshot().can({ type: 'period.next' })
            )
              focusPreset();
          }}
          disabled={!canNext}
          aria-label={t('domain:periods.next')}
          data-testid="period-next"
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <div className="period-controls">
        <div className="field compact">
          <label className="field-label" htmlFor={`${id}-preset`}>
            {t('period.preset')}
          </label>
          <select
            ref={presetRef}
            id={`${id}-preset`}
            value={choosingCustom ? 'custom' : preset}
            onChange={(e) => {
              const value = e.target.value;
              if (isPeriodPreset(value)) actor.send({ type: 'period.preset', preset: value });
            }}
          >
            {PERIOD_PRESETS.map((p) => (
              <option key={p} value={p}>
                {t(`domain:periods.preset.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field compact">
          <label className="field-label" htmlFor={`${id}-resolution`}>
            {t('period.resolution')}
          </label>
          <select
            id={`${id}-resolution`}
            value={state.resolution}
            onChange={(e) => state.pickResolution(e.target.value as Resolution)}
          >
            {state.choices.map((r) => (
              <option key={r} value={r}>
                {t(`domain:periods.resolution.${r}`)}
              </option>
            ))}
          </select>
        </div>
        {comparison && (
          <div className="field compact">
            <label className="field-label" htmlFor={`${id}-comparison`}>
              {t('domain:periods.comparison.label')}
            </label>
            <select
              id={`${id}-comparison`}
              value={state.comparison}
              onChange={(e) => {
                const value = parseComparison(e.target.value);
                if (value) actor.send({ type: 'comparison.change', comparison: value as Comparison });
              }}
            >
              <option value="property">{t('domain:periods.comparison.property')}</option>
              <option value="last_period">{t('domain:periods.comparison.last_period')}</option>
            </select>
          </div>
        )}
      </div>
      {choosingCustom && (
        <CustomRange state={state} today={today} minDate={minDate ?? undefined} onClosed={focusPreset} />
      )}
    </section>
  );
}

type CustomRangeProps = { state: PeriodState; today: string; minDate?: string; onClosed: () => void };

function CustomRange({ state, today, minDate, onClosed }: CustomRangeProps) {
  const { t } = useTranslation(['consumption', 'domain']);
  const id = useId();
  const { actor } = state;
  const refused = useSelector(actor, (s) => s.context.customError);
  const [start, setStart] = useState(state.period.startDate);
  const [end, setEnd] = useState(state.period.endDate);
  // A refusal is about the dates as they were applied; once either date changes, its message is stale.
  const [edited, setEdited] = useState(false);
  const error = edited ? null : refused;
  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setEdited(false);
    actor.send({ type: 'period.custom', startDate: start, endDate: end });
    if (!actor.getSnapshot().matches('choosingCustom')) onClosed();
  };
  const errorId = `${id}-error`;
  return (
    <form className="custom-range" onSubmit={submit} aria-label={t('period.custom_title')}>
      <div className="field compact">
        <label className="field-label" htmlFor={`${id}-start`}>
          {t('domain:periods.start_date')}
        </label>
        <input
          id={`${id}-start`}
          type="date"
          value={start}
          min={minDate}
          max={today}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setStart(e.target.value);
            setEdited(true);
          }}
        />
      </div>
      <div className="field compact">
        <label className="field-label" htmlFor={`${id}-end`}>
          {t('domain:periods.end_date')}
        </label>
        <input
          id={`${id}-end`}
          type="date"
          value={end}
          min={minDate}
          max={today}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setEnd(e.target.value);
            setEdited(true);
          }}
        />
      </div>
      <div className="custom-actions">
        <button type="submit" className="button primary">
          {t('period.apply')}
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            actor.send({ type: 'period.customCancel' });
            onClosed();
          }}
        >
          {t('period.cancel')}
        </button>
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {t(`domain:validation.${error}`)}
        </p>
      )}
    </form>
  );
}
