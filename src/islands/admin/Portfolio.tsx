/**
 * /admin: the portfolio overview. Per property: the newest reading, the share of meters that reported in the
 * last 24 hours, open data issues, current tenancies with invited and activated tenants. Filtering, sorting and
 * paging happen on the server (50 rows a page), and the choices live in the address, so a reload or a shared
 * link shows the same page.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  PortfolioDocument,
  type PortfolioFreshness,
  type PortfolioQuery,
  type PortfolioSortKey,
} from '../../client/gql/admin.ts';
import { orFallback } from '../../client/i18nKeys.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useOperator } from './useOperator.ts';

const PAGE_SIZE = 50;
const SORT_KEYS: PortfolioSortKey[] = [
  'NUMBER',
  'NAME',
  'CITY',
  'LAST_READING',
  'REPORTING_SHARE',
  'OPEN_ISSUES',
  'INVITED',
  'ACTIVATED',
];
const FRESHNESS: PortfolioFreshness[] = ['ALL', 'INCOMPLETE', 'SILENT'];

/** What the table shows, as kept in the address's query. */
type PortfolioView = {
  search: string;
  freshness: PortfolioFreshness;
  withOpenIssues: boolean;
  sort: PortfolioSortKey;
  descending: boolean;
  page: number;
};

/** Reads the view from a query string; anything unknown falls back to the default. */
function viewFromSearch(search: string): PortfolioView {
  const q = new URLSearchParams(search);
  const sort = q.get('sort') as PortfolioSortKey | null;
  const freshness = q.get('freshness') as PortfolioFreshness | null;
  const page = Number(q.get('page'));
  return {
    search: (q.get('q') ?? '').slice(0, 200),
    freshness: freshness && FRESHNESS.includes(freshness) ? freshness : 'ALL',
    withOpenIssues: q.get('issues') === '1',
    sort: sort && SORT_KEYS.includes(sort) ? sort : 'NUMBER',
    descending: q.get('dir') === 'desc',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The query string of a view (defaults left out). */
function searchOfView(view: PortfolioView): string {
  const q = new URLSearchParams();
  if (view.search) q.set('q', view.search);
  if (view.freshness !== 'ALL') q.set('freshness', view.freshness);
  if (view.withOpenIssues) q.set('issues', '1');
  if (view.sort !== 'NUMBER') q.set('sort', view.sort);
  if (view.descending) q.set('dir', 'desc');
  if (view.page > 1) q.set('page', String(view.page));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** The island. */
export default function Portfolio({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Overview />
    </Providers>
  );
}

/** A value that follows `value` once it has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function Overview() {
  const { t } = useTranslation('admin');
  const operator = useOperator();
  const [view, setView] = useState<PortfolioView>(() => viewFromSearch(window.location.search));
  const [searchText, setSearchText] = useState(view.search);
  const search = useDebounced(searchText.trim(), 300);
  useEffect(() => {
    setView((v) => (v.search === search ? v : { ...v, search, page: 1 }));
  }, [search]);
  useEffect(() => {
    const next = `${window.location.pathname}${searchOfView(view)}`;
    if (next !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', next);
  }, [view]);

  const query = useQuery({
    queryKey: ['admin', 'portfolio', view],
    queryFn: () =>
      adminRequest(PortfolioDocument, {
        filter: {
          search: view.search || null,
          freshness: view.freshness,
          withOpenIssues: view.withOpenIssues,
        },
        sort: { key: view.sort, direction: view.descending ? 'DESC' : 'ASC' },
        first: PAGE_SIZE,
        offset: (view.page - 1) * PAGE_SIZE,
      }),
    enabled: operator !== null,
    placeholderData: keepPreviousData,
  });

  const searchId = useId();
  const freshnessId = useId();
  const issuesId = useId();
  const change = (patch: Partial<PortfolioView>) => setView((v) => ({ ...v, page: 1, ...patch }));

  return (
    <>
      <search className="admin-toolbar" aria-label={t('portfolio.filters')}>
        <div className="field grow">
          <label htmlFor={searchId}>{t('portfolio.search')}</label>
          <input
            id={searchId}
            type="search"
            value={searchText}
            placeholder={t('portfolio.search_hint')}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={freshnessId}>{t('portfolio.freshness')}</label>
          <select
            id={freshnessId}
            value={view.freshness}
            onChange={(e) => change({ freshness: e.target.value as PortfolioFreshness })}
          >
            {FRESHNESS.map((f) => (
              <option key={f} value={f}>
                {t(`portfolio.freshness_${f}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-check">
          <input
            id={issuesId}
            type="checkbox"
            checked={view.withOpenIssues}
            onChange={(e) => change({ withOpenIssues: e.target.checked })}
          />
          <label htmlFor={issuesId}>{t('portfolio.with_issues')}</label>
        </div>
      </search>
      <Results
        query={query}
        view={view}
        onSort={(key) =>
          setView((v) => ({
            ...v,
            page: 1,
            sort: key,
            descending: v.sort === key ? !v.descending : key === 'OPEN_ISSUES',
          }))
        }
        onPage={(page) => setView((v) => ({ ...v, page }))}
      />
    </>
  );
}

type ResultsProps = {
  query: ReturnType<typeof useQuery<PortfolioQuery>>;
  view: PortfolioView;
  onSort: (key: PortfolioSortKey) => void;
  onPage: (page: number) => void;
};

function Results({ query, view, onSort, onPage }: ResultsProps) {
  const { t, i18n } = useTranslation('admin');
  const lang = parseLanguage(i18n.language) ?? 'en';
  if (query.isError)
    return (
      <p className="alert error" role="alert">
        {t(orFallback(`errors.${query.error.message}`, 'errors.UNKNOWN'))}
      </p>
    );
  if (!query.data) return <Spinner label={t('loading')} />;
  const { rows, total, asOf } = query.data.portfolio;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const locale = lang === 'en' ? 'en-GB' : lang === 'nb' ? 'nb-NO' : 'da-DK';
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  // Rounded down to a tenth of a percent: 264 of 265 meters is 99.6 %, never "100 %" while one is silent.
  const shareText = (share: number) => percent.format(Math.floor(share * 1000) / 1000);
  const header = (key: PortfolioSortKey, label: ReactNode, numeric = false) => {
    const active = view.sort === key;
    return (
      <th
        scope="col"
        className={numeric ? 'num' : undefined}
        aria-sort={active ? (view.descending ? 'descending' : 'ascending') : undefined}
      >
        <button type="button" className="sort-button" onClick={() => onSort(key)}>
          {label}
          <span aria-hidden="true">{active ? (view.descending ? '↓' : '↑') : ''}</span>
        </button>
      </th>
    );
  };
  return (
    <>
      <p className="muted" role="status" aria-live="polite" data-testid="portfolio-count">
        {t('portfolio.count', { count: total })}
        {query.isFetching && ` · ${t('loading')}`}
      </p>
      {rows.length === 0 ? (
        <div className="card">
          <p className="muted">{t('portfolio.none')}</p>
        </div>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table" data-testid="portfolio-table">
            <caption className="visually-hidden">
              {t('portfolio.caption', { time: when.format(new Date(asOf)) })}
            </caption>
            <thead>
              <tr>
                {header('NUMBER', t('portfolio.property'))}
                {header('LAST_READING', t('portfolio.last_reading'))}
                {header('REPORTING_SHARE', t('portfolio.reporting'), true)}
                {header('OPEN_ISSUES', t('portfolio.open_issues'), true)}
                {header('INVITED', t('portfolio.invited'), true)}
                {header('ACTIVATED', t('portfolio.activated'), true)}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const share = row.reportingShare;
                const level = share === null ? 'bad' : share >= 0.95 ? 'ok' : share >= 0.5 ? 'warn' : 'bad';
                return (
                  <tr key={row.property.id}>
                    <td>
                      <strong>
                        {row.property.number} · {row.property.name}
                      </strong>
                      <span className="admin-subtle">
                        {row.property.address}, {row.property.zipcode} {row.property.city}
                      </span>
                    </td>
                    <td>
                      {row.lastReadingAt ? when.format(new Date(row.lastReadingAt)) : t('portfolio.never')}
                    </td>
                    <td className="num">
                      <span className={`status-dot ${level}`} aria-hidden="true" />
                      {share === null ? '–' : shareText(share)}
                      <span className="admin-subtle">
                        {t('portfolio.meters_of', { reporting: row.metersReporting, count: row.meters })}
                      </span>
                    </td>
                    <td className="num">
                      {row.openIssues > 0 ? (
                        <a
                          href={`/admin/data-quality?property=${row.property.id}`}
                          aria-label={t('portfolio.open_issues_link', {
                            count: row.openIssues,
                            property: row.property.name || row.property.number,
                          })}
                        >
                          {row.openIssues}
                        </a>
                      ) : (
                        row.openIssues
                      )}
                    </td>
                    <td className="num">
                      {row.invited}
                      <span className="admin-subtle">
                        {t('portfolio.tenancies', { count: row.tenancies })}
                      </span>
                    </td>
                    <td className="num">{row.activated}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <nav className="admin-pager" aria-label={t('portfolio.pages')}>
        <span>{t('portfolio.page_of', { page: view.page, pages })}</span>
        <span className="buttons">
          <button
            type="button"
            className="button secondary"
            disabled={view.page <= 1}
            onClick={() => onPage(view.page - 1)}
          >
            {t('portfolio.previous')}
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={view.page >= pages}
            onClick={() => onPage(view.page + 1)}
          >
            {t('portfolio.next')}
          </button>
        </span>
      </nav>
    </>
  );
}
