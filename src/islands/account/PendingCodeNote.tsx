/** Tells a signing-up user that their activation code (from the link) will be used. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { captureActivationCode, pendingActivationCode } from '../../client/pendingCode.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';

/** The island. */
export default function PendingCodeNote({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Note />
    </Providers>
  );
}

const grouped = (code: string) => code.replace(/(.{4})(?=.)/g, '$1-');

function Note() {
  const { t } = useTranslation('account');
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    captureActivationCode(new URL(window.location.href));
    setCode(pendingActivationCode());
  }, []);
  return (
    <p className={code ? 'alert' : 'muted small'} data-testid="pending-code">
      {code ? t('signup.code_pending', { code: grouped(code) }) : t('signup.no_code')}
    </p>
  );
}
