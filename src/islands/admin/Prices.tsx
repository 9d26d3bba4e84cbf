/**
 * /admin/prices (issue 21): a property's unit prices, fixed charges and CO₂ factors. A change is a new validity
 * period or an explicit correction; before saving, the form shows which months and tenancies it touches (the
 * server's preview), and a change of figures already shown needs a confirmation and a reason (audited).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { type RatePeriodFieldsFragment as Period, PropertyRatesDocument } from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { PropertySelect } from './opsShared.tsx';
import { ChangeCard, type Target } from './RateChange.tsx';
import { SettingsError } from './settingsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function Prices({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Page />
    </Providers>
  );
}

function Page() {
  const { t } = useTranslation(['admin-settings', 'domain']);
  const operator = useOperator();
  const [propertyId, setPropertyId] = useState('');
  const [target, setTarget] = useState<Target | null>(null);
  const client = useQueryClient();
  const rates = useQuery({
    queryKey: ['admin', 'rates', propertyId],
    queryFn: () => adminRequest(PropertyRatesDocument, { propertyId }),
    enabled: operator !== null && propertyId !== '',
  });
  const [saved, setSaved] = useState(false);
  const onSaved = async () => {
    setTarget(null);
    setSaved(true);
    await client.invalidateQueries({ queryKey: ['admin', 'rates', propertyId] });
  };
  const open = (next: Target) => {
    setSaved(false);
    setTarget(next);
  };
  const quantityName = (q: string | null) =>
    q
      ? t(`domain:quantities.${q}` as 'domain:quantities.heat-energy', { defaultValue: q })
      : t('whole_tenancy');
  const period = (p: Period) =>
    p.validTo
      ? t('period_to', { from: p.validFrom, to: p.validTo })
      : t('period_open', { from: p.validFrom });
  const correct = (p: Period) => (
    <button
      type="button"
      className="button ghost"
      onClick={() => open({ type: 'correct', period: p })}
      aria-label={t('rates.correct_named', {
        name: `${p.chargeKind ?? quantityName(p.quantity)} ${period(p)}`,
      })}
    >
      {t('rates.correct')}
    </button>
  );
  const data = rates.data?.propertyRates;
  return (
    <div className="stack settings-page">
      <div className="card">
        <PropertySelect
          value={propertyId}
          onChange={(id) => {
            setPropertyId(id);
            setTarget(null);
            setSaved(false);
          }}
        />
      </div>
      {saved && !target && (
        <p className="alert success" role="status">
          {t('saved')}
        </p>
      )}
      {propertyId && rates.isError && <SettingsError code={rates.error.message} />}
      {propertyId && !data && !rates.isError && <Spinner label={t('loading')} />}
      {data && (
        <>
          <div className="settings-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => open({ type: 'new', kind: 'PRICE' })}
            >
              {t('rates.new_price')}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => open({ type: 'new', kind: 'FIXED_CHARGE' })}
            >
              {t('rates.new_charge')}
            </button>
            <button type="button" className="button" onClick={() => open({ type: 'co2', quantity: null })}>
              {t('co2.add')}
            </button>
          </div>
          {target && (
            <ChangeCard
              key={JSON.stringify(target)}
              propertyId={propertyId}
              target={target}
              onCancel={() => setTarget(null)}
              onSaved={onSaved}
            />
          )}
          <div className="card admin-table-wrap">
            <table className="admin-table" data-testid="prices-table">
              <caption>{t('rates.prices_caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('rates.quantity')}</th>
                  <th scope="col" className="num">
                    {t('rates.price')}
                  </th>
                  <th scope="col">{t('rates.valid')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('rates.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.prices.length === 0 && (
                  <tr>
                    <td colSpan={4}>{t('rates.none')}</td>
                  </tr>
                )}
                {data.prices.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{quantityName(p.quantity)}</th>
                    <td className="num">
                      {p.amount} {p.currency}
                    </td>
                    <td>{period(p)}</td>
                    <td>{correct(p)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="card admin-table-wrap">
            <table className="admin-table" data-testid="charges-table">
              <caption>{t('rates.charges_caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('rates.charge_kind')}</th>
                  <th scope="col">{t('rates.quantity')}</th>
                  <th scope="col" className="num">
                    {t('rates.per_year')}
                  </th>
                  <th scope="col">{t('rates.valid')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('rates.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.fixedCharges.length === 0 && (
                  <tr>
                    <td colSpan={5}>{t('rates.none')}</td>
                  </tr>
                )}
                {data.fixedCharges.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{p.chargeKind}</th>
                    <td>{quantityName(p.quantity)}</td>
                    <td className="num">
                      {p.amount} {p.currency}
                    </td>
                    <td>{period(p)}</td>
                    <td>{correct(p)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="card admin-table-wrap">
            <table className="admin-table" data-testid="co2-table">
              <caption>{t('co2.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('rates.quantity')}</th>
                  <th scope="col" className="num">
                    {t('co2.grams')}
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">{t('rates.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.co2Factors.length === 0 && (
                  <tr>
                    <td colSpan={3}>{t('rates.none')}</td>
                  </tr>
                )}
                {data.co2Factors.map((c) => (
                  <tr key={c.quantity}>
                    <th scope="row">{quantityName(c.quantity)}</th>
                    <td className="num">{c.gramPerUnit}</td>
                    <td>
                      <button
                        type="button"
                        className="button ghost"
                        onClick={() => open({ type: 'co2', quantity: c.quantity, current: c.gramPerUnit })}
                        aria-label={t('rates.correct_named', { name: quantityName(c.quantity) })}
                      >
                        {t('rates.correct')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="admin-subtle">{t('co2.no_dates')}</p>
          </div>
        </>
      )}
    </div>
  );
}
