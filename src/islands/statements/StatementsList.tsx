/** SPEC §2 statements: the selected tenancy's allocation statements, with an authorised PDF download. */
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { authorizedGet } from '../../client/graphql.ts';
import { orFallback } from '../../client/i18nKeys.ts';
import {
  type AllocationStatementSummary,
  useAllocationStatements,
} from '../../client/operations/allocationStatements.ts';
import { moneyFormat } from '../../lib/format.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';

/** The island. */
export default function StatementsList({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Statements />
    </Providers>
  );
}

const localeOf = (lang: Language) => (lang === 'en' ? 'en-GB' : lang === 'nb' ? 'nb-NO' : 'da-DK');

function Statements() {
  const { t, i18n } = useTranslation(['reports', 'common']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const ready = useSession((s) => s.matches({ loggedIn: { tenancy: 'withTenancies' } }));
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  const statements = useAllocationStatements(ready ? selectedId : null);

  if (statements.isPending) return <Spinner label={t('statements.loading')} />;
  if (statements.isError)
    return (
      <p className="alert error" role="alert">
        {t('statements.error')}
      </p>
    );
  if (statements.data.length === 0)
    return (
      <div className="empty-state">
        <img src="/illustrations/no-allocations.svg" alt="" width="200" height="140" />
        <h2>{t('statements.empty_title')}</h2>
        <p className="muted">{t('statements.empty_text')}</p>
      </div>
    );

  const date = new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (d: string) => date.format(new Date(`${d}T12:00:00Z`));
  return (
    <div className="card statements-card">
      <table className="statements-table">
        <caption className="visually-hidden">{t('statements.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('statements.col_period')}</th>
            <th scope="col">{t('statements.col_expense_types')}</th>
            <th scope="col">{t('statements.col_balance')}</th>
            <th scope="col">{t('statements.col_download')}</th>
          </tr>
        </thead>
        <tbody>
          {statements.data.map((s) => {
            const period = `${day(s.periodStartDate)} – ${day(s.periodEndDate)}`;
            return (
              <tr key={s.id} data-testid="statement-row">
                <th scope="row">
                  {period}
                  <span className="muted small block">
                    {t('statements.object_until', { date: day(s.objectionDeadline) })}
                  </span>
                </th>
                <td>
                  {s.expenseTypes
                    .map((type) => t(orFallback(`expense.${type}`, 'expense_unknown'), { type }))
                    .join(', ')}
                </td>
                <td className="numeric">
                  <Balance statement={s} lang={lang} />
                </td>
                <td>
                  <DownloadButton statement={s} period={period} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Balance({ statement, lang }: { statement: AllocationStatementSummary; lang: Language }) {
  const { t } = useTranslation('reports');
  const value = Number(statement.balance);
  const amount = moneyFormat(statement.currency, lang).format(Math.abs(value));
  return <>{value >= 0 ? t('statements.to_pay', { amount }) : t('statements.refund', { amount })}</>;
}

/** Fetches the PDF with the bearer token and hands it to the browser as a file; no public file URL exists. */
function DownloadButton({ statement, period }: { statement: AllocationStatementSummary; period: string }) {
  const { t, i18n } = useTranslation('reports');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const response = await authorizedGet('account', `${statement.url}?lang=${i18n.language}`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = statement.fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      toast.error(t('statements.download_failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    // The accessible name starts with the visible text (WCAG 2.5.3) and says which period's statement it is.
    <button type="button" className="button secondary" onClick={download} disabled={busy}>
      {t('statements.download')} <span className="visually-hidden">({period})</span>
    </button>
  );
}
