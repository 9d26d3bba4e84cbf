/**
 * /admin/audit: the audit entries the operator may read (the server scopes them: an organisation admin's
 * organisation, a manager's properties), filtered on the server by text, actor, action, property and dates, a
 * page at a time (newest first), and the same filtered entries as a CSV file with a header in the page's language.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  AuditFacetsDocument,
  type AuditFilter,
  AuditLogDocument,
  type AuditLogQuery,
} from '../../client/gql/admin.ts';
import { orFallback } from '../../client/i18nKeys.ts';
import { csvFileName, toCsv } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { download } from '../consumption/DataTable.tsx';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, PropertyOptions, TableScroll, useProperties, when } from './opsShared.tsx';
import { useOperator } from './useOperator.ts';

const PAGE_SIZE = 50;
/** The CSV is read in pages of the server's maximum, up to this many entries. */
const CSV_PAGE = 500;
const CSV_MAX = 20_000;

type Entry = AuditLogQuery['auditLog']['entries'][number];
type Form = { search: string; actor: string; action: string; propertyId: string; from: string; to: string };
const EMPTY: Form = { search: '', actor: '', action: '', propertyId: '', from: '', to: '' };

/** The day after an ISO date: the form's "to" is inclusive, the server's exclusive. */
const dayAfter = (iso: string) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

function filterOf(form: Form): AuditFilter {
  return {
    search: form.search.trim() || null,
    actor: form.actor || null,
    action: form.action || null,
    propertyId: form.propertyId || null,
    from: form.from || null,
    to: form.to ? dayAfter(form.to) : null,
  };
}

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

export default function AuditLog({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Audit lang={lang} />
    </Providers>
  );
}

function Audit({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin');
  const operator = useOperator();
  const properties = useProperties();
  const [form, setForm] = useState<Form>(EMPTY);
  const [applied, setApplied] = useState<Form>(EMPTY);
  /** The cursors of the pages before this one (empty: the newest page). */
  const [cursors, setCursors] = useState<Array<string | null>>([]);
  const [after, setAfter] = useState<string | null>(null);
  const [exporting, setExporting] = useState<{ error?: string; truncated?: boolean; busy?: boolean }>({});
  const facets = useQuery({
    queryKey: ['admin', 'auditFacets'],
    queryFn: () => adminRequest(AuditFacetsDocument, {}),
    enabled: operator !== null,
  });
  const log = useQuery({
    queryKey: ['admin', 'auditLog', applied, after],
    queryFn: () => adminRequest(AuditLogDocument, { filter: filterOf(applied), first: PAGE_SIZE, after }),
    enabled: operator !== null,
    placeholderData: keepPreviousData,
  });
  const numberOf = new Map((properties.data?.properties ?? []).map((p) => [p.id, p.number]));
  const actionLabel = (code: string) =>
    t(orFallback(`audit.action.${code.replaceAll('.', '_')}`, 'audit.action_other'), { code });
  const ids = {
    search: useId(),
    actor: useId(),
    action: useId(),
    property: useId(),
    from: useId(),
    to: useId(),
  };
  const set = (key: keyof Form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setApplied(form);
    setCursors([]);
    setAfter(null);
  };

  const exportCsv = async () => {
    setExporting({ busy: true });
    try {
      const rows: string[][] = [];
      let cursor: string | null = null;
      do {
        const page: AuditLogQuery = await adminRequest(AuditLogDocument, {
          filter: filterOf(applied),
          first: CSV_PAGE,
          after: cursor,
        });
        for (const e of page.auditLog.entries)
          rows.push([
            when(e.at, lang),
            e.at,
            e.actor,
            actionLabel(e.action),
            e.action,
            `${e.subjectType} ${e.subjectId}`,
            e.propertyId ? (numberOf.get(e.propertyId) ?? e.propertyId) : '',
            e.reason ?? '',
            json(e.before),
            json(e.after),
          ]);
        cursor = page.auditLog.nextCursor ?? null;
      } while (cursor && rows.length < CSV_MAX);
      const header = [
        'when',
        'at_utc',
        'who',
        'what',
        'action',
        'subject',
        'property',
        'reason',
        'before',
        'after',
      ] as const;
      download(
        csvFileName(t('audit.file_name'), applied.from, applied.to),
        toCsv(
          header.map((h) => t(`audit.csv.${h}`)),
          rows,
          lang,
        ),
      );
      setExporting({ truncated: cursor !== null });
    } catch (error) {
      setExporting({ error: error instanceof Error ? error.message : 'UNKNOWN' });
    }
  };

  const entries = log.data?.auditLog.entries ?? [];
  const next = log.data?.auditLog.nextCursor ?? null;
  return (
    <div className="stack">
      <search>
        <form className="admin-toolbar" aria-label={t('audit.filters')} onSubmit={apply}>
          <div className="field grow">
            <label htmlFor={ids.search}>{t('audit.search')}</label>
            <input
              id={ids.search}
              type="search"
              maxLength={200}
              value={form.search}
              placeholder={t('audit.search_hint')}
              onChange={set('search')}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.actor}>{t('audit.actor')}</label>
            <select id={ids.actor} value={form.actor} onChange={set('actor')}>
              <option value="">{t('audit.anyone')}</option>
              {(facets.data?.auditFacets.actors ?? []).map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.action}>{t('audit.action_label')}</label>
            <select id={ids.action} value={form.action} onChange={set('action')}>
              <option value="">{t('audit.any_action')}</option>
              {(facets.data?.auditFacets.actions ?? []).map((a) => (
                <option key={a} value={a}>
                  {actionLabel(a)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.property}>{t('audit.property')}</label>
            <select id={ids.property} value={form.propertyId} onChange={set('propertyId')}>
              <option value="">{t('audit.any_property')}</option>
              <PropertyOptions />
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.from}>{t('audit.from')}</label>
            <input id={ids.from} type="date" value={form.from} onChange={set('from')} />
          </div>
          <div className="field">
            <label htmlFor={ids.to}>{t('audit.to')}</label>
            <input
              id={ids.to}
              type="date"
              value={form.to}
              min={form.from || undefined}
              onChange={set('to')}
            />
          </div>
          <div className="admin-toolbar-actions">
            <button type="submit" className="button primary">
              {t('audit.apply')}
            </button>
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                setForm(EMPTY);
                setApplied(EMPTY);
                setCursors([]);
                setAfter(null);
              }}
            >
              {t('audit.reset')}
            </button>
          </div>
        </form>
      </search>
      <div className="admin-toolbar">
        <button
          type="button"
          className="button"
          disabled={exporting.busy || !log.data || entries.length === 0}
          onClick={exportCsv}
        >
          {exporting.busy ? t('audit.exporting') : t('audit.export')}
        </button>
        {exporting.truncated && (
          <p className="alert" role="status">
            {t('audit.export_truncated', { count: CSV_MAX })}
          </p>
        )}
      </div>
      <ErrorAlert code={exporting.error ?? (log.isError ? log.error.message : null)} />
      {!log.data ? (
        log.isError ? null : (
          <Spinner label={t('loading')} />
        )
      ) : entries.length === 0 ? (
        <p className="card" data-testid="audit-empty">
          {t('audit.none')}
        </p>
      ) : (
        <TableScroll label={t('audit.caption')}>
          <table className="admin-table" data-testid="audit-table" aria-busy={log.isFetching}>
            <caption className="visually-hidden">{t('audit.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.when')}</th>
                <th scope="col">{t('audit.who')}</th>
                <th scope="col">{t('audit.what')}</th>
                <th scope="col">{t('audit.property')}</th>
                <th scope="col">{t('audit.before')}</th>
                <th scope="col">{t('audit.after')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e: Entry) => (
                <tr key={e.id} data-testid="audit-entry">
                  <td>{when(e.at, lang)}</td>
                  <td className="admin-break">{e.actor}</td>
                  <th scope="row">
                    {actionLabel(e.action)}
                    <span className="admin-subtle">
                      {e.subjectType} {e.subjectId}
                    </span>
                    {e.reason && <span className="admin-subtle">{e.reason}</span>}
                  </th>
                  <td>{e.propertyId ? (numberOf.get(e.propertyId) ?? e.propertyId) : '—'}</td>
                  <td>{e.before == null ? '—' : <code className="admin-json">{json(e.before)}</code>}</td>
                  <td>{e.after == null ? '—' : <code className="admin-json">{json(e.after)}</code>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {(cursors.length > 0 || next) && (
        <nav className="admin-pager" aria-label={t('audit.pages')}>
          <span>{t('audit.page', { page: cursors.length + 1 })}</span>
          <button
            type="button"
            className="button ghost"
            disabled={cursors.length === 0}
            onClick={() => {
              setAfter(cursors[cursors.length - 1] ?? null);
              setCursors((c) => c.slice(0, -1));
            }}
          >
            {t('audit.newer')}
          </button>
          <button
            type="button"
            className="button ghost"
            disabled={!next}
            onClick={() => {
              setCursors((c) => [...c, after]);
              setAfter(next);
            }}
          >
            {t('audit.older')}
          </button>
        </nav>
      )}
    </div>
  );
}
