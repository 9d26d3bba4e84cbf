/** What the console's tenancy, invitation, data-quality and API-key pages share (issue 21). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { AdminPropertiesDocument } from '../../client/gql/admin.ts';
import { orFallback } from '../../client/i18nKeys.ts';
import { formatDateTime } from '../../lib/format.ts';
import { dateLocale, type Language } from '../../lib/languages.ts';
import { useOperator } from './useOperator.ts';

/** The properties the operator reaches (the shell's query, shared through the cache). */
export function useProperties() {
  const operator = useOperator();
  return useQuery({
    queryKey: ['admin', 'properties'],
    queryFn: () => adminRequest(AdminPropertiesDocument, {}),
    enabled: operator !== null,
  });
}

/** A backend error code as the operator reads it (admin-ops.json first, then admin.json). */
export function ErrorAlert({ code }: { code: string | null | undefined }) {
  const { t } = useTranslation(['admin-ops', 'admin']);
  if (!code) return null;
  return (
    <p className="alert error" role="alert">
      {t(orFallback([`admin-ops:errors.${code}`, `admin:errors.${code}`], 'admin:errors.UNKNOWN'))}
    </p>
  );
}

/** An instant as a local date and time in the page's language. */
export function when(iso: string | null | undefined, lang: Language): string {
  return iso ? formatDateTime(iso, lang) : '—';
}

/**
 * A time in a table cell: its date and its time each kept on one line, so a narrow column breaks between them
 * and nowhere else ("28 Nov 2026," / "03:31", not four lines).
 */
export function WhenCell({ iso, lang }: { iso: string | null | undefined; lang: Language }) {
  if (!iso) return <>—</>;
  const at = new Date(iso);
  const part = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(dateLocale(lang), { ...o, timeZone: 'Europe/Copenhagen' }).format(at);
  return (
    <time dateTime={iso}>
      <span className="admin-nowrap">{part({ dateStyle: 'medium' })}</span>{' '}
      <span className="admin-nowrap">{part({ timeStyle: 'short' })}</span>
    </time>
  );
}

/** A property chooser above a page's table. */
export function PropertySelect({
  value,
  onChange,
  emptyLabel,
}: {
  value: string;
  onChange: (id: string) => void;
  /** The first option's text, for no property (default: "Choose a property"; a filter says "All properties"). */
  emptyLabel?: string;
}) {
  const { t } = useTranslation('admin-ops');
  return (
    <div className="field">
      <label htmlFor="ops-property">{t('property')}</label>
      <select id="ops-property" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{emptyLabel ?? t('choose_property')}</option>
        <PropertyOptions />
      </select>
    </div>
  );
}

/** The options of a property chooser: the properties the operator reaches, by number. */
export function PropertyOptions() {
  const properties = useProperties();
  return (properties.data?.properties ?? []).map((p) => (
    <option key={p.id} value={p.id}>
      {p.number} · {p.name || p.address}
    </option>
  ));
}

/** The numeric id in the page's address (`?id=`, or another name), or null. */
export function idFromQuery(name = 'id'): string | null {
  const id = new URLSearchParams(window.location.search).get(name);
  return id && /^\d{1,9}$/.test(id) ? id : null;
}

/** Sets (or, when empty, removes) one parameter of the page's address, so a reload or a shared link shows the same. */
export function setInAddress(name: string, value: string): void {
  const url = new URL(window.location.href);
  if (value) url.searchParams.set(name, value);
  else url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * A card that scrolls a wide table sideways on a phone. A table of text alone has nothing the keyboard can focus,
 * and a keyboard scrolls only what has the focus, so the scroller takes it (axe: scrollable-region-focusable); a
 * labelled group, not a region, so it adds no landmark beside the section it is in.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls; this only scrolls a table
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
    <div className="card admin-table-wrap" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** "Update the list" on the data-quality page, after a row's decision: the queue is asked for again. */
export function RefreshQueue({ ref }: { ref?: Ref<HTMLButtonElement> }) {
  const { t } = useTranslation('admin-ops');
  const client = useQueryClient();
  return (
    <button
      ref={ref}
      type="button"
      className="button ghost"
      onClick={() => client.invalidateQueries({ queryKey: ['admin', 'dataQuality'] })}
    >
      {t('quality.refresh')}
    </button>
  );
}
