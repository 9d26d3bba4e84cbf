/** The app header (SPEC §2): menu or back button, breadcrumbs, the apartment's address, tenancy and language pickers. */
import { Suspense } from 'react';
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
  /** Unread notifications, when there are any: a link with the count. */
  unread?: { href: string; count: number };
};

export function Header({ tenancy, tenancies, crumbs, menuOpen, onMenu, unread }: HeaderProps) {
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
        {unread && (
          <Suspense fallback={null}>
            <UnreadLink href={unread.href} count={unread.count} />
          </Suspense>
        )}
        {tenancies.length > 1 && tenancy && <TenancyPicker tenancies={tenancies} selectedId={tenancy.id} />}
        <LanguagePicker saveToAccount />
      </div>
    </header>
  );
}

/** The notifications link with the unread count; its text is the alarms namespace's, loaded only when shown. */
function UnreadLink({ href, count }: { href: string; count: number }) {
  const { t } = useTranslation('alarms');
  return (
    <a className="icon-button header-unread" href={href} data-testid="header-unread">
      <Icon name="notifications" />
      <span aria-hidden="true" className="header-unread-count">
        {count}
      </span>
      <span className="visually-hidden">{t('list.notifications', { count })}</span>
    </a>
  );
}
