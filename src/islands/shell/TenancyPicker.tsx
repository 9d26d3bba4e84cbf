/** The tenancy picker of the header, for a user with more than one tenancy (SPEC §2). */
import { navigate } from 'astro:transitions/client';
import { useTranslation } from 'react-i18next';
import { getSessionActor } from '../../client/session.ts';
import type { Tenancy } from '../../machines/session.machine.ts';
import { ChoiceMenu } from './ChoiceMenu.tsx';

export function TenancyPicker({ tenancies, selectedId }: { tenancies: Tenancy[]; selectedId: string }) {
  const { t } = useTranslation('common');
  const sorted = [...tenancies].sort((a, b) => a.apartment.address.localeCompare(b.apartment.address));
  return (
    <ChoiceMenu
      className="tenancy-picker"
      label={t('header.choose_tenancy')}
      current={selectedId}
      choices={sorted.map((x) => ({ value: x.id, text: x.apartment.address }))}
      onChoose={(tenancyId) => {
        getSessionActor().send({ type: 'tenancy.select', tenancyId });
        void navigate(`/t/${encodeURIComponent(tenancyId)}/`);
      }}
    />
  );
}
