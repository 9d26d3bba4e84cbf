/**
 * /t/{id}/profile: language, email notifications, change password (needs the current one), change email
 * (needs the password; confirmed by mail, then logged out), leave a tenancy, delete the account.
 */
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { changeLanguage } from '../../client/i18n.ts';
import { deleteAccount, leaveTenancy, updateProfile } from '../../client/operations/profile.ts';
import { getSessionActor } from '../../client/session.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';
import { Modal } from '../shell/Modal.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { EmailChange } from './profile/EmailChange.tsx';
import { PasswordChange } from './profile/PasswordChange.tsx';
import { PasswordField, Section, useAction } from './profile/parts.tsx';

/** The island. */
export default function ProfilePage({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Profile />
    </Providers>
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
    // The page's heading already says "Profile settings"; the card says what it holds.
    <Section title={t('account:profile.preferences_title')}>
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
