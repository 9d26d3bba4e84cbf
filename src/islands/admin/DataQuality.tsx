/** /admin/data-quality: the open data issues of the operator's properties, accepted or rejected one by one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  AcceptDataIssueDocument,
  type DataIssueResolution,
  DataQualityQueueDocument,
  type DataQualityQueueQuery,
  RejectDataIssueDocument,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, when } from './opsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function DataQuality({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Queue lang={lang} />
    </Providers>
  );
}

type Issue = DataQualityQueueQuery['dataQualityQueue']['issues'][number];

function Queue({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const operator = useOperator();
  const queue = useQuery({
    queryKey: ['admin', 'dataQuality'],
    queryFn: () => adminRequest(DataQualityQueueDocument, {}),
    enabled: operator !== null,
  });
  if (queue.isError) return <ErrorAlert code={queue.error.message} />;
  if (!queue.data) return <Spinner label={t('loading')} />;
  const { issues, unknownRadioIds } = queue.data.dataQualityQueue;
  return (
    <div className="stack">
      {issues.length === 0 ? (
        <p className="card muted" data-testid="queue-empty">
          {t('quality.empty')}
        </p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table" data-testid="quality-table">
            <caption className="visually-hidden">{t('quality.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('quality.meter')}</th>
                <th scope="col">{t('quality.kind')}</th>
                <th scope="col">{t('quality.when')}</th>
                <th scope="col" className="num">
                  {t('quality.value')}
                </th>
                <th scope="col">{t('quality.reason')}</th>
                <th scope="col">{t('quality.decision')}</th>
              </tr>
            </thead>
            <tbody>
              {issues.map((i) => (
                <IssueRow key={i.id} issue={i} lang={lang} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {unknownRadioIds.length > 0 && (
        <section className="stack" aria-labelledby="radio-title">
          <h2 id="radio-title">{t('quality.unknown_title')}</h2>
          <div className="card admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">{t('quality.unknown_title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('quality.radio_id')}</th>
                  <th scope="col" className="num">
                    {t('quality.telegrams')}
                  </th>
                  <th scope="col">{t('quality.last_seen')}</th>
                </tr>
              </thead>
              <tbody>
                {unknownRadioIds.map((u) => (
                  <tr key={u.radioId}>
                    <td>
                      <code>{u.radioId}</code>
                      {u.driver && <span className="admin-subtle">{u.driver}</span>}
                    </td>
                    <td className="num">{u.telegrams}</td>
                    <td>{when(u.lastSeen, lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

function IssueRow({ issue: i, lang }: { issue: Issue; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const client = useQueryClient();
  const finding = i.readingValue === null;
  const choices: DataIssueResolution[] = finding ? ['NOTED'] : ['CORRECT', 'RESET'];
  const [as, setAs] = useState<DataIssueResolution>(choices[0]!);
  const [decided, setDecided] = useState<'ACCEPTED' | 'REJECTED' | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['admin', 'dataQuality'] });
  const accept = useMutation({
    mutationFn: () => adminRequest(AcceptDataIssueDocument, { input: { id: i.id, as } }),
    onSuccess: () => setDecided('ACCEPTED'),
  });
  const reject = useMutation({
    mutationFn: () => adminRequest(RejectDataIssueDocument, { id: i.id }),
    onSuccess: () => setDecided('REJECTED'),
  });
  const error = accept.error?.message ?? reject.error?.message;
  return (
    <tr data-testid={`issue-${i.meterNumber}`}>
      <th scope="row">{i.meterNumber}</th>
      <td>{t(`quality.kinds.${i.kind}`)}</td>
      <td>{when(i.readingTs, lang)}</td>
      <td className="num">{i.readingValue ?? '—'}</td>
      <td>{i.reason}</td>
      <td>
        {decided ? (
          <span role="status">
            {t(`quality.decided.${decided}`)}{' '}
            <button type="button" className="button ghost" onClick={refresh}>
              {t('quality.refresh')}
            </button>
          </span>
        ) : (
          <div className="admin-row-actions">
            <label className="visually-hidden" htmlFor={`as-${i.id}`}>
              {t('quality.accept_as', { meter: i.meterNumber })}
            </label>
            <select
              id={`as-${i.id}`}
              value={as}
              onChange={(e) => setAs(e.target.value as DataIssueResolution)}
            >
              {choices.map((c) => (
                <option key={c} value={c}>
                  {t(`quality.as.${c}`)}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button primary"
              disabled={accept.isPending}
              onClick={() => accept.mutate()}
            >
              {t('quality.accept')}
            </button>
            <button
              type="button"
              className="button ghost"
              disabled={reject.isPending}
              onClick={() => reject.mutate()}
            >
              {t('quality.reject')}
            </button>
          </div>
        )}
        <ErrorAlert code={error} />
      </td>
    </tr>
  );
}
