/**
 * /admin/statements (issue 21): upload allocation statements for a property in the `import-statement` JSON
 * format, one or many files. The server checks them all first (a dry run) and lists each problem with its file
 * and field; only a clean check can be imported, all or nothing. Below: which tenancies have a statement.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { StatementCoverageDocument, UploadStatementsDocument } from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { PropertySelect } from './opsShared.tsx';
import { SettingsError } from './settingsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function Statements({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Page />
    </Providers>
  );
}

type Files = { name: string; text: string }[];

function Page() {
  const { t } = useTranslation('admin-settings');
  const operator = useOperator();
  const [propertyId, setPropertyId] = useState('');
  const coverage = useQuery({
    queryKey: ['admin', 'statementCoverage', propertyId],
    queryFn: () => adminRequest(StatementCoverageDocument, { propertyId }),
    enabled: operator !== null && propertyId !== '',
  });
  return (
    <div className="stack settings-page">
      <div className="card">
        <PropertySelect value={propertyId} onChange={setPropertyId} />
      </div>
      {propertyId && <Upload key={propertyId} propertyId={propertyId} />}
      {propertyId && coverage.isError && <SettingsError code={coverage.error.message} />}
      {propertyId && !coverage.data && !coverage.isError && <Spinner label={t('loading')} />}
      {coverage.data && (
        <section className="card admin-table-wrap" aria-labelledby="coverage-title">
          <h2 id="coverage-title">{t('statements.coverage_title')}</h2>
          <table className="admin-table" data-testid="coverage-table">
            <caption className="visually-hidden">{t('statements.coverage_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('statements.tenancy')}</th>
                <th scope="col">{t('statements.apartment')}</th>
                <th scope="col">{t('statements.tenancy_dates')}</th>
                <th scope="col">{t('statements.period')}</th>
              </tr>
            </thead>
            <tbody>
              {coverage.data.statementCoverage.map((c) => (
                <tr key={c.tenancyId} data-testid={`coverage-${c.reference}`}>
                  <th scope="row">{c.reference}</th>
                  <td>{c.apartment}</td>
                  <td className="settings-nowrap-cell">
                    {c.start} – {c.end ?? ''}
                  </td>
                  <td>
                    {c.statements.length === 0
                      ? t('statements.none')
                      : c.statements.map((s) => (
                          <span key={s.id} className="settings-nowrap">
                            {s.periodStart} – {s.periodEnd}
                            <span className="admin-subtle">
                              {s.balance} {s.currency}
                            </span>
                          </span>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

function Upload({ propertyId }: { propertyId: string }) {
  const { t } = useTranslation('admin-settings');
  const id = useId();
  const client = useQueryClient();
  const [files, setFiles] = useState<Files>([]);
  const run = useMutation({
    mutationFn: async (dryRun: boolean) =>
      (await adminRequest(UploadStatementsDocument, { propertyId, files, dryRun })).uploadStatements,
    onSuccess: async (r) => {
      if (r.imported > 0)
        await client.invalidateQueries({ queryKey: ['admin', 'statementCoverage', propertyId] });
    },
  });
  const result = run.data;
  const checkedOk = result?.ok === true && result.imported === 0;
  const choose = async (list: FileList | null) => {
    run.reset();
    setFiles(await Promise.all([...(list ?? [])].map(async (f) => ({ name: f.name, text: await f.text() }))));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run.mutate(!checkedOk);
  };
  return (
    <form className="card stack" aria-labelledby={`${id}-t`} onSubmit={submit} data-testid="upload-form">
      <h2 id={`${id}-t`}>{t('statements.upload_title')}</h2>
      <div className="field">
        <label htmlFor={`${id}-f`}>{t('statements.files')}</label>
        <input
          id={`${id}-f`}
          type="file"
          accept="application/json,.json"
          multiple
          aria-describedby={`${id}-h`}
          onChange={(e) => void choose(e.target.files)}
        />
        <p id={`${id}-h`} className="admin-subtle">
          {t('statements.files_hint')}
        </p>
        {files.length > 0 && <p>{t('statements.chosen', { count: files.length })}</p>}
      </div>
      <SettingsError code={run.error?.message} />
      <div aria-live="polite">
        {result && result.imported > 0 && (
          <p className="alert success" role="status">
            {t('statements.imported', { count: result.imported })}
          </p>
        )}
        {checkedOk && (
          <p className="alert info" role="status">
            {t('statements.valid', { count: result.statements.length })}
          </p>
        )}
        {result && !result.ok && (
          <div className="alert error" role="alert">
            <p>{t('statements.problems_title')}</p>
          </div>
        )}
      </div>
      {result && !result.ok && (
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="problems-table">
            <caption className="visually-hidden">{t('statements.problems_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('statements.file')}</th>
                <th scope="col">{t('statements.field')}</th>
                <th scope="col">{t('statements.problem')}</th>
              </tr>
            </thead>
            <tbody>
              {result.problems.map((p, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id and never reorder
                <tr key={i}>
                  <td>{p.file}</td>
                  <td>
                    <code>{p.field}</code>
                  </td>
                  <td>{p.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result && result.statements.length > 0 && result.imported === 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="checked-table">
            <caption className="visually-hidden">{t('statements.checked_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('statements.file')}</th>
                <th scope="col">{t('statements.tenancy')}</th>
                <th scope="col">{t('statements.period')}</th>
                <th scope="col" className="num">
                  {t('statements.balance')}
                </th>
              </tr>
            </thead>
            <tbody>
              {result.statements.map((s) => (
                <tr key={`${s.file} ${s.tenancy} ${s.periodStart}`}>
                  <td>{s.file}</td>
                  <th scope="row">{s.tenancy}</th>
                  <td>
                    {s.periodStart} – {s.periodEnd}
                  </td>
                  <td className="num">
                    {s.balance} {s.currency}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="settings-actions">
        <button type="submit" className="button primary" disabled={files.length === 0 || run.isPending}>
          {checkedOk ? t('statements.import', { count: result.statements.length }) : t('statements.check')}
        </button>
      </div>
    </form>
  );
}
