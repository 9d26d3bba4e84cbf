/** What the console's settings pages share (issue 21): error texts, the impact of a change, the confirm step. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RateImpactFieldsFragment as Impact } from '../../client/gql/admin.ts';
import { orFallback } from '../../client/i18nKeys.ts';
import './settings.css';

/** A backend error code as the operator reads it (admin-settings.json, then admin-ops.json, then admin.json). */
export function SettingsError({ code }: { code: string | null | undefined }) {
  const { t } = useTranslation(['admin-settings', 'admin-ops', 'admin']);
  if (!code) return null;
  return (
    <p className="alert error" role="alert">
      {t(
        orFallback(
          [`admin-settings:errors.${code}`, `admin-ops:errors.${code}`, `admin:errors.${code}`],
          'admin:errors.UNKNOWN',
        ),
      )}
    </p>
  );
}

/** "2025-03 – 2026-11 (21 months)" or the single month. */
function monthRange(months: string[]): string {
  if (months.length === 0) return '';
  return months.length === 1 ? months[0]! : `${months[0]} – ${months[months.length - 1]}`;
}

/** What a change touches: the months, the tenancies, the reports already sent. */
export function ImpactPanel({ impact }: { impact: Impact }) {
  const { t } = useTranslation('admin-settings');
  const titleId = useId();
  return (
    <section className="settings-impact" aria-labelledby={titleId} data-testid="impact">
      <h3 id={titleId}>{t('impact.title')}</h3>
      <p>
        {impact.months.length > 0
          ? t('impact.months', { count: impact.months.length, range: monthRange(impact.months) })
          : t('impact.no_months')}{' '}
        {impact.alsoFuture && t('impact.also_future')}
      </p>
      {impact.tenancies.length === 0 ? (
        <p>{t('impact.no_tenancies')}</p>
      ) : (
        <>
          <p>{t('impact.tenancies', { count: impact.tenancies.length })}</p>
          <ul className="settings-impact-list">
            {impact.tenancies.map((x) => (
              <li key={x.id}>
                <strong>{x.reference}</strong> · {x.apartment} ·{' '}
                {x.end
                  ? t('impact.dates', { start: x.start, end: x.end })
                  : t('impact.since', { start: x.start })}
              </li>
            ))}
          </ul>
        </>
      )}
      {impact.issuedReports > 0 && <p>{t('impact.issued_reports', { count: impact.issuedReports })}</p>}
    </section>
  );
}

/** The confirmation a change of figures already shown needs: a checkbox and a reason of 5–500 characters. */
export function ConfirmChange({
  confirmed,
  reason,
  onConfirmed,
  onReason,
}: {
  confirmed: boolean;
  reason: string;
  onConfirmed: (v: boolean) => void;
  onReason: (v: string) => void;
}) {
  const { t } = useTranslation('admin-settings');
  const id = useId();
  return (
    <div className="stack settings-confirm">
      <p className="alert warning">{t('confirm.warning')}</p>
      <label className="admin-check" htmlFor={`${id}-c`}>
        <input
          id={`${id}-c`}
          type="checkbox"
          checked={confirmed}
          onChange={(e) => onConfirmed(e.target.checked)}
        />
        {t('confirm.checkbox')}
      </label>
      <div className="field">
        <label htmlFor={`${id}-r`}>{t('confirm.reason')}</label>
        <textarea
          id={`${id}-r`}
          rows={2}
          maxLength={500}
          value={reason}
          aria-describedby={`${id}-h`}
          onChange={(e) => onReason(e.target.value)}
        />
        <p id={`${id}-h`} className="admin-subtle">
          {t('confirm.reason_hint')}
        </p>
      </div>
    </div>
  );
}

/** Whether a confirmation is complete. */
export const confirmationReady = (confirmed: boolean, reason: string) =>
  confirmed && reason.trim().length >= 5 && reason.trim().length <= 500;
