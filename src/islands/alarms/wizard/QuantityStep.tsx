/** Wizard step 2: which quantity, among those the alarm type can watch and the tenancy measures. */
import { useTranslation } from 'react-i18next';
import {
  type AlarmDraft,
  type AlarmType,
  quantitiesForAlarmType,
} from '../../../machines/alarmWizard.machine.ts';
import { useOwnQuantities } from '../shared.ts';
import { ChoiceList } from './ChoiceList.tsx';
import type { WizardSend } from './useAlarmWizard.ts';

export function QuantityStep({
  tenancyId,
  type,
  draft,
  send,
}: {
  tenancyId: string;
  type: AlarmType;
  draft: AlarmDraft;
  send: WizardSend;
}) {
  const { t } = useTranslation(['alarms', 'domain']);
  const own = useOwnQuantities(tenancyId);
  const options = quantitiesForAlarmType(type).filter((q) => own.includes(q));
  return (
    <fieldset>
      <legend>{t('wizard.quantity_legend')}</legend>
      {options.length === 0 ? (
        <p>{t('wizard.no_quantities')}</p>
      ) : (
        <ChoiceList
          name="alarm-quantity"
          choices={options}
          chosen={draft.quantity}
          onChoose={(quantity) => send({ type: 'wizard.quantity', quantity })}
          label={(q) => t(`domain:quantities.${q}`)}
        />
      )}
    </fieldset>
  );
}
