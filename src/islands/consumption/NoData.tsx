/** SPEC §8's empty state, shared by the consumption islands. */
import { useTranslation } from 'react-i18next';

/** SPEC §8 "Data not yet available." */
export function NoData({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation('domain');
  return (
    <div className={inline ? 'state-box empty inline' : 'state-box empty'}>
      <p>{t('errors.no_data')}</p>
    </div>
  );
}
