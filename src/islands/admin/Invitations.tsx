/**
 * /admin/invitations: a bulk upload (a CSV of tenancy and email, as one XState flow: bulkInvite.machine.ts) and
 * the delivery report (sent, waiting, failed, no address, activated), with resend to a corrected address and
 * revoke of an unused code.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { adminRequest } from '../../client/admin/session.ts';
import {
  BulkInviteDocument,
  type InvitationReportFieldsFragment,
  InvitationsDocument,
  type OperatorInvitationFieldsFragment,
  ResendInvitationDocument,
  RevokeInvitationDocument,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { createBulkInviteMachine } from '../../machines/bulkInvite.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, TableScroll, when } from './opsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function Invitations({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <InvitationsPage lang={lang} />
    </Providers>
  );
}

const COUNTS = ['sent', 'queued', 'failed', 'noAddress', 'activated', 'revoked', 'expired'] as const;

function InvitationsPage({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const operator = useOperator();
  const client = useQueryClient();
  const machine = useMemo(() => createBulkInviteMachine<InvitationReportFieldsFragment>(), []);
  const [state, send] = useMachine(
    machine.provide({
      actors: {
        send: fromPromise(async ({ input }) => {
          const { bulkInvite } = await adminRequest(BulkInviteDocument, input);
          await client.invalidateQueries({ queryKey: ['admin', 'invitations'] });
          return bulkInvite;
        }),
      },
    }),
  );
  const recent = useQuery({
    queryKey: ['admin', 'invitations'],
    queryFn: () => adminRequest(InvitationsDocument, {}),
    enabled: operator !== null,
  });
  const c = state.context;
  const busy = state.matches('sending');
  return (
    <div className="stack">
      <form
        className="card stack"
        aria-labelledby="bulk-title"
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'submit' });
        }}
      >
        <h2 id="bulk-title">{t('invitations.bulk_title')}</h2>
        <p className="muted">{t('invitations.bulk_intro')}</p>
        <ErrorAlert code={c.error} />
        {c.problems.length > 0 && (
          <div className="alert error" role="alert" data-testid="bulk-problems">
            <p>{t('invitations.refused')}</p>
            <ul>
              {c.problems.map((p) => (
                <li key={`${p.line}-${p.message}`}>
                  {t('invitations.problem', { line: p.line, message: p.message })}
                </li>
              ))}
            </ul>
          </div>
        )}
        {state.matches('reported') && c.report ? (
          <>
            <Report report={c.report} lang={lang} />
            <div>
              <button type="button" className="button ghost" onClick={() => send({ type: 'again' })}>
                {t('invitations.another')}
              </button>
            </div>
          </>
        ) : (
          <>
            <div className="field">
              <label htmlFor="bulk-file">{t('invitations.file')}</label>
              <input
                id="bulk-file"
                type="file"
                accept=".csv,text/csv"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  if (file) send({ type: 'csv.change', value: await file.text() });
                }}
              />
            </div>
            <div className="field">
              <label htmlFor="bulk-csv">{t('invitations.csv')}</label>
              <textarea
                id="bulk-csv"
                rows={6}
                spellCheck={false}
                placeholder={'tenancy,email\nT-1001-01,anna@example.com'}
                value={c.csv}
                onChange={(e) => send({ type: 'csv.change', value: e.target.value })}
              />
            </div>
            <div>
              <button type="submit" className="button primary" disabled={busy}>
                {busy ? t('saving') : t('invitations.send')}
              </button>
            </div>
          </>
        )}
      </form>
      <section className="stack" aria-labelledby="recent-title">
        <h2 id="recent-title">{t('invitations.recent')}</h2>
        {recent.isError && <ErrorAlert code={recent.error.message} />}
        {recent.data ? (
          <Report report={recent.data.invitations} lang={lang} />
        ) : (
          <Spinner label={t('loading')} />
        )}
      </section>
    </div>
  );
}

function Report({ report, lang }: { report: InvitationReportFieldsFragment; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  return (
    <div className="stack" data-testid="invitation-report">
      <ul className="admin-counts" aria-label={t('invitations.summary')}>
        {COUNTS.map((k) => (
          <li key={k}>
            <strong>{report[k]}</strong> {t(`invitations.count.${k}`)}
          </li>
        ))}
      </ul>
      <TableScroll label={t('invitations.summary')}>
        <table className="admin-table">
          <caption className="visually-hidden">{t('invitations.summary')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('invitations.line')}</th>
              <th scope="col">{t('tenancies.reference')}</th>
              <th scope="col">{t('invitations.email')}</th>
              <th scope="col">{t('invitations.status')}</th>
              <th scope="col">{t('invitations.code')}</th>
              <th scope="col">{t('invitations.created')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('tenancies.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {report.invitations.map((i) => (
              <Row key={i.id} invitation={i} lang={lang} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}

function Row({ invitation: i, lang }: { invitation: OperatorInvitationFieldsFragment; lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const client = useQueryClient();
  const [email, setEmail] = useState(i.email ?? '');
  const [current, setCurrent] = useState(i);
  const done = async (next: OperatorInvitationFieldsFragment) => {
    setCurrent(next);
    await client.invalidateQueries({ queryKey: ['admin', 'invitations'] });
  };
  const resend = useMutation({
    mutationFn: () => adminRequest(ResendInvitationDocument, { id: i.id, email: email.trim() || null }),
    onSuccess: (r) => done(r.resendInvitation),
  });
  const revoke = useMutation({
    mutationFn: () => adminRequest(RevokeInvitationDocument, { id: i.id }),
    onSuccess: (r) => done(r.revokeInvitation),
  });
  const open = !['ACTIVATED', 'REVOKED'].includes(current.status);
  const error = resend.error?.message ?? revoke.error?.message;
  return (
    <tr data-testid={`invitation-${current.line ?? current.id}`}>
      <td className="num">{current.line ?? '—'}</td>
      <td>{current.tenancyReference}</td>
      <td>
        {open && current.status !== 'SENT' ? (
          <>
            <label className="visually-hidden" htmlFor={`email-${i.id}`}>
              {t('invitations.email_for', { reference: current.tenancyReference })}
            </label>
            <input
              id={`email-${i.id}`}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </>
        ) : (
          (current.email ?? '—')
        )}
      </td>
      <td>
        <span
          className={`status-dot ${current.status === 'FAILED' ? 'bad' : current.status === 'SENT' || current.status === 'ACTIVATED' ? 'ok' : 'warn'}`}
        />
        {t(`invitations.state.${current.status}`)}
        {current.error && <span className="admin-subtle">{current.error}</span>}
        {error && <ErrorAlert code={error} />}
      </td>
      <td>
        <code>{current.activationCode ?? '—'}</code>
      </td>
      <td>{when(current.createdAt, lang)}</td>
      <td>
        {open && (
          <div className="admin-row-actions">
            <button
              type="button"
              className="button ghost"
              disabled={resend.isPending || !email.trim()}
              onClick={() => resend.mutate()}
            >
              {t('invitations.resend')}
            </button>
            <button
              type="button"
              className="button ghost"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate()}
            >
              {t('invitations.revoke')}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
