/** The selected tenancy's monthly consumption reports (issue 22): each month links to its report and its PDF. */
import { useTranslation } from 'react-i18next';
import { useMonthlyReports } from '../../client/operations/monthlyReports.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';

/** The island. */
export default function MonthlyReportsList({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Reports />
    </Providers>
  );
}

const localeOf = (lang: Language) => (lang === 'en' ? 'en-GB' : lang === 'nb' ? 'nb-NO' : 'da-DK');

function Reports() {
  const { t, i18n } = useTranslation('reports');
  const lang = parseLanguage(i18n.language) ?? 'en';
  const ready = useSession((s) => s.matches({ loggedIn: { tenancy: 'withTenancies' } }));
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  const reports = useMonthlyReports(ready ? selectedId : null);

  if (reports.isPending) return <Spinner label={t('monthly.loading')} />;
  if (reports.isError)
    return (
      <p className="alert error" role="alert">
        {t('monthly.error')}
      </p>
    );
  if (reports.data.length === 0)
    return (
      <div className="empty-state">
        <h2>{t('monthly.empty_title')}</h2>
        <p className="muted">{t('monthly.empty_text')}</p>
      </div>
    );

  const locale = localeOf(lang);
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'Europe/Copenhagen' });
  return (
    <div className="card statements-card">
      <table className="statements-table">
        <caption className="visually-hidden">{t('monthly.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('monthly.col_month')}</th>
            <th scope="col">{t('monthly.col_report')}</th>
            <th scope="col">{t('monthly.col_pdf')}</th>
          </tr>
        </thead>
        <tbody>
          {reports.data.map((r) => {
            const month = monthName.format(new Date(`${r.month}T12:00:00Z`));
            return (
              <tr key={r.month} data-testid="monthly-report-row">
                <th scope="row">
                  {month}
                  <span className="muted small block">
                    {t('monthly.available_until', { date: day.format(new Date(r.expiresAt)) })}
                  </span>
                </th>
                <td>
                  <a className="button secondary" href={`${r.url}?lang=${lang}`}>
                    {t('monthly.open', { month })}
                  </a>
                </td>
                <td>
                  <a href={`${r.url}.pdf?lang=${lang}`} download>
                    {t('monthly.download_pdf', { month })}
                  </a>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
