/**
 * /t/{id}/profile: language, email notifications, change password (needs the current one), change email
 * (needs the password; confirmed by mail, then logged out), leave a tenancy, delete the account.
 */
import { type ReactNode, type SubmitEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { changeLanguage } from '../../client/i18n.ts';
import {
  changePassword,
  deleteAccount,
  leaveTenancy,
  requestEmailChange,
  updateProfile,
} from '../../client/operations/profile.ts';
import { getSessionActor } from '../../client/session.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { confirmPasswordError, normalizeEmail, passwordErrors, validateEmail } from '../../lib/validation.ts';
import { focusFirstInvalid } from '../shared/focusInvalid.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';
import { Modal } from '../shell/Modal.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { PasswordFields } from './PasswordFields.tsx';

/** The island. */
export default function ProfilePage({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Profile />
    </Providers>
  );
}

type Failure = { code: ServerErrorCode; raw: unknown } | null;

/** Runs an action with busy state and the SPEC §8 message on failure. */
function useAction() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(null);
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
      return true;
    } catch (err) {
      setFailure({ code: serverErrorCode(err), raw: err });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} className="card-header">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The account's current password, asked to confirm an email change or the deletion of the account. */
function PasswordField({
  id,
  value,
  onChange,
  missing = false,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  /** Submitted empty: marked invalid, with the message tied to it and announced. */
  missing?: boolean;
}) {
  const { t } = useTranslation(['account', 'domain']);
  return (
    <div className="field">
      <label htmlFor={id}>{t('account:profile.delete_password')}</label>
      <input
        id={id}
        type="password"
        autoComplete="current-password"
        value={value}
        aria-invalid={missing ? true : undefined}
        aria-describedby={missing ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {missing && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {t('domain:validation.password_required')}
        </p>
      )}
    </div>
  );
}

function Profile() {
  const { t } = useTranslation('account');
  const user = useSession((s) => s.context.user);
  if (!user) return <Spinner label={t('loading')} />;
  return (
    <div className="profile">
      <Preferences language={user.language} notifications={user.emailNotifications} />
      <PasswordChange />
      <EmailChange />
      <Tenancies />
      <DeleteAccount email={user.email} hasPassword={user.userType === 'email'} />
    </div>
  );
}

function Preferences({ language, notifications }: { language: string; notifications: boolean }) {
  const { t, i18n } = useTranslation(['account', 'common']);
  const id = useId();
  const [emailOn, setEmailOn] = useState(notifications);
  const { failure, run } = useAction();
  const current = parseLanguage(i18n.language) ?? parseLanguage(language) ?? config.defaultLanguage;
  return (
    <Section title={t('account:profile.title')}>
      <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
      <div className="field">
        <label htmlFor={`${id}-lang`}>{t('account:profile.language')}</label>
        <select
          id={`${id}-lang`}
          value={current}
          onChange={async (e) => {
            const next = parseLanguage(e.target.value);
            if (!next) return;
            if (await run(() => updateProfile({ language: next }))) {
              await changeLanguage(next);
              window.location.reload();
            }
          }}
        >
          {config.languages.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(`common:language.${l}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field checkbox-field">
        <input
          id={`${id}-notify`}
          type="checkbox"
          role="switch"
          checked={emailOn}
          aria-checked={emailOn}
          aria-describedby={`${id}-notify-help`}
          onChange={async (e) => {
            const next = e.target.checked;
            setEmailOn(next);
            if (await run(() => updateProfile({ emailNotifications: next })))
              toast.success(t('account:profile.saved'));
            else setEmailOn(!next);
          }}
        />
        <label htmlFor={`${id}-notify`}>{t('account:profile.notifications')}</label>
        <p id={`${id}-notify-help`} className="muted small">
          {t('account:profile.notifications_help')}
        </p>
      </div>
    </Section>
  );
}

function PasswordChange() {
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const { busy, failure, run } = useAction();
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
            onChange={(e) => setCurrent(e.target.value)}
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
          onPassword={setPassword}
          onConfirm={setConfirm}
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

function EmailChange() {
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<ReturnType<typeof validateEmail>>(null);
  const [passwordMissing, setPasswordMissing] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, failure, run } = useAction();
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
            onChange={(e) => setEmail(e.target.value)}
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

function Tenancies() {
  const { t } = useTranslation('account');
  const tenancies = useSession((s) => s.context.tenancies);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { busy, failure, run } = useAction();
  const leaving = tenancies.find((tenancy) => tenancy.id === confirming) ?? null;
  return (
    <Section title={t('profile.tenancies_title')}>
      <ul className="plain-list">
        {tenancies.map((tenancy) => (
          <li key={tenancy.id} className="row-between">
            <span>{tenancy.apartment.address}</span>
            <button type="button" className="button secondary" onClick={() => setConfirming(tenancy.id)}>
              {t('profile.leave')}
            </button>
          </li>
        ))}
      </ul>
      {leaving && (
        <Modal
          open
          onClose={() => setConfirming(null)}
          title={t('profile.leave')}
          closeLabel={t('modal.close')}
          variant="panel"
        >
          <p>{t('profile.leave_confirm', { address: leaving.apartment.address })}</p>
          <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
          <div className="modal-actions">
            <button
              type="button"
              className="button danger"
              disabled={busy}
              aria-busy={busy}
              onClick={async () => {
                if (await run(() => leaveTenancy(leaving.id))) {
                  toast.success(t('profile.left'));
                  window.location.assign('/t/');
                }
              }}
            >
              {t('profile.confirm')}
            </button>
            <button type="button" className="button secondary" onClick={() => setConfirming(null)}>
              {t('profile.cancel')}
            </button>
          </div>
        </Modal>
      )}
    </Section>
  );
}

function DeleteAccount({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const { t } = useTranslation('account');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const { busy, failure, run } = useAction();
  const matches = typed.trim().toLowerCase() === email;
  return (
    <Section title={t('profile.delete_title')}>
      <p>{t('profile.delete_text')}</p>
      <button type="button" className="button danger" onClick={() => setOpen(true)}>
        {t('profile.delete')}
      </button>
      {open && (
        <Modal
          open
          onClose={() => setOpen(false)}
          title={t('profile.delete_title')}
          closeLabel={t('modal.close')}
          variant="stretch"
        >
          <p>{t('profile.delete_text')}</p>
          <form
            noValidate
            className="login-form"
            onSubmit={async (e) => {
              e.preventDefault();
              if (!matches) return;
              if (await run(() => deleteAccount(hasPassword ? password : null, typed))) {
                toast.success(t('profile.deleted'));
                getSessionActor().send({ type: 'session.logout' });
              }
            }}
          >
            <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
            <div className="field">
              <label htmlFor={`${id}-typed`}>{t('profile.delete_type', { email })}</label>
              <input
                id={`${id}-typed`}
                autoComplete="off"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
            </div>
            {hasPassword && <PasswordField id={`${id}-pw`} value={password} onChange={setPassword} />}
            <div className="modal-actions">
              <button type="submit" className="button danger" disabled={busy || !matches} aria-busy={busy}>
                {t('profile.delete')}
              </button>
              <button type="button" className="button secondary" onClick={() => setOpen(false)}>
                {t('profile.cancel')}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </Section>
  );
}
