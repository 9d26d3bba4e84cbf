/** The app header (SPEC §2): menu or back button, breadcrumbs, the apartment's address, tenancy and language pickers. */
import { useTranslation } from 'react-i18next';
import type { Tenancy } from '../../machines/session.machine.ts';
import { LanguagePicker } from '../shared/LanguagePicker.tsx';
import { Breadcrumbs, type Crumb } from './Breadcrumbs.tsx';
import { Icon } from './Icons.tsx';
import { TenancyPicker } from './TenancyPicker.tsx';

type HeaderProps = {
  tenancy: Tenancy | undefined;
  tenancies: Tenancy[];
  crumbs: Crumb[];
  menuOpen: boolean;
  onMenu: () => void;
};

export function Header({ tenancy, tenancies, crumbs, menuOpen, onMenu }: HeaderProps) {
  const { t } = useTranslation('common');
  const back = crumbs.length > 1 ? crumbs[crumbs.length - 2] : undefined;
  return (
    <header className="app-header">
      {back?.href ? (
        <a className="icon-button small-only" href={back.href} aria-label={t('header.back')}>
          <Icon name="back" />
        </a>
      ) : (
        <button
          type="button"
          className="icon-button small-only"
          onClick={onMenu}
          aria-label={t('nav.open_menu')}
          aria-controls="app-menu"
          aria-expanded={menuOpen}
        >
          <Icon name="menu" />
        </button>
      )}
      <Breadcrumbs crumbs={crumbs} />
      <div className="header-end">
        {tenancy && (
          <p className="apartment">
            {/* With a picker the address is already on screen, in the picker. */}
            {tenancies.length < 2 && <span className="apartment-address">{tenancy.apartment.address}</span>}
            <span className="apartment-city wide-only">
              {tenancy.apartment.apartmentInfo.zipcode} {tenancy.apartment.apartmentInfo.city}
            </span>
          </p>
        )}
        {tenancies.length > 1 && tenancy && <TenancyPicker tenancies={tenancies} selectedId={tenancy.id} />}
        <LanguagePicker saveToAccount />
      </div>
    </header>
  );
}
