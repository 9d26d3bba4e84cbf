/** What the console's property and meter pages share (issue 21): their error texts and times. */

import { useTranslation } from 'react-i18next';
import { Temporal } from 'temporal-polyfill';
import { orFallback } from '../../client/i18nKeys.ts';
import { TIME_ZONE } from '../../lib/periods.ts';

/** A failed request's code and, for an upload or a swap, the backend's details. */
export function errorOf(error: unknown): { code: string; problems: string[]; message: string } | null {
  if (!error) return null;
  const err = error as Error & { extensions?: { problems?: unknown } };
  const problems = Array.isArray(err.extensions?.problems) ? err.extensions.problems.map(String) : [];
  return { code: err.message, problems, message: '' };
}

/** A backend or form error code as the operator reads it, with the lines of an upload's problems. */
export function PropsError({
  code,
  problems = [],
  detail,
}: {
  code: string | null | undefined;
  problems?: string[];
  detail?: string;
}) {
  const { t } = useTranslation(['admin-props', 'admin-ops', 'admin']);
  if (!code) return null;
  return (
    <div className="alert error" role="alert">
      <p>
        {t(
          orFallback(
            [`admin-props:errors.${code}`, `admin-ops:errors.${code}`, `admin:errors.${code}`],
            'admin:errors.UNKNOWN',
          ),
        )}
        {detail ? ` ${detail}` : ''}
      </p>
      {problems.length > 0 && (
        <ul aria-label={t('admin-props:upload.problems')} data-testid="upload-problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** An instant as the value of a datetime-local field, in the console's time zone (as `when` shows instants). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  return Temporal.Instant.from(iso).toZonedDateTimeISO(TIME_ZONE).toPlainDateTime().toString().slice(0, 16);
}

/** A datetime-local field's value, read in the console's time zone, as an instant ('' when it is not one). */
export function fromLocalInput(local: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return '';
  try {
    return Temporal.PlainDateTime.from(local).toZonedDateTime(TIME_ZONE).toInstant().toString();
  } catch {
    return '';
  }
}
