/**
 * Wizard step 4: the limit. A threshold in the quantity's unit, a percent increase, the fixed zero (with the leak
 * rule on water) or an indoor-climate minimum and maximum; with the latest complete period's value as a hint.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AlarmFrequencyName,
  type AlarmTypeName,
  useAlarmValues,
} from '../../../client/operations/alarmQueries.ts';
import { limitRange } from '../../../lib/alarmLimits.ts';
import { formatNumber } from '../../../lib/format.ts';
import type { Language } from '../../../lib/languages.ts';
import { amount, periodLabel, unitOf } from '../shared.ts';
import { canHaveLeakRule } from './alarmDraft.ts';
import type { WizardSend, WizardSnapshot } from './useAlarmWizard.ts';

type Props = {
  tenancyId: string;
  context: WizardSnapshot['context'];
  send: WizardSend;
  leakRule: boolean;
  setLeakRule: (on: boolean) => void;
  lang: Language;
};

export function ThresholdStep({ tenancyId, context, send, leakRule, setLeakRule, lang }: Props) {
  const { t } = useTranslation(['alarms', 'domain']);
  const { draft, thresholdError: error } = context;
  const errorId = useId();
  const hint = useAlarmValues(
    draft.type && draft.quantity && draft.frequency
      ? {
          tenancyId,
          type: draft.type.toUpperCase() as AlarmTypeName,
          quantity: draft.quantity,
          frequency: draft.frequency.toUpperCase() as AlarmFrequencyName,
          count: 1,
        }
      : null,
  );
  const last = hint.data?.[0];
  const hintText = last
    ? last.value === null
      ? t('wizard.hint_none')
      : t('wizard.hint', {
          period: periodLabel(last.periodStart, draft.frequency ?? 'day', lang, t),
          value: amount(last.value, draft.quantity, lang),
        })
    : '';
  const unit = unitOf(draft.quantity, lang);
  const range = limitRange(draft.type ?? '', draft.quantity);
  const limitUnit = draft.type === 'comparison' ? '%' : unit;
  // What will be saved, as the page writes numbers, so "12,5" and "12.5" both show what they were read as.
  const echo = (n: number | null, text: string) =>
    n !== null && text.trim() !== ''
      ? t('wizard.read_as', { value: formatNumber(n, lang, { maximumFractionDigits: 6 }) })
      : null;
  const invalid = error !== null;
  const field = { invalid, describedBy: invalid ? errorId : undefined };
  return (
    <fieldset>
      <legend>{t('domain:alarms.step.threshold')}</legend>
      {draft.type === 'zero_consumption' && (
        <>
          <p>{t('domain:alarms.zero_threshold_fixed')}</p>
          {canHaveLeakRule(draft) && (
            <label className="choice">
              <input type="checkbox" checked={leakRule} onChange={(e) => setLeakRule(e.target.checked)} />
              <span>{t('wizard.leak_rule')}</span>
            </label>
          )}
        </>
      )}
      {(draft.type === 'threshold' || draft.type === 'comparison') && (
        <NumberField
          {...field}
          label={
            draft.type === 'comparison' ? t('wizard.percent_label') : t('wizard.threshold_label', { unit })
          }
          value={context.thresholdText}
          echo={echo(draft.threshold, context.thresholdText)}
          onChange={(value) => send({ type: 'wizard.threshold', value })}
        />
      )}
      {draft.type === 'indoor_climate' && (
        <>
          <NumberField
            {...field}
            label={t('wizard.minimum_label', { unit })}
            value={context.minimumText}
            echo={echo(draft.minimum, context.minimumText)}
            onChange={(value) => send({ type: 'wizard.minimum', value })}
          />
          <NumberField
            {...field}
            label={t('wizard.maximum_label', { unit })}
            value={context.maximumText}
            echo={echo(draft.maximum, context.maximumText)}
            onChange={(value) => send({ type: 'wizard.maximum', value })}
          />
        </>
      )}
      {hintText && (
        <p className="muted" data-testid="threshold-hint">
          {hintText}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {t(`wizard.${error}`, {
            min: formatNumber(range.min, lang),
            max: formatNumber(range.max, lang),
            unit: limitUnit,
          })}
        </p>
      )}
    </fieldset>
  );
}

/** A decimal field, as typed (the machine parses it), marked invalid with the step's error. */
function NumberField({
  label,
  value,
  echo,
  onChange,
  invalid,
  describedBy,
}: {
  label: string;
  value: string;
  /** The number the text was read as, when it reads as one. */
  echo: string | null;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const id = useId();
  const echoId = `${id}-read-as`;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        inputMode="decimal"
        value={value}
        aria-invalid={invalid}
        aria-describedby={[describedBy, echo ? echoId : null].filter(Boolean).join(' ') || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {echo && (
        <p className="muted small" id={echoId} data-testid="limit-read-as">
          {echo}
        </p>
      )}
    </div>
  );
}
