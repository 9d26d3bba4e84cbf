/** What the profile's sections share: an action with busy state and failure, the card, the password field. */
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ServerErrorCode, serverErrorCode } from '../../../lib/errors.ts';

export type Failure = { code: ServerErrorCode; raw: unknown } | null;

/** Runs an action with busy state and the SPEC §8 message on failure. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(null);
  /** Forgets the last failure: the user changed what was refused, so its message no longer applies. */
  const clear = () => setFailure(null);
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
  return { busy, failure, run, clear };
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
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
export function PasswordField({
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
