/**
 * SPEC §2: a signed-in user with a pending activation code gets the add-tenancy modal, or the
 * additional-tenancy modal when they already have tenancies. Adding applies and deletes the code.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addTenancy } from '../../client/operations/addTenancy.ts';
import { openAddedTenancy } from '../../client/operations/openAddedTenancy.ts';
import { clearPendingCodes, pendingActivationCode } from '../../client/pendingCode.ts';
import { type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { useSession } from '../shared/useSession.ts';
import { Modal } from '../shell/Modal.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';

/** The island. */
export default function PendingCodeModal({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <PendingCode />
    </Providers>
  );
}

function PendingCode() {
  const loggedIn = useSession((s) => s.matches('loggedIn'));
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    if (loggedIn) setCode(pendingActivationCode());
  }, [loggedIn]);
  // Only a pending code loads the account texts: every app page has this island.
  return code ? <CodeDialog code={code} onClosed={() => setCode(null)} /> : null;
}

function CodeDialog({ code, onClosed }: { code: string; onClosed: () => void }) {
  const { t } = useTranslation('account');
  const tenancies = useSession((s) => s.context.tenancies);
  const hasTenancies = tenancies.length > 0;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ code: ServerErrorCode; raw: unknown } | null>(null);
  // Closing by the close control, Escape or "Not now" forgets the code (SPEC §3: the code is used once).
  const close = () => {
    clearPendingCodes();
    onClosed();
  };
  return (
    <Modal
      open
      onClose={close}
      title={hasTenancies ? t('modal.additional_title') : t('modal.add_title')}
      closeLabel={t('modal.close')}
      variant="panel"
    >
      <p>{t('modal.text', { code })}</p>
      <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
      <div className="modal-actions">
        <button
          type="button"
          className="button primary"
          disabled={busy}
          aria-busy={busy}
          onClick={async () => {
            setBusy(true);
            setFailure(null);
            try {
              const before = new Set(tenancies.map((x) => x.id));
              await addTenancy(code);
              clearPendingCodes();
              // SPEC §9 toast, on the new tenancy's dashboard (it is selected there).
              await openAddedTenancy(before, t('modal.added'));
            } catch (err) {
              setFailure({ code: serverErrorCode(err), raw: err });
              // SPEC §8: a used code is shown for 3 s, then the modal closes and the code is forgotten.
              if (serverErrorCode(err) === 'tenancy_user_exists') setTimeout(close, 3000);
              setBusy(false);
            }
          }}
        >
          {t('modal.add')}
        </button>{' '}
        <button type="button" className="button secondary" onClick={close}>
          {t('modal.dismiss')}
        </button>
      </div>
    </Modal>
  );
}
