/**
 * /admin/meter?id=…: a meter's place, settings (radio id, profile, installation period) in a form, a swap as an
 * XState flow (meterSwap.machine.ts: time and readings, a check, the save), its newest readings and how many
 * hours of the last 30 days were estimated.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  AdminMeterDocument,
  type AdminMeterFieldsFragment,
  UpdateMeterSettingsDocument,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { SwapFlow } from './MeterSwap.tsx';
import { idFromQuery, when } from './opsShared.tsx';
import { errorOf, fromLocalInput, PropsError, toLocalInput } from './propsShared.tsx';
import { useOperator } from './useOperator.ts';
import './props.css';

export default function Meter({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <MeterPage lang={lang} />
    </Providers>
  );
}

function MeterPage({ lang }: { lang: Language }) {
  const { t } = useTranslation(['admin-props', 'domain']);
  const operator = useOperator();
  const [id] = useState(idFromQuery);
  const [swapping, setSwapping] = useState(false);
  const meter = useQuery({
    queryKey: ['admin', 'meter', id],
    queryFn: () => adminRequest(AdminMeterDocument, { id: id! }),
    enabled: operator !== null && id !== null,
  });
  if (id === null) return <PropsError code="MISSING_ID" />;
  if (meter.isError) return <PropsError code={meter.error.message} />;
  if (!meter.data) return <Spinner label={t('loading')} />;
  const m = meter.data.adminMeter;
  return (
    <div className="stack">
      <p>
        <a href={`/admin/property?id=${m.propertyId}`}>{t('meter.back', { number: m.propertyNumber })}</a>
      </p>
      <h2 data-testid="meter-heading">{t('title.meter', { number: m.number })}</h2>
      <dl className="admin-facts card">
        <div>
          <dt>{t('meter.place')}</dt>
          <dd>{m.apartmentAddress ?? m.propertyNumber}</dd>
        </div>
        <div>
          <dt>{t('meter.point')}</dt>
          <dd>
            {m.pointName} · {t(quantityKey(m.quantity))}
          </dd>
        </div>
        <div>
          <dt>{t('meter.period')}</dt>
          <dd>
            {when(m.installedAt, lang)} – {m.removedAt ? when(m.removedAt, lang) : t('meter.until_now')}
          </dd>
        </div>
        <div>
          <dt>{t('meter.estimated')}</dt>
          <dd data-testid="estimated-hours">
            {t('meter.estimated_value', { estimated: m.estimatedHours, total: m.hoursWithValues })}
          </dd>
        </div>
      </dl>
      {swapping ? (
        <SwapFlow meter={m} onClose={() => setSwapping(false)} />
      ) : (
        !m.removedAt && (
          <div>
            <button type="button" className="button primary" onClick={() => setSwapping(true)}>
              {t('swap.start')}
            </button>
          </div>
        )
      )}
      <Settings key={`${m.id}-${m.installedAt}-${m.removedAt}`} meter={m} />
      <Readings meter={m} lang={lang} />
      <section className="card stack" aria-labelledby="meter-history">
        <h3 id="meter-history">{t('meter.history')}</h3>
        <ul>
          {m.history.map((h) => (
            <li key={h.id}>
              {h.id === m.id ? (
                <strong>
                  {h.number} ({t('meter.current')})
                </strong>
              ) : (
                <a href={`/admin/meter?id=${h.id}`}>{h.number}</a>
              )}{' '}
              {when(h.installedAt, lang)} – {h.removedAt ? when(h.removedAt, lang) : t('meter.until_now')}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function Settings({ meter }: { meter: AdminMeterFieldsFragment }) {
  const { t } = useTranslation('admin-props');
  const client = useQueryClient();
  const [v, setV] = useState({
    radioId: meter.radioId ?? '',
    rolloverDigits: meter.rolloverDigits === null ? '' : String(meter.rolloverDigits),
    resetOn: meter.resetOn ?? '',
    installedAt: toLocalInput(meter.installedAt),
    removedAt: toLocalInput(meter.removedAt),
  });
  const save = useMutation({
    mutationFn: () =>
      adminRequest(UpdateMeterSettingsDocument, {
        input: {
          id: meter.id,
          radioId: v.radioId.trim() || null,
          rolloverDigits: v.rolloverDigits.trim() === '' ? null : Number(v.rolloverDigits),
          resetOn: v.resetOn.trim() || null,
          installedAt: fromLocalInput(v.installedAt),
          removedAt: v.removedAt ? fromLocalInput(v.removedAt) : null,
        },
      }),
    onSuccess: (data) =>
      client.setQueryData(['admin', 'meter', meter.id], { adminMeter: data.updateMeterSettings }),
  });
  const failure = errorOf(save.error);
  const field = (
    name: keyof typeof v,
    label: string,
    hint: string | null,
    extra: Record<string, unknown> = {},
  ) => (
    <div className="field">
      <label htmlFor={`meter-${name}`}>{label}</label>
      <input
        id={`meter-${name}`}
        value={v[name]}
        aria-describedby={hint ? `meter-${name}-hint` : undefined}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
        {...extra}
      />
      {hint && (
        <p id={`meter-${name}-hint`} className="admin-subtle">
          {hint}
        </p>
      )}
    </div>
  );
  return (
    <form
      className="card stack"
      aria-labelledby="meter-settings"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h3 id="meter-settings">{t('meter.settings')}</h3>
      <div className="props-fields">
        {field('radioId', t('meter.radio_id'), t('meter.radio_hint'))}
        {field('rolloverDigits', t('meter.rollover_digits'), t('meter.rollover_hint'), {
          type: 'number',
          min: 1,
          max: 12,
        })}
        {field('resetOn', t('meter.reset_on'), t('meter.reset_hint'), {
          placeholder: 'MM-DD',
          pattern: '\\d\\d-\\d\\d',
        })}
        {field('installedAt', t('meter.installed_at'), null, { type: 'datetime-local', required: true })}
        {field('removedAt', t('meter.removed_at'), t('meter.removed_hint'), { type: 'datetime-local' })}
      </div>
      <PropsError code={failure?.code} />
      {save.isSuccess && (
        <p className="alert success" role="status">
          {t('meter.saved')}
        </p>
      )}
      <div className="admin-toolbar">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </button>
      </div>
    </form>
  );
}

function Readings({ meter, lang }: { meter: AdminMeterFieldsFragment; lang: Language }) {
  const { t } = useTranslation(['admin-props', 'domain']);
  return (
    <section className="card stack" aria-labelledby="meter-readings">
      <h3 id="meter-readings">{t('meter.readings')}</h3>
      {meter.readings.length === 0 ? (
        <p className="muted">{t('meter.no_readings')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="meter-readings">
            <caption className="visually-hidden">{t('meter.readings_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('meter.time')}</th>
                <th scope="col" className="num">
                  {t('meter.value')}
                </th>
              </tr>
            </thead>
            <tbody>
              {meter.readings.map((r) => (
                <tr key={r.ts}>
                  <td>{when(r.ts, lang)}</td>
                  <td className="num">{r.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
