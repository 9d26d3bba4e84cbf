/** "Back to login" on /no-tenancies: ends a live session first, so login starts clean. */
import { navigate } from 'astro:transitions/client';
import { useTranslation } from 'react-i18next';
import { getSessionActor } from '../../client/session.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';

export default function LeaveButton({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Leave />
    </Providers>
  );
}

function Leave() {
  const { t } = useTranslation('common');
  return (
    <button
      type="button"
      className="button secondary"
      onClick={() => {
        const session = getSessionActor();
        if (session.getSnapshot().matches('loggedIn')) session.send({ type: 'session.logout' });
        else void navigate('/login');
      }}
    >
      {t('no_tenancies.back_to_login')}
    </button>
  );
}
