/** /reset-password?email=…&token=…: sets the new password through passwordReset. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordReset } from '../../client/operations/passwordReset.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { confirmPasswordError, passwordErrors } from '../../lib/validation.ts';
import { Providers } from '../shared/Providers.tsx';
import { useHydrated } from '../shared/useHydrated.ts';
import { ErrorAlert } from './ErrorAlert.tsx';
import { PasswordFields } from './PasswordFields.tsx';

/** The island. */
export default function ResetPasswordForm({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Form />
    </Providers>
  );
}

function Form() {
  const hydrated = useHydrated();
  const { t } = useTranslation('account');
  const [link, setLink] = useState<{ email: string; token: string } | null | undefined>(undefined);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [state, setState] = useState<'editing' | 'saving' | 'done'>('editing');
  const [failure, setFailure] = useState<{ code: ServerErrorCode; raw: unknown } | null>(null);
  useEffect(() => {
    const params = new URL(window.location.href).searchParams;
    const email = params.get('email');
    const token = params.get('token');
    setLink(email && token ? { email, token } : null);
  }, []);
  if (link === undefined) return null;
  if (link === null)
    return (
      <div className="alert error" role="alert">
        {t('reset.bad_link')}
      </div>
    );
  if (state === 'done') {
    return (
      <div role="status">
        <h2>{t('reset.done_title')}</h2>
        <p>{t('reset.done_text')}</p>
        <a className="button primary block" href="/login/email">
          {t('reset.to_login')}
        </a>
      </div>
    );
  }
  const errors = passwordErrors(password);
  const mismatch = confirmPasswordError(password, confirm);
  return (
    <form
      className="login-form"
      method="post"
      data-ready={hydrated || undefined}
      data-hydrating={!hydrated || undefined}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setShowErrors(true);
        if (errors.length || mismatch) return;
        setState('saving');
        setFailure(null);
        passwordReset(link.email, link.token, password).then(
          () => setState('done'),
          (err: unknown) => {
            setFailure({ code: serverErrorCode(err), raw: err });
            setState('editing');
          },
        );
      }}
    >
      <p className="lead">{t('reset.intro', { email: link.email })}</p>
      <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
      <input type="email" name="username" autoComplete="username" value={link.email} readOnly hidden />
      <PasswordFields
        password={password}
        confirm={confirm}
        errors={errors}
        confirmError={showErrors ? mismatch : null}
        showErrors={showErrors}
        onPassword={setPassword}
        onConfirm={setConfirm}
      />
      <button
        type="submit"
        className="button primary block"
        disabled={!hydrated || state === 'saving'}
        aria-busy={state === 'saving'}
      >
        {state === 'saving' ? t('reset.saving') : t('reset.submit')}
      </button>
    </form>
  );
}
