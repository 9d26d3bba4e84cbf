/**
 * /signup/set-password (signupForm machine): creates the account, adds the pending activation code with the
 * new account's token, then logs in through the session on both backends and shows account-created.
 */
import { navigate } from 'astro:transitions/client';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { addTenancy } from '../../client/operations/addTenancy.ts';
import { createEmailPasswordUser } from '../../client/operations/signup.ts';
import { validateActivationCode } from '../../client/operations/validateActivationCode.ts';
import { clearPendingCodes, pendingActivationCode } from '../../client/pendingCode.ts';
import { loginThroughSession } from '../../client/session.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { type SignupInput, signupFormMachine } from '../../machines/signupForm.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { useHydrated } from '../shared/useHydrated.ts';
import { CodeRefused } from './CodeRefused.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { PasswordFields } from './PasswordFields.tsx';
import { SIGNUP_EMAIL_KEY } from './SignupEmailForm.tsx';

/** Set when the account was made but its code was refused; account-created shows it (SPEC §8 toast row). */
export const SIGNUP_CODE_ERROR_KEY = 'signupCodeError';

/** The island. */
export default function SetPasswordForm({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Form lang={lang} />
    </Providers>
  );
}

function Form({ lang }: { lang: Language }) {
  const hydrated = useHydrated();
  const { t } = useTranslation(['account', 'domain']);
  const [raw, setRaw] = useState<unknown>(null);
  const [refused, setRefused] = useState<ServerErrorCode | null>(null);
  const machine = useMemo(
    () =>
      signupFormMachine.provide({
        actors: {
          submitSignup: fromPromise<unknown, SignupInput>(async ({ input }) => {
            try {
              // A used or invalid code is refused before the account is made: no account without its tenancy.
              const pending = pendingActivationCode();
              const check = pending ? await validateActivationCode(pending) : null;
              if (check && !check.ok) {
                clearPendingCodes();
                const reason = serverErrorCode(check.text);
                setRefused(reason === 'unknown' ? 'activation_code_invalid' : reason);
                return;
              }
              const token = await createEmailPasswordUser(input.email, input.password, lang);
              const code = pendingActivationCode();
              if (code) {
                try {
                  await addTenancy(code, token);
                } catch (err) {
                  sessionStorage.setItem(SIGNUP_CODE_ERROR_KEY, serverErrorCode(err));
                }
                clearPendingCodes();
              }
              await loginThroughSession(input.email, input.password);
              sessionStorage.removeItem(SIGNUP_EMAIL_KEY);
              await navigate('/signup/account-created');
            } catch (err) {
              setRaw(err);
              throw err;
            }
          }),
        },
      }),
    [lang],
  );
  const [state, send] = useMachine(machine);
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    const stored = sessionStorage.getItem(SIGNUP_EMAIL_KEY);
    if (!stored) {
      void navigate('/signup/email', { history: 'replace' });
      return;
    }
    setEmail(stored);
    send({ type: 'field.change', field: 'email', value: stored });
  }, [send]);
  const c = state.context;
  const busy = state.matches('submitting') || state.matches('done');
  if (refused) return <CodeRefused code={refused} />;
  if (!email) return null;
  return (
    <form
      className="login-form"
      method="post"
      data-ready={hydrated || undefined}
      data-hydrating={!hydrated || undefined}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'form.submit' });
      }}
    >
      <p className="lead">{t('account:signup.password_intro', { email })}</p>
      <ErrorAlert code={c.serverError} raw={raw} />
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordFields
        password={c.password}
        confirm={c.confirmPassword}
        errors={c.passwordErrors}
        confirmError={c.showErrors ? c.confirmError : null}
        showErrors={c.showErrors}
        onPassword={(value) => send({ type: 'field.change', field: 'password', value })}
        onConfirm={(value) => send({ type: 'field.change', field: 'confirmPassword', value })}
      />
      <button type="submit" className="button primary block" disabled={!hydrated || busy} aria-busy={busy}>
        {busy ? t('account:signup.creating') : t('account:signup.create')}
      </button>
    </form>
  );
}
