/**
 * /admin/tenancies: a property's flats and tenancies; moving a tenant out (last day, on-site readings, the
 * interim reading HeizkostenV §9b) and the next one in, as one XState flow (moveTenant.machine.ts).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { adminRequest } from '../../client/admin/session.ts';
import {
  type AdminTenancyFieldsFragment,
  MoveInDocument,
  MoveOutDocument,
  TenancyApartmentsDocument,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { moveTenantMachine } from '../../machines/moveTenant.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { ErrorAlert, PropertySelect, useProperties, when } from './opsShared.tsx';

export default function Tenancies({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <TenanciesPage lang={lang} />
    </Providers>
  );
}

function TenanciesPage({ lang }: { lang: Language }) {
  const { t } = useTranslation('admin-ops');
  const properties = useProperties();
  const [chosen, setChosen] = useState('');
  const propertyId = chosen || properties.data?.properties[0]?.id || '';
  const [moving, setMoving] = useState<{ tenancy: AdminTenancyFieldsFragment; meters: string[] } | null>(
    null,
  );
  const flats = useQuery({
    queryKey: ['admin', 'tenancyApartments', propertyId],
    queryFn: () => adminRequest(TenancyApartmentsDocument, { propertyId }),
    enabled: propertyId !== '',
  });
  if (properties.isError) return <ErrorAlert code={properties.error.message} />;
  if (!properties.data) return <Spinner label={t('loading')} />;
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <PropertySelect value={propertyId} onChange={setChosen} />
      </div>
      {moving && (
        <MoveFlow
          key={moving.tenancy.id}
          tenancy={moving.tenancy}
          meters={moving.meters}
          propertyId={propertyId}
          onClose={() => setMoving(null)}
        />
      )}
      {flats.isError && <ErrorAlert code={flats.error.message} />}
      {flats.isPending && propertyId !== '' && <Spinner label={t('loading')} />}
      {flats.data && (
        <div className="card admin-table-wrap">
          <table className="admin-table" data-testid="tenancies-table">
            <caption className="visually-hidden">{t('tenancies.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('tenancies.flat')}</th>
                <th scope="col">{t('tenancies.reference')}</th>
                <th scope="col">{t('tenancies.tenant')}</th>
                <th scope="col">{t('tenancies.period')}</th>
                <th scope="col">{t('tenancies.members')}</th>
                <th scope="col">{t('tenancies.interim')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('tenancies.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {flats.data.tenancyApartments.flatMap((flat) =>
                (flat.tenancies.length ? flat.tenancies : [null]).map((tenancy, i) => (
                  <tr key={tenancy?.id ?? `flat-${flat.id}`}>
                    {i === 0 && (
                      <th scope="row" rowSpan={Math.max(1, flat.tenancies.length)}>
                        {flat.address}
                        <span className="admin-subtle">{flat.uniqueId}</span>
                      </th>
                    )}
                    {tenancy ? (
                      <>
                        <td>{tenancy.reference}</td>
                        <td>{tenancy.tenant || '—'}</td>
                        <td>
                          {tenancy.start} – {tenancy.end ?? t('tenancies.running')}
                          {tenancy.accessEndsAt && (
                            <span className="admin-subtle">
                              {t('tenancies.access_ends', { when: when(tenancy.accessEndsAt, lang) })}
                            </span>
                          )}
                        </td>
                        <td>{tenancy.members.map((m) => m.email).join(', ') || '—'}</td>
                        <td>
                          {tenancy.interimReadings.map((r) => (
                            <span key={r.meterNumber} className="admin-subtle">
                              {r.meterNumber}: {r.value ?? '—'} ({t(`tenancies.source.${r.source}`)})
                            </span>
                          ))}
                        </td>
                        <td>
                          {tenancy === flat.tenancies.at(-1) && (
                            <button
                              type="button"
                              className="button ghost"
                              onClick={() =>
                                setMoving({
                                  tenancy,
                                  meters: flat.tenancies.flatMap((x) =>
                                    x.interimReadings.map((r) => r.meterNumber),
                                  ),
                                })
                              }
                            >
                              {tenancy.end ? t('tenancies.change_move_out') : t('tenancies.move_out')}
                            </button>
                          )}
                        </td>
                      </>
                    ) : (
                      <td colSpan={6} className="muted">
                        {t('tenancies.vacant')}
                      </td>
                    )}
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function MoveFlow({
  tenancy,
  meters,
  propertyId,
  onClose,
}: {
  tenancy: AdminTenancyFieldsFragment;
  meters: string[];
  propertyId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin-ops');
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['admin', 'tenancyApartments', propertyId] });
  const [state, send] = useMachine(
    moveTenantMachine.provide({
      actors: {
        moveOut: fromPromise(async ({ input }) => {
          const r = await adminRequest(MoveOutDocument, { input });
          await refresh();
          return r;
        }),
        moveIn: fromPromise(async ({ input }) => {
          const r = await adminRequest(MoveInDocument, { input });
          await refresh();
          return r;
        }),
      },
    }),
    { input: { tenancyId: tenancy.id, apartmentId: tenancy.apartmentId, lastDay: tenancy.end ?? '' } },
  );
  const c = state.context;
  const busy = state.matches('savingMoveOut') || state.matches('savingMoveIn');
  if (state.matches('done') || state.matches('cancelled'))
    return (
      <div className="card stack" data-testid="move-done">
        <p className="alert success" role="status">
          {state.matches('done') ? t('move.done') : t('move.cancelled')}
        </p>
        <div>
          <button type="button" className="button ghost" onClick={onClose}>
            {t('close')}
          </button>
        </div>
      </div>
    );
  const moveIn = state.matches('movingIn') || state.matches('savingMoveIn');
  const readingMeters = [...new Set(meters)];
  return (
    <form
      className="card stack"
      aria-labelledby="move-title"
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'submit' });
      }}
    >
      <h2 id="move-title">
        {moveIn ? t('move.in_title') : t('move.out_title', { reference: tenancy.reference })}
      </h2>
      <ErrorAlert code={c.error} />
      {!moveIn ? (
        <>
          <p className="muted">{t('move.out_intro')}</p>
          <div className="field">
            <label htmlFor="move-last-day">{t('move.last_day')}</label>
            <input
              id="move-last-day"
              type="date"
              required
              value={c.lastDay}
              onChange={(e) => send({ type: 'field.change', field: 'lastDay', value: e.target.value })}
            />
          </div>
          {readingMeters.map((m) => (
            <div className="field" key={m}>
              <label htmlFor={`reading-${m}`}>{t('move.reading', { meter: m })}</label>
              <input
                id={`reading-${m}`}
                inputMode="decimal"
                value={c.readings[m] ?? ''}
                onChange={(e) => send({ type: 'reading.change', meterNumber: m, value: e.target.value })}
              />
            </div>
          ))}
          <p className="admin-subtle">{t('move.readings_hint')}</p>
          <div className="admin-toolbar">
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? t('saving') : t('move.save_out')}
            </button>
            <button type="button" className="button ghost" onClick={() => send({ type: 'cancel' })}>
              {t('cancel')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="alert success" role="status">
            {t('move.out_saved', { day: c.lastDay })}
          </p>
          <div className="field">
            <label htmlFor="move-reference">{t('move.reference')}</label>
            <input
              id="move-reference"
              required
              value={c.reference}
              onChange={(e) => send({ type: 'field.change', field: 'reference', value: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor="move-tenant">{t('move.tenant')}</label>
            <input
              id="move-tenant"
              value={c.tenant}
              onChange={(e) => send({ type: 'field.change', field: 'tenant', value: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor="move-first-day">{t('move.first_day')}</label>
            <input
              id="move-first-day"
              type="date"
              required
              value={c.firstDay}
              onChange={(e) => send({ type: 'field.change', field: 'firstDay', value: e.target.value })}
            />
          </div>
          <div className="admin-toolbar">
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? t('saving') : t('move.save_in')}
            </button>
            <button type="button" className="button ghost" onClick={() => send({ type: 'skip' })}>
              {t('move.skip_in')}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
