/** Wizard step 3: how often the alarm judges a period (SPEC §3 alarm frequencies). */
import { useTranslation } from 'react-i18next';
import { ALARM_FREQUENCIES, type AlarmDraft } from '../../../machines/alarmWizard.machine.ts';
import { ChoiceList } from './ChoiceList.tsx';
import type { WizardSend } from './useAlarmWizard.ts';

export function FrequencyStep({ draft, send }: { draft: AlarmDraft; send: WizardSend }) {
  const { t } = useTranslation(['alarms', 'domain']);
  return (
    <fieldset>
      <legend>{t('wizard.frequency_legend')}</legend>
      <p className="muted">{t('wizard.frequency_help')}</p>
      <ChoiceList
        name="alarm-frequency"
        choices={ALARM_FREQUENCIES}
        chosen={draft.frequency}
        onChoose={(frequency) => send({ type: 'wizard.frequency', frequency })}
        label={(f) => t(`domain:alarms.frequency.${f}`)}
      />
    </fieldset>
  );
}
