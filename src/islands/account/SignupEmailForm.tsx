/** /signup/email: the email step of signup; the password follows on /signup/set-password. */
import { navigate } from 'astro:transitions/client';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../lib/languages.ts';
import { normalizeEmail, validateEmail } from '../../lib/validation.ts';
import { Providers } from '../shared/Providers.tsx';
import { typedBeforeHydration, useHydrated } from '../shared/useHydrated.ts';

/** Where the email waits between the two signup steps (this tab only). */
export const SIGNUP_EMAIL_KEY = 'signupEmail';

/** The island. */
export default function SignupEmailForm({ lang }: { lang: Language }) {
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
  const [email, setEmail] = useState(
    () =>
      typedBeforeHydration(id) ||
      (typeof window === 'undefined' ? '' : (sessionStorage.getItem(SIGNUP_EMAIL_KEY) ?? '')),
  );
  const [error, setError] = useState<ReturnType<typeof validateEmail>>(null);
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
        setError(problem);
        if (problem) {
          document.getElementById(id)?.focus();
          return;
        }
        sessionStorage.setItem(SIGNUP_EMAIL_KEY, normalizeEmail(email));
        void navigate('/signup/set-password');
      }}
    >
      <div className="field">
        <label htmlFor={id}>{t('account:signup.email')}</label>
        <input
          id={id}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} className="field-error">
            {t(`domain:validation.${error}`)}
          </p>
        )}
      </div>
      <button type="submit" className="button primary block" disabled={!hydrated}>
        {t('account:signup.continue')}
      </button>
    </form>
  );
}
