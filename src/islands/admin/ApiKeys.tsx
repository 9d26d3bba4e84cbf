/** /admin/api-keys: the ingestion API's keys of the operator's properties: create (shown once), revoke. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { ApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument } from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, useProperties, when } from './opsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function ApiKeys({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Keys lang={lang} />
    </Providers>
  );
}

function Keys({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const operator = useOperator();
  const client = useQueryClient();
  const properties = useProperties();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const keys = useQuery({
    queryKey: ['admin', 'apiKeys'],
    queryFn: () => adminRequest(ApiKeysDocument, {}),
    enabled: operator !== null,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['admin', 'apiKeys'] });
  const create = useMutation({
    mutationFn: () => adminRequest(CreateApiKeyDocument, { name: name.trim(), propertyIds: chosen }),
    onSuccess: async () => {
      setName('');
      setChosen([]);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => adminRequest(RevokeApiKeyDocument, { id }),
    onSuccess: refresh,
  });
  const numberOf = new Map((properties.data?.properties ?? []).map((p) => [p.id, p.number]));
  return (
    <div className="stack">
      <form
        className="card stack"
        aria-labelledby="key-title"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2 id="key-title">{t('keys.create_title')}</h2>
        <ErrorAlert code={create.error?.message} />
        {create.data && (
          <div className="alert success" role="status" data-testid="new-key">
            <p>{t('keys.shown_once')}</p>
            <code>{create.data.createApiKey.key}</code>
          </div>
        )}
        <div className="field">
          <label htmlFor="key-name">{t('keys.name')}</label>
          <input
            id="key-name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <fieldset className="field">
          <legend>{t('keys.properties')}</legend>
          {(properties.data?.properties ?? []).map((p) => (
            <label key={p.id} className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                onChange={(e) =>
                  setChosen((c) => (e.target.checked ? [...c, p.id] : c.filter((x) => x !== p.id)))
                }
              />{' '}
              {p.number} · {p.name || p.address}
            </label>
          ))}
        </fieldset>
        <div>
          <button
            type="submit"
            className="button primary"
            disabled={create.isPending || !name.trim() || chosen.length === 0}
          >
            {t('keys.create')}
          </button>
        </div>
      </form>
      <ErrorAlert code={revoke.error?.message ?? (keys.isError ? keys.error.message : null)} />
      {!keys.data ? (
        <Spinner label={t('loading')} />
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table" data-testid="keys-table">
            <caption className="visually-hidden">{t('keys.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('keys.name')}</th>
                <th scope="col">{t('keys.prefix')}</th>
                <th scope="col">{t('keys.properties')}</th>
                <th scope="col">{t('keys.created')}</th>
                <th scope="col">{t('keys.last_used')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('tenancies.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.apiKeys.map((k) => (
                <tr key={k.id} data-testid={`key-${k.name}`}>
                  <th scope="row">{k.name}</th>
                  <td>
                    <code>{k.prefix}</code>
                  </td>
                  <td>{k.propertyIds.map((id) => numberOf.get(id) ?? id).join(', ')}</td>
                  <td>
                    {when(k.createdAt, lang)}
                    <span className="admin-subtle">{k.createdBy}</span>
                  </td>
                  <td>{when(k.lastUsedAt, lang)}</td>
                  <td>
                    {k.revokedAt ? (
                      t('keys.revoked', { when: when(k.revokedAt, lang) })
                    ) : (
                      <button
                        type="button"
                        className="button ghost"
                        disabled={revoke.isPending}
                        onClick={() => revoke.mutate(k.id)}
                        aria-label={t('keys.revoke_named', { name: k.name })}
                      >
                        {t('keys.revoke')}
                      </button>
                    )}
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
