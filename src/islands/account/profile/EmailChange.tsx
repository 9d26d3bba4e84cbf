/** The profile's change-email card. Stale messages go as soon as a field is edited. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestEmailChange } from '../../../client/operations/profile.ts';
import { normalizeEmail, validateEmail } from '../../../lib/validation.ts';
import { focusFirstInvalid } from '../../shared/focusInvalid.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { PasswordField, Section, useAction } from './parts.tsx';

/** Change email: needs the password; a link is mailed to the new address. */
export function EmailChange() {
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<ReturnType<typeof validateEmail>>(null);
  const [passwordMissing, setPasswordMissing] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, failure, run, clear } = useAction();
  return (
    <Section title={t('account:profile.email_title')}>
      <p className="muted">{t('account:profile.email_warning')}</p>
      {sentTo && (
        <p className="alert" role="status">
          {t('account:profile.email_sent', { email: sentTo })}
        </p>
      )}
      <form
        noValidate
        className="login-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const problem = validateEmail(email);
          setFieldError(problem);
          setPasswordMissing(!password);
          if (problem || !password) return focusFirstInvalid(e.currentTarget);
          const target = normalizeEmail(email);
          if (await run(() => requestEmailChange(password, target))) {
            setSentTo(target);
            setPassword('');
          }
        }}
      >
        <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('account:profile.new_email')}</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${id}-email-error` : undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              // The refusal was about the text before this edit.
              setFieldError(null);
              setSentTo(null);
              clear();
            }}
          />
          {fieldError && (
            <p id={`${id}-email-error`} className="field-error" role="alert">
              {t(`domain:validation.${fieldError}`)}
            </p>
          )}
        </div>
        <PasswordField
          id={`${id}-pw`}
          value={password}
          onChange={(value) => {
            setPassword(value);
            if (value) setPasswordMissing(false);
            clear();
          }}
          missing={passwordMissing}
        />
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {t('account:profile.change_email')}
        </button>
      </form>
    </Section>
  );
}
