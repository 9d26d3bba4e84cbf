/**
 * An activation code the server refused before any account was made: SPEC §8's message and the way on. A used
 * code ("A user already exists on the tenancy") shows for 3 seconds and then goes to login.
 */
import { navigate } from 'astro:transitions/client';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey, type ServerErrorCode } from '../../lib/errors.ts';

/** How long SPEC §8's "A user already exists on the tenancy" stays before login. */
const USED_CODE_MS = 3000;

/** The message, with a link to login (used code) or to enter another code. */
export function CodeRefused({ code }: { code: ServerErrorCode }) {
  const { t } = useTranslation(['account', 'domain']);
  const used = code === 'tenancy_user_exists';
  useEffect(() => {
    if (!used) return;
    const timer = window.setTimeout(() => void navigate('/login'), USED_CODE_MS);
    return () => window.clearTimeout(timer);
  }, [used]);
  return (
    <div className="alert error" role="alert" data-testid="code-refused">
      <p>{t(`domain:${errorMessageKey(code)}`)}</p>
      {used ? (
        <a href="/login">{t('account:signup.log_in')}</a>
      ) : (
        <a href="/signup/enter-code">{t('account:signup.have_code')}</a>
      )}
    </div>
  );
}
