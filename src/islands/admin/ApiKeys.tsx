/**
 * /admin/api-keys: the ingestion API's keys of the operator's properties: create (shown once, with a copy button),
 * what each sent in the last 7 days (rows by outcome, the newest refusal), revoke after a confirmation.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  type ApiKeyFieldsFragment,
  ApiKeysDocument,
  CreateApiKeyDocument,
  RevokeApiKeyDocument,
} from '../../client/gql/admin.ts';
import { formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, useProperties, WhenCell, when } from './opsShared.tsx';
import { useRefusalText } from './refusalText.ts';
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
  const [copied, setCopied] = useState(false);
  /** The key whose revocation waits for a confirmation. */
  const [confirming, setConfirming] = useState<string | null>(null);
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
      setCopied(false);
      await refresh();
    },
  });
  /** The Revoke button that opened the question: focus goes back to it when the operator cancels. */
  const opener = useRef<HTMLButtonElement | null>(null);
  /** The new key's copy button: it takes the focus when the key is shown, the one thing to do next. */
  const copyButton = useRef<HTMLButtonElement>(null);
  const newKey = create.data?.createApiKey.key;
  useEffect(() => {
    if (newKey) copyButton.current?.focus();
  }, [newKey]);
  const revoke = useMutation({
    mutationFn: (id: string) => adminRequest(RevokeApiKeyDocument, { id }),
    onSuccess: async () => {
      setConfirming(null);
      await refresh();
    },
  });
  const revokedName = revoke.data?.revokeApiKey.name;
  /** The key whose revocation waits for a confirmation (shown above the table, which may scroll sideways). */
  const confirmed = keys.data?.apiKeys.find((k) => k.id === confirming && !k.revokedAt);
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
            <p className="admin-key-line">
              <code>{create.data.createApiKey.key}</code>{' '}
              <button
                ref={copyButton}
                type="button"
                className="button ghost"
                onClick={() =>
                  void navigator.clipboard
                    ?.writeText(create.data.createApiKey.key)
                    .then(() => setCopied(true))
                    .catch(() => setCopied(false))
                }
              >
                {copied ? t('keys.copied') : t('keys.copy')}
              </button>
            </p>
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
            <label key={p.id} className="admin-check">
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
      {revokedName && (
        <p className="alert success" role="status">
          {t('keys.revoked_done', { name: revokedName })}
        </p>
      )}
      {!keys.data ? (
        <Spinner label={t('loading')} />
      ) : (
        <div className="stack">
          {confirmed && (
            <div className="card" data-testid={`key-confirm-${confirmed.name}`}>
              <ConfirmRevoke
                name={confirmed.name}
                pending={revoke.isPending}
                onRevoke={() => revoke.mutate(confirmed.id)}
                onCancel={() => {
                  setConfirming(null);
                  opener.current?.focus();
                }}
              />
            </div>
          )}
          {keys.data.apiKeys.length === 0 ? (
            <p className="card" data-testid="keys-empty">
              {t('keys.empty')}
            </p>
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
                    <th scope="col">{t('keys.activity')}</th>
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
                        <WhenCell iso={k.createdAt} lang={lang} />
                        <span className="admin-subtle">{k.createdBy}</span>
                      </td>
                      <td>
                        <WhenCell iso={k.lastUsedAt} lang={lang} />
                      </td>
                      <td className="admin-activity">
                        <Activity days={k.activity} lang={lang} />
                      </td>
                      <td>
                        {k.revokedAt ? (
                          t('keys.revoked', { when: when(k.revokedAt, lang) })
                        ) : (
                          <button
                            type="button"
                            className="button ghost"
                            disabled={revoke.isPending}
                            aria-expanded={confirming === k.id}
                            onClick={(e) => {
                              opener.current = e.currentTarget;
                              setConfirming(k.id);
                            }}
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
      )}
    </div>
  );
}

/**
 * What a key sent in the last 7 days: its rows and batches, the rows by outcome (the ones that happened), and the
 * newest refusal in the operator's language from its code (the receipt's English reason for days counted before
 * codes were stored).
 */
function Activity({ days, lang }: { days: ApiKeyFieldsFragment['activity']; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const { refusal: refusalText } = useRefusalText(lang);
  if (days.length === 0) return <span className="admin-subtle">{t('keys.activity_none')}</span>;
  const sum = (f: 'rows' | 'batches' | 'accepted' | 'duplicate' | 'refused' | 'quarantined') =>
    days.reduce((n, d) => n + d[f], 0);
  const number = (n: number) => formatNumber(n, lang, { maximumFractionDigits: 0 });
  const outcomes = (['accepted', 'duplicate', 'refused', 'quarantined'] as const)
    .filter((f) => f === 'accepted' || sum(f) > 0)
    .map((f) => t(`keys.outcome.${f}`, { n: number(sum(f)) }));
  // Days come newest first: the first with a refusal has the newest one.
  const refusal = days.find((d) => d.lastRefusal);
  return (
    <>
      {t('keys.rows', { count: sum('rows'), n: number(sum('rows')) })} ·{' '}
      {t('keys.batches', { count: sum('batches'), n: number(sum('batches')) })}
      <span className="admin-subtle">{outcomes.join(' · ')}</span>
      {refusal && (
        <span className="admin-subtle" data-testid="last-refusal">
          <LastRefusal day={refusal} lang={lang} text={refusalText} />
        </span>
      )}
    </>
  );
}

/** The newest refusal: localised from its code and line, else the stored English "line N: reason". */
function LastRefusal({
  day,
  lang,
  text,
}: {
  day: ApiKeyFieldsFragment['activity'][number];
  lang: Language;
  text: ReturnType<typeof useRefusalText>['refusal'];
}) {
  const { t } = useTranslation('admin-ops');
  const whenText = when(day.lastRefusalAt, lang);
  const reason = day.lastRefusalLine == null ? null : text(day.lastRefusalCode, day.lastRefusalParams);
  return reason === null
    ? t('keys.last_refusal', { when: whenText, reason: day.lastRefusal })
    : t('keys.last_refusal_coded', {
        when: whenText,
        line: formatNumber(day.lastRefusalLine!, lang, { maximumFractionDigits: 0 }),
        reason,
      });
}

/** The question before a key is revoked, under its row; Cancel has the focus, so Enter does no harm. */
function ConfirmRevoke({
  name,
  pending,
  onRevoke,
  onCancel,
}: {
  name: string;
  pending: boolean;
  onRevoke: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin-ops');
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <fieldset className="admin-confirm" aria-label={t('keys.revoke_named', { name })}>
      <p>{t('keys.revoke_confirm', { name })}</p>
      <div className="admin-row-actions">
        <button type="button" className="button primary" disabled={pending} onClick={onRevoke}>
          {t('keys.revoke_yes')}
        </button>
        <button ref={cancel} type="button" className="button ghost" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </fieldset>
  );
}
