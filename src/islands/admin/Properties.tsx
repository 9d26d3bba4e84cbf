/**
 * /admin/properties: the properties the operator reaches, and, for an organisation admin, onboarding one from an
 * `import-property` file (JSON or CSV), validated whole on the server: a bad file lists every problem by line
 * and field, and writes nothing.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { ImportPropertyFileDocument, type PropertyFileFormat } from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useProperties } from './opsShared.tsx';
import { errorOf, PropsError } from './propsShared.tsx';
import { useOperator } from './useOperator.ts';
import './props.css';

export default function Properties({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <PropertiesPage />
    </Providers>
  );
}

function PropertiesPage() {
  const { t } = useTranslation('admin-props');
  const operator = useOperator();
  const properties = useProperties();
  if (properties.isError) return <PropsError code={properties.error.message} />;
  if (!properties.data) return <Spinner label={t('loading')} />;
  const list = properties.data.properties;
  return (
    <div className="stack">
      {operator?.role === 'ORG_ADMIN' && <Upload />}
      {list.length === 0 ? (
        <p className="muted">{t('list.empty')}</p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table" data-testid="properties-table">
            <caption className="visually-hidden">{t('list.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('list.number')}</th>
                <th scope="col">{t('list.name')}</th>
                <th scope="col">{t('list.address')}</th>
                <th scope="col">{t('list.city')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    <a
                      href={`/admin/property?id=${p.id}`}
                      aria-label={t('list.open_named', { number: p.number })}
                    >
                      {p.number}
                    </a>
                  </th>
                  <td>{p.name || '—'}</td>
                  <td>{p.address}</td>
                  <td>
                    {p.zipcode} {p.city}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Upload() {
  const { t } = useTranslation('admin-props');
  const client = useQueryClient();
  const [format, setFormat] = useState<PropertyFileFormat>('CSV');
  const [content, setContent] = useState('');
  const upload = useMutation({
    mutationFn: () => adminRequest(ImportPropertyFileDocument, { format, content }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'properties'] }),
  });
  const failure = errorOf(upload.error);
  const done = upload.data?.importPropertyFile;
  return (
    <form
      className="card stack props-upload"
      aria-labelledby="upload-title"
      onSubmit={(e) => {
        e.preventDefault();
        upload.mutate();
      }}
    >
      <h2 id="upload-title">{t('upload.title')}</h2>
      <p className="muted">{t('upload.intro')}</p>
      <div className="field">
        <label htmlFor="upload-format">{t('upload.format')}</label>
        <select
          id="upload-format"
          value={format}
          onChange={(e) => setFormat(e.target.value as PropertyFileFormat)}
        >
          <option value="CSV">CSV</option>
          <option value="JSON">JSON</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="upload-file">{t('upload.file')}</label>
        <input
          id="upload-file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setFormat(file.name.toLowerCase().endsWith('.json') ? 'JSON' : 'CSV');
            setContent(await file.text());
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="upload-content">{t('upload.content')}</label>
        <textarea
          id="upload-content"
          rows={6}
          required
          aria-describedby="upload-content-hint"
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
        <p id="upload-content-hint" className="admin-subtle">
          {t('upload.content_hint')}
        </p>
      </div>
      <PropsError code={failure?.code} problems={failure?.problems} />
      {done && (
        <div className="alert success" role="status">
          <p>
            {t('upload.done', {
              apartments: done.apartments,
              points: done.measurementPoints,
              meters: done.meters,
              tenancies: done.tenancies,
            })}
          </p>
          <a href={`/admin/property?id=${done.propertyId}`}>{t('upload.open_new')}</a>
        </div>
      )}
      <div className="admin-toolbar">
        <button type="submit" className="button primary" disabled={upload.isPending}>
          {upload.isPending ? t('saving') : t('upload.submit')}
        </button>
      </div>
    </form>
  );
}
