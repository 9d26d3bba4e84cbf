/**
 * The activation-code form (activationForm machine): on /signup/enter-code it keeps the validated code for
 * signup; on /no-tenancies (signed in) it adds the tenancy at once and opens the dashboard.
 */
import { navigate } from 'astro:transitions/client';
import { useMachine } from '@xstate/react';
import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { addTenancy } from '../../client/operations/addTenancy.ts';
import { openAddedTenancy } from '../../client/operations/openAddedTenancy.ts';
import { validateActivationCode } from '../../client/operations/validateActivationCode.ts';
import { clearPendingCodes, pendingActivationCode, storeValidatedCode } from '../../client/pendingCode.ts';
import { errorMessageKey, type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { activationFormMachine } from '../../machines/activationForm.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';

type Mode = 'signup' | 'signedIn';

/** The island. */
export default function EnterCodeForm({ lang, mode }: { lang: Language; mode: Mode }) {
  return (
    <Providers lang={lang}>
      <Form mode={mode} />
    </Providers>
  );
}

function Form({ mode }: { mode: Mode }) {
  const { t } = useTranslation(['account', 'domain']);
  // The toast's text in the current language, read when the code is added (the machine is made once).
  const addedText = useRef('');
  addedText.current = t('account:modal.added');
  const id = useId();
  const [addError, setAddError] = useState<{ code: ServerErrorCode; raw: unknown } | null>(null);
  const machine = useMemo(
    () =>
      activationFormMachine.provide({
        actors: {
          validateActivationCode: fromPromise(async ({ input }: { input: { code: string } }) => {
            const result = await validateActivationCode(input.code);
            if (!result.ok) return result;
            if (mode === 'signup') {
              storeValidatedCode(input.code);
              await navigate('/signup/email');
              return result;
            }
            try {
              await addTenancy(input.code);
            } catch (err) {
              setAddError({ code: serverErrorCode(err), raw: err });
              throw err;
            }
            clearPendingCodes();
            // A full load, so the session reads the new tenancy list; the new tenancy is opened, with a toast.
            await openAddedTenancy(new Set(), addedText.current);
            return result;
          }),
        },
      }),
    [mode],
  );
  const [state, send] = useMachine(machine, { input: { code: pendingActivationCode() ?? '' } });
  const { code, codeError, serverError, serverText } = state.context;
  const busy = state.matches('submitting') || state.matches('done');
  // The rejection text is shown as returned, in the user's language when it is one of SPEC §8's texts.
  const known = serverText ? serverErrorCode(serverText) : null;
  const rejection =
    serverText && known && known !== 'unknown' ? t(`domain:${errorMessageKey(known)}`) : serverText;
  return (
    <form
      className="login-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setAddError(null);
        send({ type: 'form.submit' });
      }}
    >
      {addError ? (
        <ErrorAlert code={addError.code} raw={addError.raw} />
      ) : (
        <ErrorAlert code={serverError} text={rejection} />
      )}
      <div className="field">
        <label htmlFor={id}>{t('account:signup.code')}</label>
        <input
          id={id}
          name="activationCode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          aria-invalid={codeError ? true : undefined}
          aria-describedby={codeError ? `${id}-error` : undefined}
          onChange={(e) => send({ type: 'field.change', field: 'code', value: e.target.value })}
        />
        {codeError && (
          <p id={`${id}-error`} className="field-error">
            {t(`domain:validation.${codeError}`)}
          </p>
        )}
      </div>
      <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
        {busy
          ? t('account:signup.checking')
          : mode === 'signup'
            ? t('account:signup.check_code')
            : t('account:signup.add_code')}
      </button>
    </form>
  );
}
