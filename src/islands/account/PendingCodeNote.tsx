/**
 * Tells a signing-up user about their activation code (from the link): it is checked with the server first, so
 * a used or invalid code is said at once, before any account is made, and only a good one "will be used".
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validateActivationCode } from '../../client/operations/validateActivationCode.ts';
import {
  captureActivationCode,
  clearPendingCodes,
  pendingActivationCode,
  storeValidatedCode,
  UNVALIDATED_CODE_KEY,
} from '../../client/pendingCode.ts';
import { browserStorage, readString } from '../../client/storage.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { CodeRefused } from './CodeRefused.tsx';

/** The island. */
export default function PendingCodeNote({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Note />
    </Providers>
  );
}

const grouped = (code: string) => code.replace(/(.{4})(?=.)/g, '$1-');

type State = { code: string | null; refused: ServerErrorCode | null; checking: boolean };

function Note() {
  const { t } = useTranslation('account');
  const [state, setState] = useState<State>({ code: null, refused: null, checking: true });
  useEffect(() => {
    captureActivationCode(new URL(window.location.href));
    const code = pendingActivationCode();
    const unvalidated = readString(browserStorage(), UNVALIDATED_CODE_KEY);
    if (!code || !unvalidated) return setState({ code, refused: null, checking: false });
    let live = true;
    validateActivationCode(code)
      .then((result) => {
        if (!live) return;
        if (result.ok) {
          storeValidatedCode(code);
          setState({ code, refused: null, checking: false });
        } else {
          clearPendingCodes();
          const reason = serverErrorCode(result.text);
          setState({
            code: null,
            refused: reason === 'unknown' ? 'activation_code_invalid' : reason,
            checking: false,
          });
        }
      })
      // A failed check (network, throttle) leaves the code to the check at account creation.
      .catch(() => live && setState({ code, refused: null, checking: false }));
    return () => {
      live = false;
    };
  }, []);
  if (state.refused) return <CodeRefused code={state.refused} />;
  return (
    <p className={state.code ? 'alert' : 'muted small'} data-testid="pending-code" aria-busy={state.checking}>
      {state.code
        ? t('signup.code_pending', { code: grouped(state.code) })
        : state.checking
          ? ''
          : t('signup.no_code')}
    </p>
  );
}
