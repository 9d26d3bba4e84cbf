/** /login/email/forgot-password: asks for a reset mail; the answer is the same whether or not the email exists. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestPasswordReset } from '../../client/operations/passwordReset.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { normalizeEmail, validateEmail } from '../../lib/validation.ts';
import { Providers } from '../shared/Providers.tsx';
import { typedBeforeHydration, useHydrated } from '../shared/useHydrated.ts';
import { ErrorAlert } from './ErrorAlert.tsx';

/** The island. */
export default function ForgotPasswordForm({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Form />
    </Providers>
  );
}

function Form() {
  const hydrated = useHydrated();
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const [email, setEmail] = useState(() => typedBeforeHydration(id));
  const [fieldError, setFieldError] = useState<ReturnType<typeof validateEmail>>(null);
  const [failure, setFailure] = useState<{ code: ServerErrorCode; raw: unknown } | null>(null);
  const [state, setState] = useState<'editing' | 'sending' | 'sent'>('editing');
  if (state === 'sent') {
    return (
      <div role="status">
        <h2>{t('account:forgot.sent_title')}</h2>
        <p>{t('account:forgot.sent_text', { email: normalizeEmail(email) })}</p>
      </div>
    );
  }
  return (
    <form
      className="login-form"
      method="post"
      data-ready={hydrated || undefined}
      data-hydrating={!hydrated || undefined}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const problem = validateEmail(email);
        setFieldError(problem);
        if (problem) return;
        setState('sending');
        setFailure(null);
        requestPasswordReset(normalizeEmail(email)).then(
          () => setState('sent'),
          (err: unknown) => {
            setFailure({ code: serverErrorCode(err), raw: err });
            setState('editing');
          },
        );
      }}
    >
      <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
      <div className="field">
        <label htmlFor={id}>{t('account:forgot.email')}</label>
        <input
          id={id}
          type="email"
          autoComplete="username"
          inputMode="email"
          value={email}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${id}-error` : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldError(null);
          }}
        />
        {fieldError && (
          <p id={`${id}-error`} className="field-error">
            {t(`domain:validation.${fieldError}`)}
          </p>
        )}
      </div>
      <button
        type="submit"
        className="button primary block"
        disabled={!hydrated || state === 'sending'}
        aria-busy={state === 'sending'}
      >
        {state === 'sending' ? t('account:forgot.sending') : t('account:forgot.submit')}
      </button>
    </form>
  );
}
