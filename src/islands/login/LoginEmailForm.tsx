/** The email login form (SPEC §2 /login/email): client-side email check, then login through the session. */

import { navigate } from 'astro:transitions/client';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { homePath, loginThroughSession } from '../../client/session.ts';
import { errorMessageKey } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { type LoginInput, loginFormMachine } from '../../machines/loginForm.machine.ts';
import { Providers } from '../shared/Providers.tsx';

/** The island. */
export default function LoginEmailForm({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Form />
    </Providers>
  );
}

function Form() {
  const { t } = useTranslation(['common', 'domain']);
  const emailId = useId();
  const passwordId = useId();
  const machine = useMemo(
    () =>
      loginFormMachine.provide({
        actors: {
          submitLogin: fromPromise<unknown, LoginInput>(async ({ input }) => {
            const snapshot = await loginThroughSession(input.email, input.password);
            await navigate(homePath(snapshot));
          }),
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine);
  const { email, password, emailError, passwordError, serverError } = state.context;
  const submitting = state.matches('submitting') || state.matches('done');

  useEffect(() => {
    if (emailError) document.getElementById(emailId)?.focus();
  }, [emailError, emailId]);

  return (
    <form
      className="login-form"
      method="post"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        send({ type: 'form.submit' });
      }}
    >
      {serverError && (
        <div className="alert error" role="alert">
          {t(`domain:${errorMessageKey(serverError)}`)}
        </div>
      )}
      <div className="field">
        <label htmlFor={emailId}>{t('login.email')}</label>
        <input
          id={emailId}
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          value={email}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${emailId}-error` : undefined}
          onChange={(e) => send({ type: 'field.change', field: 'email', value: e.target.value })}
        />
        {emailError && (
          <p id={`${emailId}-error`} className="field-error">
            {t(`domain:validation.${emailError}`)}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={passwordId}>{t('login.password')}</label>
        <input
          id={passwordId}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? `${passwordId}-error` : undefined}
          onChange={(e) => send({ type: 'field.change', field: 'password', value: e.target.value })}
        />
        {passwordError && (
          <p id={`${passwordId}-error`} className="field-error">
            {t('login.password_required')}
          </p>
        )}
      </div>
      <button type="submit" className="button primary block" disabled={submitting} aria-busy={submitting}>
        {submitting ? t('login.submitting') : t('login.submit')}
      </button>
    </form>
  );
}
