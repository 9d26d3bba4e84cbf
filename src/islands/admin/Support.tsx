/**
 * /admin/support (issue 21): find a tenant of the operator's properties by email, name, flat, address or tenancy
 * reference; open a session as them with a reason (a one-time link); organisation admins deactivate or
 * reactivate their account, also with a reason. Every action is in the audit log with its reason.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  SetTenantActiveDocument,
  StartImpersonationDocument,
  SupportSearchDocument,
  type SupportTenantFieldsFragment as Tenant,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, setInAddress, when } from './opsShared.tsx';
import { useOperator } from './useOperator.ts';

type Action = 'impersonate' | 'deactivate' | 'reactivate';

export default function Support({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Find lang={lang} />
    </Providers>
  );
}

/** The search text in the URL (?q=), so a search can be reloaded and shared with a colleague. */
function queryInUrl(): string {
  return new URLSearchParams(window.location.search).get('q') ?? '';
}

function Find({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const operator = useOperator();
  const [text, setText] = useState(queryInUrl);
  const [query, setQuery] = useState(() => queryInUrl().trim());
  const found = useQuery({
    queryKey: ['admin', 'support', query],
    queryFn: () => adminRequest(SupportSearchDocument, { query }),
    enabled: operator !== null && query.length >= 2,
  });
  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    setQuery(q);
    setInAddress('q', q);
  };
  const tenants = found.data?.supportSearch;
  return (
    <div className="stack">
      <form className="card stack" aria-labelledby="support-search-title" onSubmit={search}>
        <h2 id="support-search-title">{t('support.search_title')}</h2>
        <div className="field">
          <label htmlFor="support-query">{t('support.query')}</label>
          <input
            id="support-query"
            type="search"
            minLength={2}
            maxLength={200}
            required
            autoComplete="off"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="admin-subtle">{t('support.query_hint')}</p>
        </div>
        <div>
          <button type="submit" className="button primary">
            {t('support.search')}
          </button>
        </div>
      </form>
      <ErrorAlert code={found.isError ? found.error.message : null} />
      {query.length >= 2 && !tenants && !found.isError && <Spinner label={t('loading')} />}
      {tenants && (
        <section aria-labelledby="support-results" className="stack">
          <h2 id="support-results" aria-live="polite">
            {t('support.results', { count: tenants.length })}
          </h2>
          {tenants.map((tenant) => (
            <TenantCard
              key={tenant.id}
              tenant={tenant}
              lang={lang}
              isOrgAdmin={operator?.role === 'ORG_ADMIN'}
            />
          ))}
        </section>
      )}
    </div>
  );
}

function TenantCard({ tenant, lang, isOrgAdmin }: { tenant: Tenant; lang: Language; isOrgAdmin: boolean }) {
  const { t } = useTranslation('admin-ops');
  const [action, setAction] = useState<Action | null>(null);
  const titleId = useId();
  const day = (iso: string) =>
    new Intl.DateTimeFormat(lang === 'nb' ? 'nb-NO' : lang === 'da' ? 'da-DK' : 'en-GB', {
      dateStyle: 'medium',
      timeZone: 'UTC',
    }).format(new Date(`${iso}T00:00:00Z`));
  return (
    <article className="card stack" aria-labelledby={titleId} data-testid={`tenant-${tenant.email}`}>
      <h3 id={titleId}>
        {tenant.email}
        {!tenant.isActive && <span className="badge support-state">{t('support.deactivated')}</span>}
      </h3>
      {tenant.name && <p>{tenant.name}</p>}
      <ul className="plain-list">
        {tenant.tenancies.map((tn) => (
          <li key={tn.id}>
            <strong>
              {tn.propertyNumber} · {tn.address}
            </strong>{' '}
            <span className="admin-subtle">
              {tn.reference} ·{' '}
              {tn.end
                ? t('support.period_ended', { start: day(tn.start), end: day(tn.end) })
                : t('support.period_running', { start: day(tn.start) })}
            </span>
          </li>
        ))}
      </ul>
      {action === null ? (
        <div className="support-actions">
          <button
            type="button"
            className="button"
            disabled={!tenant.canImpersonate}
            onClick={() => setAction('impersonate')}
          >
            {t('support.impersonate')}
          </button>
          {isOrgAdmin && (
            <button
              type="button"
              className="button ghost"
              onClick={() => setAction(tenant.isActive ? 'deactivate' : 'reactivate')}
            >
              {t(tenant.isActive ? 'support.deactivate' : 'support.reactivate')}
            </button>
          )}
          {!tenant.canImpersonate && tenant.isActive && (
            <p className="admin-subtle">{t('support.cannot_impersonate')}</p>
          )}
        </div>
      ) : (
        <ReasonForm tenant={tenant} action={action} onDone={() => setAction(null)} lang={lang} />
      )}
    </article>
  );
}

function ReasonForm({
  tenant,
  action,
  onDone,
  lang,
}: {
  tenant: Tenant;
  action: Action;
  onDone: () => void;
  lang: Language;
}) {
  const { t } = useTranslation('admin-ops');
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const impersonate = useMutation({
    mutationFn: () => adminRequest(StartImpersonationDocument, { userId: tenant.id, reason: reason.trim() }),
  });
  const setActive = useMutation({
    mutationFn: () =>
      adminRequest(SetTenantActiveDocument, {
        userId: tenant.id,
        active: action === 'reactivate',
        reason: reason.trim(),
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['admin', 'support'] });
      onDone();
    },
  });
  const pending = impersonate.isPending || setActive.isPending;
  const link = impersonate.data?.startImpersonation;
  if (link)
    return (
      <div className="alert success stack" role="status" data-testid="impersonation-link">
        <p>{t('support.link_ready', { minutes: link.minutes, when: when(link.expiresAt, lang) })}</p>
        <p>
          <a href={link.link} target="_blank" rel="noopener noreferrer" className="button primary">
            {t('support.open_link')}
          </a>{' '}
          <button
            type="button"
            className="button ghost"
            onClick={() => void navigator.clipboard?.writeText(link.link)}
          >
            {t('support.copy_link')}
          </button>
        </p>
        <p>
          <code className="support-link">{link.link}</code>
        </p>
        <div>
          <button type="button" className="button ghost" onClick={onDone}>
            {t('support.done')}
          </button>
        </div>
      </div>
    );
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (action === 'impersonate') impersonate.mutate();
        else setActive.mutate();
      }}
    >
      <ErrorAlert code={(impersonate.error ?? setActive.error)?.message} />
      <div className="field">
        <label htmlFor={reasonId}>{t(`support.reason_${action}`)}</label>
        <textarea
          id={reasonId}
          // The form opens on the operator's click: the reason is what they came to type.
          // biome-ignore lint/a11y/noAutofocus: focus moves into the form the operator just opened
          autoFocus
          required
          minLength={5}
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <p className="admin-subtle">{t('support.reason_hint')}</p>
      </div>
      <div className="support-actions">
        <button
          type="submit"
          className={action === 'deactivate' ? 'button danger' : 'button primary'}
          disabled={pending || reason.trim().length < 5}
        >
          {t(`support.confirm_${action}`)}
        </button>
        <button type="button" className="button ghost" onClick={onDone} disabled={pending}>
          {t('support.cancel')}
        </button>
      </div>
    </form>
  );
}
