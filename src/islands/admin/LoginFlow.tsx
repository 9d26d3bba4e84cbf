/**
 * /admin/login: email and password, then the second factor (a TOTP code or a recovery code; on the first login
 * the QR code to set it up, then the ten recovery codes, shown once). Driven by the console's session machine.
 */
import { navigate } from 'astro:transitions/client';
import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { getOperatorSession } from '../../client/admin/session.ts';
import { orFallback } from '../../client/i18nKeys.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';

/** The island. */
export default function LoginFlow({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Flow />
    </Providers>
  );
}

/** Where to go after the login: the console page the operator was sent away from, else the portfolio. */
function afterLoginPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/admin(\/[\w\-/]*)?(\?[\w=&%.\-+]*)?$/.test(next) ? next : '/admin';
}

type Step = 'pending' | 'credentials' | 'secondFactor' | 'recoveryCodes' | 'done';

function Flow() {
  const { t } = useTranslation('admin');
  const session = getOperatorSession();
  const step = useSelector(session, (s): Step => {
    if (s.matches({ loggedOut: 'credentials' }) || s.matches({ loggedOut: 'checkingPassword' }))
      return 'credentials';
    if (s.matches({ loggedOut: 'secondFactor' }) || s.matches({ loggedOut: 'checkingCode' }))
      return 'secondFactor';
    if (s.matches({ loggedOut: 'recoveryCodes' })) return 'recoveryCodes';
    if (s.matches('loggedIn')) return 'done';
    return 'pending';
  });
  const busy = useSelector(
    session,
    (s) =>
      s.matches({ loggedOut: 'checkingPassword' }) ||
      s.matches({ loggedOut: 'checkingCode' }) ||
      s.matches('loadingOperator'),
  );
  const error = useSelector(session, (s) => s.context.error);
  const logoutReason = useSelector(session, (s) => s.context.logoutReason);

  useEffect(() => {
    if (step === 'done') void navigate(afterLoginPath(window.location.search), { history: 'replace' });
  }, [step]);

  const expired =
    logoutReason === 'expired' || new URLSearchParams(window.location.search).get('reason') === 'expired';

  return (
    <div className="admin-login" data-step={step}>
      {step === 'credentials' && expired && !error && (
        <p className="alert info" role="status">
          {t('login.expired')}
        </p>
      )}
      {error && (
        <p className="alert error" role="alert">
          {t(orFallback(`errors.${error}`, 'errors.UNKNOWN'))}
        </p>
      )}
      {step === 'credentials' && <Credentials busy={busy} />}
      {step === 'secondFactor' && <SecondFactor busy={busy} />}
      {step === 'recoveryCodes' && <RecoveryCodes />}
      {(step === 'pending' || step === 'done') && <p aria-busy="true">{t('loading')}</p>}
    </div>
  );
}

function Credentials({ busy }: { busy: boolean }) {
  const { t } = useTranslation('admin');
  const emailId = useId();
  const passwordId = useId();
  const email = useSelector(getOperatorSession(), (s) => s.context.email);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    getOperatorSession().send({
      type: 'login.submit',
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    });
  };
  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy}>
      <h1>{t('login.title')}</h1>
      <p className="lead">{t('login.intro')}</p>
      <div className="field">
        <label htmlFor={emailId}>{t('login.email')}</label>
        <input
          id={emailId}
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={email}
          // biome-ignore lint/a11y/noAutofocus: the page's one task; the form is all there is
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor={passwordId}>{t('login.password')}</label>
        <input id={passwordId} name="password" type="password" autoComplete="current-password" required />
      </div>
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t('login.checking') : t('login.submit')}
      </button>
    </form>
  );
}

function SecondFactor({ busy }: { busy: boolean }) {
  const { t } = useTranslation('admin');
  const codeId = useId();
  const setup = useSelector(getOperatorSession(), (s) => s.context.setup);
  const error = useSelector(getOperatorSession(), (s) => s.context.error);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // After a wrong code the field is emptied and focused for the next try.
    if (error && input.current) {
      input.current.value = '';
      input.current.focus();
    }
  }, [error]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '');
    getOperatorSession().send({ type: 'code.submit', code });
  };
  return (
    <form className="stack" onSubmit={onSubmit} aria-busy={busy}>
      <h1>{setup ? t('login.setup_title') : t('login.code_title')}</h1>
      {setup ? (
        <>
          <p className="lead">{t('login.setup_intro')}</p>
          {setup.qrSvg && (
            <img
              className="admin-qr"
              src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
              alt={t('login.qr_alt')}
              width="200"
              height="200"
            />
          )}
          {setup.secret && (
            <p>
              {t('login.setup_secret')} <code data-testid="totp-secret">{setup.secret}</code>
            </p>
          )}
        </>
      ) : (
        <p className="lead">{t('login.code_intro')}</p>
      )}
      <div className="field">
        <label htmlFor={codeId}>{t('login.code')}</label>
        <input
          ref={input}
          id={codeId}
          name="code"
          type="text"
          autoComplete="one-time-code"
          inputMode={setup ? 'numeric' : 'text'}
          required
          maxLength={32}
          // biome-ignore lint/a11y/noAutofocus: the step's one field, reached right after the password
          autoFocus
        />
      </div>
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t('login.checking') : t('login.verify')}
      </button>
      <button
        type="button"
        className="button ghost block"
        onClick={() => getOperatorSession().send({ type: 'login.restart' })}
      >
        {t('login.restart')}
      </button>
    </form>
  );
}

function RecoveryCodes() {
  const { t } = useTranslation('admin');
  const codes = useSelector(getOperatorSession(), (s) => s.context.recoveryCodes) ?? [];
  return (
    <div className="stack">
      <h1>{t('login.codes_title')}</h1>
      <p className="lead">{t('login.codes_intro')}</p>
      <ul className="admin-recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button primary block"
        onClick={() => getOperatorSession().send({ type: 'codes.saved' })}
      >
        {t('login.codes_saved')}
      </button>
    </div>
  );
}
