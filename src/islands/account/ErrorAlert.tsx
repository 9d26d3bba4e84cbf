/** A server error as SPEC §8's message in the user's language (with the wait of a throttle answer). */
import { useTranslation } from 'react-i18next';
import { errorMessageKey, retryAfterMinutes, type ServerErrorCode } from '../../lib/errors.ts';

/** Shows the message for a code; `raw` is the thrown error, for the throttle's minutes. */
export function ErrorAlert({
  code,
  raw,
  text,
}: {
  code: ServerErrorCode | null;
  raw?: unknown;
  text?: string | null;
}) {
  const { t } = useTranslation('domain');
  if (!code) return null;
  return (
    <div className="alert error" role="alert">
      {text ?? t(errorMessageKey(code), { minutes: retryAfterMinutes(raw), count: retryAfterMinutes(raw) })}
    </div>
  );
}
