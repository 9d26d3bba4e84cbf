/** SPEC §8 "Your log in expired. Please log in again." on /login after an expired session (?expired=1). */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';

/** The island. */
export default function ExpiredNotice({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Notice />
    </Providers>
  );
}

function Notice() {
  const { t } = useTranslation('account');
  const [expired, setExpired] = useState(false);
  useEffect(() => setExpired(new URL(window.location.href).searchParams.has('expired')), []);
  return expired ? (
    <div className="alert error" role="alert">
      {t('expired.message')}
    </div>
  ) : null;
}
