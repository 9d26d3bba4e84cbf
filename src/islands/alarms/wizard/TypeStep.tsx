/** Wizard step 1: which kind of alarm (SPEC §3 alarm types), each with a line of help. */
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, type AlarmDraft } from '../../../machines/alarmWizard.machine.ts';
import { ChoiceList } from './ChoiceList.tsx';
import type { WizardSend } from './useAlarmWizard.ts';

export function TypeStep({ draft, send }: { draft: AlarmDraft; send: WizardSend }) {
  const { t } = useTranslation(['alarms', 'domain']);
  return (
    <fieldset>
      <legend>{t('wizard.type_legend')}</legend>
      <ChoiceList
        name="alarm-type"
        choices={ALARM_TYPES}
        chosen={draft.type}
        onChoose={(alarmType) => send({ type: 'wizard.type', alarmType })}
        label={(type) => (
          <>
            {t(`domain:alarms.type.${type}`)}
            <small>{t(`wizard.type_help.${type}`)}</small>
          </>
        )}
      />
    </fieldset>
  );
}
