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
    p.validFrom === null
      ? p.validTo
        ? t('period_always_to', { to: p.validTo })
        : t('period_always')
      : p.validTo
        ? t('period_to', { from: p.validFrom, to: p.validTo })
        : t('period_open', { from: p.validFrom });
  const amountOf = (p: Period) => (p.currency ? `${p.amount} ${p.currency}` : p.amount);
  const correct = (p: Period) => open({ type: 'correct', period: p });
  const tables = { quantityName, period, amountOf, onCorrect: correct };
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
            <button
              type="button"
              className="button"
              onClick={() => open({ type: 'new', kind: 'CO2_FACTOR' })}
            >
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
          <PeriodTable
            testId="prices-table"
            caption={t('rates.prices_caption')}
            amountHeader={t('rates.price')}
            periods={data.prices}
            {...tables}
          />
          <PeriodTable
            testId="charges-table"
            caption={t('rates.charges_caption')}
            amountHeader={t('rates.per_year')}
            periods={data.fixedCharges}
            showChargeKind
            {...tables}
          />
          <PeriodTable
            testId="co2-table"
            caption={t('co2.caption')}
            amountHeader={t('co2.grams')}
            periods={data.co2Factors}
            note={t('co2.hint')}
            {...tables}
          />
        </>
      )}
    </div>
  );
}

interface PeriodTableProps {
  testId: string;
  caption: string;
  amountHeader: string;
  periods: Period[];
  /** Fixed charges: a first column with the kind of charge. */
  showChargeKind?: boolean;
  quantityName: (q: string | null) => string;
  period: (p: Period) => string;
  amountOf: (p: Period) => string;
  onCorrect: (p: Period) => void;
  note?: string;
}

/** One table of validity periods (prices, fixed charges or CO₂ factors), each row with its correction button. */
function PeriodTable(props: PeriodTableProps) {
  const { t } = useTranslation('admin-settings');
  const { periods, showChargeKind = false, quantityName, period } = props;
  return (
    <div className="card admin-table-wrap">
      <table className="admin-table" data-testid={props.testId}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {showChargeKind && <th scope="col">{t('rates.charge_kind')}</th>}
            <th scope="col">{t('rates.quantity')}</th>
            <th scope="col" className="num">
              {props.amountHeader}
            </th>
            <th scope="col">{t('rates.valid')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('rates.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {periods.length === 0 && (
            <tr>
              <td colSpan={showChargeKind ? 5 : 4}>{t('rates.none')}</td>
            </tr>
          )}
          {periods.map((p) => (
            <tr key={p.id}>
              {showChargeKind && <th scope="row">{p.chargeKind}</th>}
              {showChargeKind ? (
                <td>{quantityName(p.quantity)}</td>
              ) : (
                <th scope="row">{quantityName(p.quantity)}</th>
              )}
              <td className="num">{props.amountOf(p)}</td>
              <td>{period(p)}</td>
              <td>
                <button
                  type="button"
                  className="button ghost"
                  onClick={() => props.onCorrect(p)}
                  aria-label={t('rates.correct_named', {
                    name: `${p.chargeKind ?? quantityName(p.quantity)} ${period(p)}`,
                  })}
                >
                  {t('rates.correct')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.note && <p className="admin-subtle">{props.note}</p>}
    </div>
  );
}
