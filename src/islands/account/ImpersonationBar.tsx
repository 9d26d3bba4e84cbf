/**
 * The visible "viewing as …" bar of an impersonation session (SPEC §4, §9). The session machine ends the session
 * when its 60 minutes are up; the bar shows whom and until when, and ends it on request.
 */
import { useTranslation } from 'react-i18next';
import { getSessionActor } from '../../client/session.ts';
import { dateLocale, type Language, parseLanguage } from '../../lib/languages.ts';
import type { Impersonation } from '../../machines/session.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { useSession } from '../shared/useSession.ts';

/** The island. */
export default function ImpersonationBar({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Bar />
    </Providers>
  );
}

/** Logs out; the session forgets the impersonation and the tab goes back to its ordinary storage. */
function endImpersonation(): void {
  const session = getSessionActor();
  if (session.getSnapshot().matches('loggedIn')) session.send({ type: 'session.logout' });
}

function Bar() {
  const info = useSession((s) => s.context.impersonation);
  // Only an impersonation loads the account texts: every app page has this island.
  return info ? <BarText info={info} /> : null;
}

function BarText({ info }: { info: Impersonation }) {
  const { t, i18n } = useTranslation('account');
  const lang = parseLanguage(i18n.language) ?? 'en';
  const time = new Intl.DateTimeFormat(dateLocale(lang), { hour: '2-digit', minute: '2-digit' }).format(
    info.endsAt,
  );
  return (
    <div className="impersonation-bar" role="status" data-testid="impersonation-bar">
      <strong>{t('impersonation.viewing_as', { email: info.email })}</strong>{' '}
      <span>{t('impersonation.ends', { time })}</span>{' '}
      <button type="button" className="button secondary" onClick={endImpersonation}>
        {t('impersonation.end')}
      </button>
    </div>
  );
}
