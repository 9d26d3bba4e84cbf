/**
 * /confirm-email?token=…: confirms an email change on an explicit click, never on opening the page, so a mail
 * link scanner that opens (or even renders) the link cannot confirm it. Every session ends (SPEC §4), so this
 * tab logs out too.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmEmailChange } from '../../client/operations/profile.ts';
import { getSessionActor } from '../../client/session.ts';
import { browserStorage, clearSessionStorage } from '../../client/storage.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { useHydrated } from '../shared/useHydrated.ts';
import { ErrorAlert } from './ErrorAlert.tsx';

/** The island. */
export default function ConfirmEmail({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Confirm />
    </Providers>
  );
}

function Confirm() {
  const { t } = useTranslation('account');
  const hydrated = useHydrated();
  const [state, setState] = useState<'ready' | 'working' | 'done' | ServerErrorCode>('ready');
  const confirm = () => {
    setState('working');
    const token = new URL(window.location.href).searchParams.get('token') ?? '';
    confirmEmailChange(token).then(
      () => {
        clearSessionStorage(browserStorage());
        // Forget the session in memory without navigating away from this message.
        getSessionActor().stop();
        setState('done');
      },
      (err: unknown) => setState(serverErrorCode(err)),
    );
  };
  if (state === 'ready' || state === 'working')
    return (
      <div>
        <p>{t('confirm_email.intro')}</p>
        <button
          type="button"
          className="button primary block"
          onClick={confirm}
          disabled={!hydrated || state === 'working'}
          aria-busy={state === 'working'}
          data-testid="confirm-email"
        >
          {state === 'working' ? t('confirm_email.working') : t('confirm_email.confirm')}
        </button>
      </div>
    );
  if (state === 'done') {
    return (
      <div role="status">
        <p className="alert">{t('confirm_email.done')}</p>
        <a className="button primary block" href="/login/email">
          {t('confirm_email.to_login')}
        </a>
      </div>
    );
  }
  return <ErrorAlert code={state} />;
}
