/** A consumption report notice's comparison (issue 22): each quantity against the month before and last year. */
import { useTranslation } from 'react-i18next';
import type { Notification } from '../../client/operations/notificationQueries.ts';
import type { Language } from '../../lib/languages.ts';
import { changePercent, formatChange } from '../../lib/monthComparison.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { amount } from '../alarms/shared.ts';

/** The table of the month's figures, with the corrected heat comparison below it when known. */
export function ReportComparison({ notification: n, lang }: { notification: Notification; lang: Language }) {
  const { t } = useTranslation(['alarms', 'domain']);
  const cell = (value: number | null | undefined, reference: number | null | undefined, quantity: string) =>
    reference == null
      ? '–'
      : t('notification.report.change', {
          value: amount(reference, quantity, lang),
          change: formatChange(changePercent(value ?? null, reference), lang),
        });
  return (
    <>
      <table className="data-table" data-testid="notification-comparison">
        <thead>
          <tr>
            <th scope="col">{t('notification.report.col_quantity')}</th>
            <th scope="col">{t('notification.report.col_month')}</th>
            <th scope="col">{t('notification.report.col_previous')}</th>
            <th scope="col">{t('notification.report.col_last_year')}</th>
          </tr>
        </thead>
        <tbody>
          {n.comparison.map((c) => (
            <tr key={c.quantity}>
              <th scope="row">{t(quantityKey(c.quantity))}</th>
              <td>{c.value == null ? '–' : amount(c.value, c.quantity, lang)}</td>
              <td>{cell(c.value, c.previousMonth, c.quantity)}</td>
              <td>{cell(c.value, c.sameMonthLastYear, c.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {n.correctedChangePercent != null && (
        <p>{t('notification.report.corrected', { change: formatChange(n.correctedChangePercent, lang) })}</p>
      )}
    </>
  );
}
