/** /impersonate/{token}: exchanges the one-time link for a 60-minute session kept in this tab's sessionStorage. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { impersonate } from '../../client/operations/impersonate.ts';
import { writeImpersonation, writeTokens } from '../../client/storage.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';

/** The island. */
export default function Impersonate({ lang, token }: { lang: Language; token: string }) {
  return (
    <Providers lang={lang}>
      <Exchange token={token} />
    </Providers>
  );
}

function Exchange({ token }: { token: string }) {
  const { t } = useTranslation('account');
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    impersonate(token).then(
      ({ tokens, email, endsAt }) => {
        // Marked first: with the mark, the session reads and writes this tab's sessionStorage.
        writeImpersonation({ email, endsAt });
        writeTokens(sessionStorage, tokens);
        // The link's token is spent; leave no trace of it in history.
        window.location.replace('/t/');
      },
      () => setFailed(true),
    );
  }, [token]);
  return failed ? (
    <div className="alert error" role="alert">
      {t('impersonation.failed')}
    </div>
  ) : (
    <p role="status">{t('impersonation.working')}</p>
  );
}
