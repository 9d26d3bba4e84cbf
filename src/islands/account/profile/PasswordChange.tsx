/** The profile's change-password card. A refused answer's message goes as soon as a field is edited. */
import { type SubmitEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../../client/operations/profile.ts';
import { getSessionActor } from '../../../client/session.ts';
import { confirmPasswordError, passwordErrors } from '../../../lib/validation.ts';
import { focusFirstInvalid } from '../../shared/focusInvalid.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { PasswordFields } from '../PasswordFields.tsx';
import { Section, useAction } from './parts.tsx';

/** Change password: the current one is required; every session ends, so the user logs in again. */
export function PasswordChange() {
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const { busy, failure, run, clear } = useAction();
  const errors = passwordErrors(password);
  const mismatch = confirmPasswordError(password, confirm);
  const submit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setShowErrors(true);
    if (!current || errors.length || mismatch) return focusFirstInvalid(e.currentTarget);
    if (await run(() => changePassword(current, password))) {
      // Every session ended with the change, this one too: log in again with the new password.
      toast.success(t('profile.password_changed'), { duration: 3000 });
      setTimeout(() => getSessionActor().send({ type: 'session.logout' }), 3000);
    }
  };
  return (
    <Section title={t('profile.password_title')}>
      <form noValidate onSubmit={submit} className="login-form">
        <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
        <div className="field">
          <label htmlFor={`${id}-current`}>{t('profile.current_password')}</label>
          <input
            id={`${id}-current`}
            type="password"
            autoComplete="current-password"
            value={current}
            aria-invalid={showErrors && !current ? true : undefined}
            aria-describedby={showErrors && !current ? `${id}-current-error` : undefined}
            onChange={(e) => {
              setCurrent(e.target.value);
              clear();
            }}
          />
          {showErrors && !current && (
            <p id={`${id}-current-error`} className="field-error" role="alert">
              {t('domain:validation.password_required')}
            </p>
          )}
        </div>
        <PasswordFields
          password={password}
          confirm={confirm}
          errors={errors}
          confirmError={showErrors ? mismatch : null}
          showErrors={showErrors}
          onPassword={(v) => {
            setPassword(v);
            clear();
          }}
          onConfirm={(v) => {
            setConfirm(v);
            clear();
          }}
          passwordLabel={t('profile.new_password')}
          confirmLabel={t('profile.confirm_password')}
        />
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {t('profile.change_password')}
        </button>
      </form>
    </Section>
  );
}
