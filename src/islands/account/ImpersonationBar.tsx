/** The visible "viewing as …" bar of an impersonation session, which logs out after 60 minutes (SPEC §4, §9). */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { waitFor } from 'xstate';
import { getSessionActor } from '../../client/session.ts';
import { IMPERSONATION_KEY } from '../../client/storage.ts';
import { dateLocale, type Language, parseLanguage } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import type { ImpersonationInfo } from './Impersonate.tsx';

/** The island. */
export default function ImpersonationBar({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Bar />
    </Providers>
  );
}

function readInfo(): ImpersonationInfo | null {
  try {
    const parsed = JSON.parse(
      sessionStorage.getItem(IMPERSONATION_KEY) ?? 'null',
    ) as Partial<ImpersonationInfo> | null;
    return parsed && typeof parsed.email === 'string' && typeof parsed.endsAt === 'number'
      ? { email: parsed.email, endsAt: parsed.endsAt }
      : null;
  } catch {
    return null;
  }
}

/** Logs out, then lets the tab go back to its ordinary storage. */
async function endImpersonation(): Promise<void> {
  const session = getSessionActor();
  if (session.getSnapshot().matches('loggedIn')) session.send({ type: 'session.logout' });
  await waitFor(session, (s) => s.matches('loggedOut'));
  sessionStorage.removeItem(IMPERSONATION_KEY);
}

function Bar() {
  const [info, setInfo] = useState<ImpersonationInfo | null>(null);
  useEffect(() => {
    const found = readInfo();
    setInfo(found);
    if (!found) return;
    const timer = setTimeout(() => void endImpersonation(), Math.max(0, found.endsAt - Date.now()));
    return () => clearTimeout(timer);
  }, []);
  // Only an impersonation loads the account texts: every app page has this island.
  return info ? <BarText info={info} /> : null;
}

function BarText({ info }: { info: ImpersonationInfo }) {
  const { t, i18n } = useTranslation('account');
  const lang = parseLanguage(i18n.language) ?? 'en';
  const time = new Intl.DateTimeFormat(dateLocale(lang), { hour: '2-digit', minute: '2-digit' }).format(
    info.endsAt,
  );
  return (
    <div className="impersonation-bar" role="status" data-testid="impersonation-bar">
      <strong>{t('impersonation.viewing_as', { email: info.email })}</strong>{' '}
      <span>{t('impersonation.ends', { time })}</span>{' '}
      <button type="button" className="button secondary" onClick={() => void endImpersonation()}>
        {t('impersonation.end')}
      </button>
    </div>
  );
}
