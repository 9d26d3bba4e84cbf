/** Wizard step 5: the alarm as it will be saved, and why the last save failed. */
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../../../lib/errors.ts';
import type { Language } from '../../../lib/languages.ts';
import { amount } from '../shared.ts';
import { canHaveLeakRule } from './alarmDraft.ts';
import type { WizardSnapshot } from './useAlarmWizard.ts';

export function ReviewStep({
  context,
  leakRule,
  lang,
}: {
  context: WizardSnapshot['context'];
  leakRule: boolean;
  lang: Language;
}) {
  const { t } = useTranslation(['alarms', 'domain']);
  const { draft } = context;
  const limit =
    draft.type === 'indoor_climate'
      ? [
          draft.minimum !== null
            ? `${t('wizard.minimum')}: ${amount(draft.minimum, draft.quantity, lang)}`
            : null,
          draft.maximum !== null
            ? `${t('wizard.maximum')}: ${amount(draft.maximum, draft.quantity, lang)}`
            : null,
        ]
          .filter(Boolean)
          .join(', ')
      : draft.type === 'comparison'
        ? `${draft.threshold ?? ''} %`
        : amount(draft.threshold, draft.quantity, lang);
  return (
    <>
      <dl className="review-list" data-testid="alarm-review">
        <dt>{t('domain:alarms.step.type')}</dt>
        <dd>{draft.type && t(`domain:alarms.type.${draft.type}`)}</dd>
        <dt>{t('domain:alarms.step.quantity')}</dt>
        <dd>{draft.quantity && t(`domain:quantities.${draft.quantity}`)}</dd>
        <dt>{t('domain:alarms.step.frequency')}</dt>
        <dd>{draft.frequency && t(`domain:alarms.frequency.${draft.frequency}`)}</dd>
        <dt>{t('domain:alarms.step.threshold')}</dt>
        <dd>
          {limit}
          {canHaveLeakRule(draft) && leakRule ? ` · ${t('wizard.leak_short')}` : ''}
        </dd>
      </dl>
      {context.serverError && (
        <p className="field-error" role="alert">
          {t('wizard.save_failed')} {t(`domain:${errorMessageKey(context.serverError)}`)}
        </p>
      )}
    </>
  );
}
