/** /signup/account-created: the way on to the dashboard, and SPEC §8's message when the code was refused. */
import { navigate } from 'astro:transitions/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { homePath } from '../../client/session.ts';
import { SERVER_ERROR_CODES, type ServerErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { useHydrated } from '../shared/useHydrated.ts';
import { useSession } from '../shared/useSession.ts';
import { ErrorAlert } from './ErrorAlert.tsx';
import { SIGNUP_CODE_ERROR_KEY } from './SetPasswordForm.tsx';

/** The island. */
export default function AccountCreated({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Created />
    </Providers>
  );
}

function Created() {
  const { t } = useTranslation('account');
  const home = useSession(homePath);
  const loggedOut = useSession((s) => s.matches('loggedOut'));
  const [codeError, setCodeError] = useState<ServerErrorCode | null>(null);
  // Disabled until the island runs: a click on the server-rendered button would do nothing.
  const hydrated = useHydrated();
  useEffect(() => {
    const stored = sessionStorage.getItem(SIGNUP_CODE_ERROR_KEY);
    sessionStorage.removeItem(SIGNUP_CODE_ERROR_KEY);
    if (stored && (SERVER_ERROR_CODES as readonly string[]).includes(stored))
      setCodeError(stored as ServerErrorCode);
  }, []);
  useEffect(() => {
    if (loggedOut) void navigate('/login', { history: 'replace' });
  }, [loggedOut]);
  return (
    <>
      <ErrorAlert code={codeError} />
      <button
        type="button"
        className="button primary block"
        disabled={!hydrated}
        onClick={() => void navigate(home)}
      >
        {t('signup.to_dashboard')}
      </button>
    </>
  );
}
